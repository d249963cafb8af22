print("unused")
