# Wrong on purpose: allocates memory without bound (and writes it, so that it is really used).
chunks = []
while True:
    chunks.append("x" * (1 << 20))
