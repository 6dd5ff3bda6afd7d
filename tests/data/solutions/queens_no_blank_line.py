# Wrong on purpose: queens without the empty line between test cases (a presentation error).
import sys


def placements(col=0, rows=()):
    if col == 8:
        yield rows
        return
    for r in range(8):
        if all(r != q and abs(r - q) != col - c for c, q in enumerate(rows)):
            yield from placements(col + 1, rows + (r,))


ALL = list(placements())
words = sys.stdin.read().split()
out = []
for t in range(int(words[0])):
    row, col = int(words[1 + 2 * t]) - 1, int(words[2 + 2 * t]) - 1
    out.append("SOLN       COLUMN")
    out.append(" #      1 2 3 4 5 6 7 8")
    found = [p for p in ALL if p[col] == row]
    for i, p in enumerate(found, 1):
        out.append("%2d      %s" % (i, " ".join(str(r + 1) for r in p)))
print("\n".join(out))
