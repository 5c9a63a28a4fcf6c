error("stop here")
