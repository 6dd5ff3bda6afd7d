# Wrong on purpose: tour by breadth-first search with the moves tried in reverse order: a
# shortest path, but not the lexicographically first.
import sys
from collections import deque

lines = sys.stdin.read().split()
out = []
for s in range(int(lines[0])):
    board = lines[1 + 8 * s : 9 + 8 * s]
    cell = lambda r, c: board[r][c]
    knights = [(r, c) for r in range(8) for c in range(8) if cell(r, c) == "N"]
    queen = next((r, c) for r in range(8) for c in range(8) if cell(r, c) == "Q")
    bishop = next((r, c) for r in range(8) for c in range(8) if cell(r, c) == "B")
    near = lambda a, b: a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1
    touch = lambda sq: sum(1 << i for i, k in enumerate(knights) if near(sq, k))
    full = (1 << len(knights)) - 1
    name = lambda sq: "abcdefgh"[sq[1]] + str(8 - sq[0])
    start = (queen, touch(queen))
    parent = {start: None}
    queue = deque([start])
    end = None
    while queue:
        sq, mask = state = queue.popleft()
        if mask == full and near(sq, bishop):
            end = state
            break
        moves = []
        for dr, dc in [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]:
            r, c = sq[0] + dr, sq[1] + dc
            while 0 <= r < 8 and 0 <= c < 8 and cell(r, c) in ".Q":
                moves.append((r, c))
                r, c = r + dr, c + dc
        for to in sorted(moves, key=name, reverse=True):
            nxt = (to, mask | touch(to))
            if nxt not in parent:
                parent[nxt] = state
                queue.append(nxt)
    out.append("Scenario #%d:" % (s + 1))
    path = []
    while end is not None:
        path.append(name(end[0]))
        end = parent[end]
    out.append("".join(reversed(path)) if path else "impossible")
    out.append("")
print("\n".join(out))
