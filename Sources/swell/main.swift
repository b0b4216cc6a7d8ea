// The swell command (being written).
print("swell")
