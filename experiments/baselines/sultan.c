/* Baseline for `chess-puzzles sultan`: a good plain C solution of The Sultan's Successors (UVa 167) as contest solvers
   write it. The 92 placements are found once by backtracking; each board is read with scanf
   and scored against all of them. Used only for side-by-side timing, never built by cargo.
   Build: cc -O2 -o sultan_c sultan.c ; run: ./sultan_c < input */
#include <stdio.h>
#include <stdlib.h>

static int sol[92][8], nsol = 0, cur[8];

static int safe(int r, int c) {
    for (int p = 0; p < c; p++)
        if (cur[p] == r || abs(cur[p] - r) == c - p) return 0;
    return 1;
}

static void place(int c) {
    if (c == 8) {
        for (int i = 0; i < 8; i++) sol[nsol][i] = cur[i];
        nsol++;
        return;
    }
    for (int r = 0; r < 8; r++)
        if (safe(r, c)) { cur[c] = r; place(c + 1); }
}

int main(void) {
    place(0);
    int k, w[8][8];
    if (scanf("%d", &k) != 1) return 1;
    while (k--) {
        for (int r = 0; r < 8; r++)
            for (int c = 0; c < 8; c++)
                if (scanf("%d", &w[r][c]) != 1) return 1;
        int best = 0;
        for (int i = 0; i < nsol; i++) {
            int s = 0;
            for (int c = 0; c < 8; c++) s += w[sol[i][c]][c];
            if (s > best) best = s;
        }
        printf("%5d\n", best);
    }
    return 0;
}
