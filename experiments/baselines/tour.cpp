// A plain C++ solution of the Traveling Queen problem (POJ 2919), the baseline the
// README times `chess-puzzles tour` against. It reads the same judge input and writes the same
// judge output.
//
// The method is the textbook one: breadth-first search over (square, visited-knights) states,
// one byte of distance per state; then a backward marking pass over the BFS queue in reverse
// keeps the states from which a goal (every knight visited, next to the bishop) is reached at
// the minimum depth; then a forward walk takes, at every move, the lexicographically first
// marked successor (successor lists are kept in lexicographic order of square names).
//
// Written for this project; not part of the Rust build. Build and run:
//   g++ -O2 -o target/tour-baseline experiments/baselines/tour.cpp
//   target/tour-baseline input.txt      (or: target/tour-baseline < input.txt)
#include <cstdio>
#include <cstring>
#include <vector>

static const int MAXK = 14;

int main(int argc, char** argv) {
    if (argc > 1 && !freopen(argv[1], "r", stdin)) return 2;
    int scenarios;
    if (scanf("%d", &scenarios) != 1) return 1;
    std::vector<unsigned char> dist(64u << MAXK), good(64u << MAXK);
    std::vector<int> queue(64u << MAXK);
    for (int t = 1; t <= scenarios; ++t) {
        char row[8][16];
        for (int r = 0; r < 8; ++r)
            if (scanf("%15s", row[r]) != 1) return 1;
        int queen = -1, bishop = -1, k = 0, knights[64];
        bool open[64];
        for (int r = 0; r < 8; ++r)
            for (int c = 0; c < 8; ++c) {
                char ch = row[r][c];
                int sq = r * 8 + c;
                open[sq] = ch == '.' || ch == 'Q';
                if (ch == 'Q') queen = sq;
                if (ch == 'B') bishop = sq;
                if (ch == 'N') knights[k++] = sq;
            }
        if (k > MAXK || queen < 0 || bishop < 0) return 1;
        auto touches = [](int a, int b) {
            int dr = a / 8 - b / 8, dc = a % 8 - b % 8;
            return a != b && dr >= -1 && dr <= 1 && dc >= -1 && dc <= 1;
        };
        // Per square: the knights it touches, whether it touches the bishop, and its moves in
        // lexicographic order of square names (file first, then rank = lower row last).
        int sig[64];
        bool near_bishop[64];
        std::vector<int> moves[64];
        for (int s = 0; s < 64; ++s) {
            sig[s] = 0;
            for (int i = 0; i < k; ++i)
                if (touches(s, knights[i])) sig[s] |= 1 << i;
            near_bishop[s] = touches(s, bishop);
            if (!open[s]) continue;
            bool reach[64] = {false};
            static const int dr[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
            static const int dc[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
            for (int d = 0; d < 8; ++d) {
                int r = s / 8 + dr[d], c = s % 8 + dc[d];
                while (r >= 0 && r < 8 && c >= 0 && c < 8 && open[r * 8 + c]) {
                    reach[r * 8 + c] = true;
                    r += dr[d];
                    c += dc[d];
                }
            }
            for (int c = 0; c < 8; ++c)
                for (int r = 7; r >= 0; --r)
                    if (reach[r * 8 + c]) moves[s].push_back(r * 8 + c);
        }
        const int all = (1 << k) - 1;
        const size_t states = 64u << k;
        memset(dist.data(), 255, states);
        memset(good.data(), 0, states);
        // State index: mask * 64 + square.
        int start = sig[queen] * 64 + queen;
        int head = 0, tail = 0, depth = -1;
        dist[start] = 0;
        queue[tail++] = start;
        while (head < tail) {
            int u = queue[head];
            int d = dist[u];
            if (depth >= 0 && d > depth) break;
            ++head;
            int s = u & 63, m = u >> 6;
            if (m == all && near_bishop[s]) {
                depth = d;
                continue;
            }
            if (depth >= 0) continue;
            for (int v : moves[s]) {
                int w = (m | sig[v]) * 64 + v;
                if (dist[w] == 255) {
                    dist[w] = (unsigned char)(d + 1);
                    queue[tail++] = w;
                }
            }
        }
        printf("Scenario #%d:\n", t);
        if (depth < 0) {
            printf("impossible\n\n");
            continue;
        }
        // Backward marking: the queue holds states in order of distance; walk it backwards.
        for (int i = head - 1; i >= 0; --i) {
            int u = queue[i];
            int d = dist[u], s = u & 63, m = u >> 6;
            if (d == depth) {
                good[u] = m == all && near_bishop[s];
                continue;
            }
            for (int v : moves[s]) {
                int w = (m | sig[v]) * 64 + v;
                if (dist[w] == d + 1 && good[w]) {
                    good[u] = 1;
                    break;
                }
            }
        }
        // Forward walk: the first marked successor, in lexicographic order.
        int u = start;
        printf("%c%c", 'a' + queen % 8, '8' - queen / 8);
        for (int d = 0; d < depth; ++d) {
            int s = u & 63, m = u >> 6;
            for (int v : moves[s]) {
                int w = (m | sig[v]) * 64 + v;
                if (dist[w] == d + 1 && good[w]) {
                    u = w;
                    break;
                }
            }
            printf("%c%c", 'a' + (u & 63) % 8, '8' - (u & 63) / 8);
        }
        printf("\n\n");
    }
    return 0;
}
