print("image")
