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
    expect(verify(c, LDC, ref, NULL, M, N, K, FP32).ok, "verify accepts a result "
           "within rounding");
    c[5 * LDC + 7] += 1e-3f * 10.0f;
    struct verdict v = verify(c, LDC, ref, NULL, M, N, K, FP32);
    expect(!v.ok && v.worst_i == 5 && v.worst_j == 7,
           "verify rejects one planted wrong element and finds it");
    make_pair(ref, c);
    c[(M - 1) * LDC + N - 1] = NAN;
    v = verify(c, LDC, ref, NULL, M, N, K, FP32);
    expect(!v.ok && v.nonfinite == 1, "verify rejects a NaN");
    make_pair(ref, c);
    c[3 * LDC] = INFINITY;
    expect(!verify(c, LDC, ref, NULL, M, N, K, FP32).ok, "verify rejects an Inf");
    make_pair(ref, c);
    memset(&c[10 * LDC], 0xff, sizeof(float) * N);   /* poison */
    v = verify(c, LDC, ref, NULL, M, N, K, FP32);
    expect(!v.ok && v.nonfinite == N,
           "verify rejects a row the kernel never wrote");
    make_pair(ref, c);
    c[2 * LDC + N] = NAN;                 /* padding is not C */
    expect(verify(c, LDC, ref, NULL, M, N, K, FP32).ok,
           "verify ignores the padding between rows");
}

static void test_tolerance(void)
{
    double u = ldexp(1.0, -24);
    expect(tolerance(FP32, 1) == 64 * u
           && tolerance(FP32, 4096) == 16 * 64 * u
           && tolerance_max(FP32, 4096) == tolerance(FP32, 4096),
           "FP32: tolerance is u*max(64, 16 sqrt(K))");
    expect(tolerance(FP32, 4096) < 2e-4 && tolerance(FP32, 4096) > 1e-5,
           "FP32: tolerance at K=4096 separates fp32 from tf32");
    expect(tolerance(FP32_3XTF32, 4096) == tolerance(FP32, 4096),
           "3xTF32 is held to the FP32 bound");
    expect(tolerance(TF32, 1) == 4 * ldexp(1.0, -11) + 64 * u
           && tolerance_max(TF32, 1) == 16 * ldexp(1.0, -11) + 64 * u
           && tolerance(BF16, 1) == 4 * ldexp(1.0, -8) + 64 * u,
           "TF32 and BF16: 4 and 16 input roundoffs on top of FP32's");
}

/* x rounded to the nearest number of bits significant bits. */
static float round_bits(float x, int bits)
{
    int e;
    double f = frexp(x, &e);
    return (float)ldexp(nearbyint(ldexp(f, bits)), e - bits);
}

/* A product of random inputs, its float64 value and its scales, and the
   result a kernel that rounds its inputs to a format of 2^-bits unit
   roundoff would give. */
static void rounded_product(int bits, double *ref, double *scale, float *c)
{
    static float a[M * K], b[K * N];
    unsigned s = 12345;
    for (int i = 0; i < M * K + K * N; i++) {
        s = s * 1664525u + 1013904223u;
        float x = (float)((s >> 8) / 8388608.0 - 1.0);
        if (i < M * K) a[i] = x; else b[i - M * K] = x;
    }
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double r = 0, sq = 0;
            float acc = 0;
            for (int p = 0; p < K; p++) {
                double t = (double)a[i * K + p] * b[p * N + j];
                float ra = a[i * K + p], rb = b[p * N + j];
                if (bits) {
                    ra = round_bits(ra, bits);
                    rb = round_bits(rb, bits);
                }
                r += t;
                sq += t * t;
                acc += ra * rb;
            }
            ref[i * N + j] = r;
            scale[i * N + j] = sqrt(sq);
            c[i * LDC + j] = acc;
        }
}

static void test_precisions(void)
{
    static double ref[M * N], scale[M * N];
    static float c[M * LDC];
    struct verdict v;
    rounded_product(11, ref, scale, c);   /* TF32: 11 significant bits */
    v = verify(c, LDC, ref, scale, M, N, K, TF32);
    expect(v.ok && v.err > 1e-5, "a TF32 result passes TF32's bounds");
    expect(!verify(c, LDC, ref, scale, M, N, K, FP32).ok,
           "the same result fails FP32's bounds");
    c[7 * LDC + 3] += 0.05f * (float)scale[7 * N + 3];
    v = verify(c, LDC, ref, scale, M, N, K, TF32);
    expect(!v.ok && v.worst_i == 7 && v.worst_j == 3,
           "TF32: a planted wrong element fails and is found");
    rounded_product(8, ref, scale, c);    /* BF16: 8 significant bits */
    v = verify(c, LDC, ref, scale, M, N, K, BF16);
    expect(v.ok && v.err > 1e-4, "a BF16 result passes BF16's bounds");
    expect(!verify(c, LDC, ref, scale, M, N, K, TF32).ok,
           "the same result fails TF32's bounds");
    c[20 * LDC + 9] += 0.25f * (float)scale[20 * N + 9];
    v = verify(c, LDC, ref, scale, M, N, K, BF16);
    expect(!v.ok && v.worst_i == 20 && v.worst_j == 9,
           "BF16: a planted wrong element fails and is found");
    rounded_product(0, ref, scale, c);           /* FP32 */
    expect(verify(c, LDC, ref, scale, M, N, K, FP32).ok,
           "an FP32 result passes FP32's bounds, measured by scale");
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
    expect(parse("--list", &o, err) == 0 && o.list, "--list");
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
    test_precisions();
    test_options();
    printf("unit: %d passed, %d failed\n", passed, failed);
    return failed != 0;
}
