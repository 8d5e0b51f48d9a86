/*
 * The Takefuji–Lee network for closed knight's tours, as a researcher would write it
 * from the papers, in plain C: int arrays, one neuron at a time. It runs knightnet's
 * `parberry` rule (Parberry 1996, with C = 4, S = 2 as his tables require):
 *
 *   neurons   one per knight move {a, b}, a < b, squares numbered row-major
 *             (square = row * cols + col), sorted by (a, b);
 *   update    dU(e) = C - (sum of V over the other neurons at a or b) - S * V(e),
 *             U(e) += dU(e); V(e) = 1 if U(e) > 3, 0 if U(e) < 0, else unchanged
 *             (hysteresis);
 *   order     sequential: one sweep visits neurons 0, 1, ..., E-1, each reading the
 *             current outputs;
 *   start     the V of every neuron read from the input file, U = 0;
 *   stop      after a sweep in which no U changed (dU = 0 for every neuron), or after
 *             1000 sweeps.
 *
 * An attempt that stopped is a tour when every square has exactly two active moves and
 * they form one cycle; "multiple-cycles" when they form several; "stable-not-degree-two"
 * when some square has not two; one that did not stop within 1000 sweeps is
 * "iteration-cap" (knightnet's names).
 *
 * Input (written by `cargo run --release -p knightnet-bench --bin plain-c -- states`):
 *
 *   knightnet-initial-states 1
 *   ROWS COLS
 *   NEURONS ATTEMPTS
 *   one line per attempt: NEURONS characters '0' or '1', the initial V in neuron order
 *
 * Output: one line of totals,
 *
 *   attempts A sweeps S tours T other O seconds X
 *
 * where X is the time spent running the attempts (the sweeps and each attempt's final
 * check), not reading the file; with -v first one line per attempt:
 * "attempt I sweeps S OUTCOME".
 *
 * Build: cc -O2 -std=c99 -o takefuji_lee takefuji_lee.c
 * Run:   ./takefuji_lee [-v] FILE
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define C_BIAS 4
#define S_SELF 2
#define UPPER 3
#define LOWER 0
#define MAX_SWEEPS 1000

static int rows, cols, squares, neurons;
static int *end_a, *end_b; /* the two squares of each neuron */

static void fail(const char *what)
{
    fprintf(stderr, "takefuji_lee: %s\n", what);
    exit(2);
}

static void *alloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size);
    if (p == NULL)
        fail("out of memory");
    return p;
}

/* The knight's moves of the board, in canonical order; returns how many. */
static int build_graph(int store)
{
    static const int dr[8] = {-2, -2, -1, -1, 1, 1, 2, 2};
    static const int dc[8] = {-1, 1, -2, 2, -2, 2, -1, 1};
    int e = 0;
    for (int a = 0; a < squares; a++) {
        int r = a / cols, c = a % cols;
        int targets[8], t = 0;
        for (int k = 0; k < 8; k++) {
            int nr = r + dr[k], nc = c + dc[k];
            if (nr >= 0 && nr < rows && nc >= 0 && nc < cols && nr * cols + nc > a)
                targets[t++] = nr * cols + nc;
        }
        for (int i = 1; i < t; i++) /* insertion sort: targets in increasing order */
            for (int j = i; j > 0 && targets[j - 1] > targets[j]; j--) {
                int keep = targets[j];
                targets[j] = targets[j - 1];
                targets[j - 1] = keep;
            }
        for (int k = 0; k < t; k++) {
            if (store) {
                end_a[e] = a;
                end_b[e] = targets[k];
            }
            e++;
        }
    }
    return e;
}

enum outcome { TOUR, MULTIPLE_CYCLES, NOT_DEGREE_TWO, ITERATION_CAP };
static const char *outcome_name[4] = {"tour", "multiple-cycles", "stable-not-degree-two",
                                      "iteration-cap"};

/* The attempt from the outputs V (U = 0): returns its outcome, its sweeps in *sweeps. */
static enum outcome run_attempt(int *u, int *v, int *deg, int *nbr, int *sweeps)
{
    for (int x = 0; x < squares; x++)
        deg[x] = 0;
    for (int e = 0; e < neurons; e++) {
        u[e] = 0;
        deg[end_a[e]] += v[e];
        deg[end_b[e]] += v[e];
    }
    int stopped = 0, sweep = 0;
    while (!stopped && sweep < MAX_SWEEPS) {
        int changed = 0;
        for (int e = 0; e < neurons; e++) {
            int a = end_a[e], b = end_b[e];
            int others = deg[a] + deg[b] - 2 * v[e];
            int du = C_BIAS - others - S_SELF * v[e];
            if (du != 0)
                changed++;
            u[e] += du;
            int nv = v[e];
            if (u[e] > UPPER)
                nv = 1;
            else if (u[e] < LOWER)
                nv = 0;
            if (nv != v[e]) {
                int step = nv ? 1 : -1;
                deg[a] += step;
                deg[b] += step;
                v[e] = nv;
            }
        }
        sweep++;
        stopped = (changed == 0);
    }
    *sweeps = sweep;
    if (!stopped)
        return ITERATION_CAP;
    for (int x = 0; x < squares; x++) {
        if (deg[x] != 2)
            return NOT_DEGREE_TWO;
        nbr[2 * x] = nbr[2 * x + 1] = -1;
    }
    for (int e = 0; e < neurons; e++) {
        if (v[e]) {
            int a = end_a[e], b = end_b[e];
            nbr[2 * a + (nbr[2 * a] >= 0)] = b;
            nbr[2 * b + (nbr[2 * b] >= 0)] = a;
        }
    }
    /* Walk the cycle through square 0: a tour when it visits every square. */
    int length = 0, prev = -1, x = 0;
    do {
        int next = nbr[2 * x] != prev ? nbr[2 * x] : nbr[2 * x + 1];
        prev = x;
        x = next;
        length++;
    } while (x != 0);
    return length == squares ? TOUR : MULTIPLE_CYCLES;
}

int main(int argc, char **argv)
{
    int verbose = argc == 3 && strcmp(argv[1], "-v") == 0;
    if (argc != 2 + verbose)
        fail("usage: takefuji_lee [-v] FILE (a file of initial states; see the source)");
    FILE *in = fopen(argv[1 + verbose], "r");
    if (in == NULL)
        fail("cannot open the input file");
    int version, attempts;
    if (fscanf(in, "knightnet-initial-states %d %d %d %d %d", &version, &rows, &cols,
               &neurons, &attempts) != 5 || version != 1)
        fail("the input does not start with 'knightnet-initial-states 1 ROWS COLS NEURONS ATTEMPTS'");
    if (rows < 1 || cols < 1 || rows > 1000 || cols > 1000 || attempts < 0)
        fail("the board must have sides 1 to 1000 and the attempts must be 0 or more");
    squares = rows * cols;
    if (build_graph(0) != neurons)
        fail("the file's neuron count is not the board's number of knight moves");
    end_a = alloc(neurons, sizeof(int));
    end_b = alloc(neurons, sizeof(int));
    build_graph(1);

    int *start = alloc((size_t)attempts * neurons, sizeof(int));
    for (int i = 0; i < attempts; i++) {
        for (int e = 0; e < neurons; e++) {
            int ch;
            do
                ch = fgetc(in);
            while (ch == '\n' || ch == '\r' || ch == ' ');
            if (ch != '0' && ch != '1')
                fail("an initial state holds a character other than 0 or 1, or ends early");
            start[(size_t)i * neurons + e] = ch - '0';
        }
    }
    fclose(in);

    int *u = alloc(neurons, sizeof(int)), *v = alloc(neurons, sizeof(int));
    int *deg = alloc(squares, sizeof(int)), *nbr = alloc(2 * (size_t)squares, sizeof(int));
    int *sweeps_of = alloc(attempts + 1, sizeof(int));
    enum outcome *outcome_of = alloc(attempts + 1, sizeof(enum outcome));
    long long total_sweeps = 0;
    int tours = 0;

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < attempts; i++) {
        memcpy(v, start + (size_t)i * neurons, neurons * sizeof(int));
        outcome_of[i] = run_attempt(u, v, deg, nbr, &sweeps_of[i]);
        total_sweeps += sweeps_of[i];
        tours += outcome_of[i] == TOUR;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;

    if (verbose)
        for (int i = 0; i < attempts; i++)
            printf("attempt %d sweeps %d %s\n", i, sweeps_of[i], outcome_name[outcome_of[i]]);
    printf("attempts %d sweeps %lld tours %d other %d seconds %.6f\n", attempts, total_sweeps,
           tours, attempts - tours, seconds);
    return 0;
}
