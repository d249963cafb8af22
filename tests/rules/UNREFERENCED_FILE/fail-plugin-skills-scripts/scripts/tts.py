print("speech")
