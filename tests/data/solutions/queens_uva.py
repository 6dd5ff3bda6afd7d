# A right answer to UVa 750 as accepted solutions there are written: it reads the empty line
# after the number of cases and the one before every case with input(), and answers in the UVa
# layout (an empty line after the headings). It fails on an input without those empty lines.
def placements(col=0, rows=()):
    if col == 8:
        yield rows
        return
    for r in range(8):
        if all(r != q and abs(r - q) != col - c for c, q in enumerate(rows)):
            yield from placements(col + 1, rows + (r,))


ALL = list(placements())
cases = int(input())
for case in range(cases):
    blank = input()
    assert blank.strip() == "", "expected the empty line before a case"
    row, col = map(int, input().split())
    if case > 0:
        print()
    print("SOLN       COLUMN")
    print(" #      1 2 3 4 5 6 7 8")
    print()
    found = [p for p in ALL if p[col - 1] == row - 1]
    for i, p in enumerate(found, 1):
        print("%2d      %s" % (i, " ".join(str(r + 1) for r in p)))
