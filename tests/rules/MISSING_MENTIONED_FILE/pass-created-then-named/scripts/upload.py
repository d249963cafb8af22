print("upload")
