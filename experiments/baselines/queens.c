/* Baseline for `chess-puzzles queens`: a good plain C solution of 8 Queens (UVa 750) as contest solvers
   write it. The 92 placements are found once by backtracking; each query filters them and
   prints with printf. Used only for side-by-side timing, never built by cargo.
   Build: cc -O2 -o queens_c queens.c ; run: ./queens_c < input */
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
    int t;
    if (scanf("%d", &t) != 1) return 1;
    for (int k = 0; k < t; k++) {
        int r, c;
        if (scanf("%d %d", &r, &c) != 2) return 1;
        if (k) printf("\n");
        printf("SOLN       COLUMN\n #      1 2 3 4 5 6 7 8\n");
        int n = 0;
        for (int i = 0; i < nsol; i++) {
            if (sol[i][c - 1] != r - 1) continue;
            printf("%2d      %d %d %d %d %d %d %d %d\n", ++n, sol[i][0] + 1, sol[i][1] + 1,
                   sol[i][2] + 1, sol[i][3] + 1, sol[i][4] + 1, sol[i][5] + 1, sol[i][6] + 1,
                   sol[i][7] + 1);
        }
    }
    return 0;
}
