/* unit.c: tests of the harness's verification and command line that
   need no GPU.  Prints one line per test; exits 1 if any failed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"

static int passed, failed;

static void expect(int cond, const char *what)
{
    printf("%s - %s\n", cond ? "ok" : "FAIL", what);
    cond ? passed++ : failed++;
}

enum { M = 37, N = 29, K = 300, LDC = N + 3 };

/* A reference and a result that agrees with it to fp32 rounding. */
static void make_pair(double *ref, float *c)
{
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double r = sin(1.0 + i * 0.37 + j * 0.11) * 10.0;
            ref[i * N + j] = r;
            c[i * LDC + j] = (float)r;
        }
}

static void test_verify(void)
{
    static double ref[M * N];
    static float c[M * LDC];
    make_pair(ref, c);
    expect(verify(c, LDC, ref, M, N, K).ok, "verify accepts a result "
           "within rounding");
    c[5 * LDC + 7] += 1e-3f * 10.0f;
    struct verdict v = verify(c, LDC, ref, M, N, K);
    expect(!v.ok && v.worst_i == 5 && v.worst_j == 7,
           "verify rejects one planted wrong element and finds it");
    make_pair(ref, c);
    c[(M - 1) * LDC + N - 1] = NAN;
    v = verify(c, LDC, ref, M, N, K);
    expect(!v.ok && v.nonfinite == 1, "verify rejects a NaN");
    make_pair(ref, c);
    c[3 * LDC] = INFINITY;
    expect(!verify(c, LDC, ref, M, N, K).ok, "verify rejects an Inf");
    make_pair(ref, c);
    memset(&c[10 * LDC], 0xff, sizeof(float) * N);   /* poison */
    v = verify(c, LDC, ref, M, N, K);
    expect(!v.ok && v.nonfinite == N,
           "verify rejects a row the kernel never wrote");
    make_pair(ref, c);
    c[2 * LDC + N] = NAN;                 /* padding is not C */
    expect(verify(c, LDC, ref, M, N, K).ok,
           "verify ignores the padding between rows");
}

static void test_tolerance(void)
{
    double u = ldexp(1.0, -24);
    expect(tolerance(1) == 64 * u && tolerance(4096) == 16 * 64 * u,
           "tolerance is u*max(64, 16 sqrt(K))");
    expect(tolerance(4096) < 2e-4 && tolerance(4096) > 1e-5,
           "tolerance at K=4096 separates fp32 from tf32");
}

static int parse(const char *line, struct options *o, char *err)
{
    char buf[256], *argv[32];
    int argc = 0;
    snprintf(buf, sizeof buf, "prog %s", line);
    for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " "))
        argv[argc++] = t;
    argv[argc] = NULL;
    return parse_options(argc, argv, o, err, 256);
}

static void test_options(void)
{
    struct options o;
    char err[256];
    expect(parse("", &o, err) == 0 && o.nshapes == 3
           && o.shapes[2].m == 4096 && o.alpha == 1 && o.beta == 0,
           "no arguments: the default sizes, alpha 1, beta 0");
    expect(parse("--size 7,4097 -m 3 -n 5 -k 9 --beta=0.5 --reps 9",
                 &o, err) == 0 && o.nshapes == 3 && o.shapes[1].n == 4097
           && o.shapes[2].m == 3 && o.shapes[2].n == 5
           && o.shapes[2].k == 9 && o.beta == 0.5f && o.reps == 9,
           "sizes, a shape and --opt=value");
    expect(parse("--help", &o, err) == 1, "--help");
    static const char *bad[] = {
        "--size abc", "--size 0", "--size -4", "--size 12x",
        "--size ,", "-m 10", "-m 4 -n 4", "--reps 0", "--frobnicate",
        "--alpha nan", "--beta inf", "--size", "--seed -1",
        "--size 3000000", "-m 1 -n 1 -k 3000000000",
        "-m 50000 -n 50000 -k 50000",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char what[128];
        int rc = parse(bad[i], &o, err);
        snprintf(what, sizeof what, "'%s' is refused with a message",
                 bad[i]);
        expect(rc == 2 && strlen(err) > 10 && !strchr(err, '\n'), what);
    }
}

int main(void)
{
    test_verify();
    test_tolerance();
    test_options();
    printf("unit: %d passed, %d failed\n", passed, failed);
    return failed != 0;
}
