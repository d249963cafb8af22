print("me")
