print("marquee-bench: not yet")
