# Wrong on purpose: sultan searching greedily, the heaviest free square of each row first, and
# answering with the first complete placement instead of the best one.
import sys

words = sys.stdin.read().split()
k, at = int(words[0]), 1
for _ in range(k):
    w = [[int(x) for x in words[at + 8 * r : at + 8 * r + 8]] for r in range(8)]
    at += 64

    def first(row, cols):
        if row == 8:
            return 0
        for c in sorted(range(8), key=lambda c: -w[row][c]):
            if all(c != q and abs(c - q) != row - r for r, q in enumerate(cols)):
                rest = first(row + 1, cols + [c])
                if rest is not None:
                    return w[row][c] + rest
        return None

    print("%5d" % first(0, []))
