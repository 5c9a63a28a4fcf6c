os.execute("echo escaped")
