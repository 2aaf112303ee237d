print("validator")
