local f = loadfile("/etc/passwd")
