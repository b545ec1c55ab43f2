/* labrun.c: runs one kernel entry of a lab's program once (make labN
   links it with the student's code as build/lab/chN-run, in place of
   the harness's main) and writes C, its padding included, to a file
   for the grader's judge (judge.c), which verifies it in a process of
   its own: what the student's code could reach in this process cannot
   make a kernel pass.  With --time R it also times R + 1 launches, each
   on operands of its own, the last one on the judge's, whose result
   the judge checks (lab.h); the runner's one check of its own, a spot
   check of every timed launch, can only fail a kernel.  See lab.h for the
   options and the file.  LAB_PROGRAM names the chapter's table (chN_program).
   Exit: 0 written, 1 a CUDA error or a failed write, 2 bad options or
   no such entry, 3 this GPU cannot run the entry. */
#define _POSIX_C_SOURCE 200809L      /* getpid */
#include "harness.h"
#include "lab.h"
#include <cuda_runtime_api.h>
#include <math.h>
#include <time.h>
#include <unistd.h>

extern const struct chapter LAB_PROGRAM;

static bf16_bits to_bf16(float x)      /* as the harness rounds */
{
    unsigned int u;
    memcpy(&u, &x, sizeof u);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (bf16_bits)(u >> 16);
}

static void *dev(size_t bytes)
{
    void *p = NULL;
    CUDA_CHECK(cudaMalloc(&p, bytes ? bytes : 1));
    return p;
}

/* A and B on the host and the GPU (and their BF16 copies where the
   entry reads BF16) */
struct operands_up {
    float *ha, *hb;
    bf16_bits *h16;
    float *a, *b;
    bf16_bits *a16, *b16;
    size_t na, nb;
};

/* A timed launch's C, checked at 64 elements the runner draws (the
   GPU cannot see where) against float64 sums of the same products: a
   launch that skipped or cut short its work fails here, whatever the
   judge later finds of the last one.  The bound is loose (the judge's
   check of the last launch is the strict one): 1e-4 of the sum of the
   products' magnitudes, 4e-3 where the inputs are rounded to TF32;
   BF16 products are summed from the BF16 inputs. */
static int spot_check(const struct operands_up *u, const float *cc, int m,
                      int n, int k, int lda, int ldb, int ldc, float alpha,
                      enum precision prec, int launch, const char *prog)
{
    static unsigned long long x;
    if (!x)
        x = (unsigned long long)time(NULL) * 2654435761u ^ (unsigned long long)getpid() << 20 ^ 1;
    double bound = prec == TF32 ? 4e-3 : 1e-4;
    for (int s = 0; s < 64; s++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        int i = (int)(x % (unsigned long long)m), j = (int)((x >> 32) % (unsigned long long)n);
        double sum = 0.0, mag = 0.0;
        for (int p = 0; p < k; p++) {
            float a = u->ha[(size_t)i * lda + p], b = u->hb[(size_t)p * ldb + j];
            if (prec == BF16) {
                unsigned int ua = (unsigned int)to_bf16(a) << 16, ub = (unsigned int)to_bf16(b) << 16;
                memcpy(&a, &ua, sizeof a);
                memcpy(&b, &ub, sizeof b);
            }
            sum += (double)a * b;
            mag += fabs((double)a * b);
        }
        float got;
        CUDA_CHECK(cudaMemcpy(&got, cc + (size_t)i * ldc + j, sizeof got, cudaMemcpyDeviceToHost));
        double want = alpha * sum, tol = bound * fabs(alpha) * mag + 1e-30;
        if (!(fabs(got - want) <= tol)) {
            fprintf(stderr, "%s: timed launch %d of the timing run left C[%d][%d] = %g "
                    "where the product is %g: every timed launch must do its work\n",
                    prog, launch, i, j, got, want);
            return 0;
        }
    }
    return 1;
}

/* Fill A and B from the seed (the judge's operands for draw 0, others
   for draw d > 0) and copy them to the GPU. */
static void upload(struct operands_up *u, unsigned long long seed, int d)
{
    unsigned long long s = d ? seed ^ (0x9e3779b97f4a7c15ull * (unsigned long long)d) : seed;
    fill_random(u->ha, u->na, SEED_A(s));
    fill_random(u->hb, u->nb, SEED_B(s));
    CUDA_CHECK(cudaMemcpy(u->a, u->ha, u->na * sizeof *u->a, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(u->b, u->hb, u->nb * sizeof *u->b, cudaMemcpyHostToDevice));
    if (u->h16) {
        for (size_t i = 0; i < u->na; i++)
            u->h16[i] = to_bf16(u->ha[i]);
        CUDA_CHECK(cudaMemcpy(u->a16, u->h16, u->na * sizeof *u->h16, cudaMemcpyHostToDevice));
        for (size_t i = 0; i < u->nb; i++)
            u->h16[i] = to_bf16(u->hb[i]);
        CUDA_CHECK(cudaMemcpy(u->b16, u->h16, u->nb * sizeof *u->h16, cudaMemcpyHostToDevice));
    }
}

int main(int argc, char **argv)
{
    struct check c;
    harness_name(argv[0]);
    if (!lab_parse(argc, argv, &c, "--out"))
        return 2;
    const struct kernel *kn = NULL;
    for (int i = 0; i < LAB_PROGRAM.nkernels; i++)
        if (!strcmp(LAB_PROGRAM.kernels[i].name, c.kernel))
            kn = &LAB_PROGRAM.kernels[i];
    if (!kn) {
        fprintf(stderr, "%s: no kernel entry %s\n", argv[0], c.kernel);
        return 2;
    }
    int count = 0, dv = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        fprintf(stderr, "%s: no CUDA GPU is available\n", argv[0]);
        return 3;
    }
    struct cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDevice(&dv));
    CUDA_CHECK(cudaGetDeviceProperties(&prop, dv));
    if ((kn->exact ? kn->needs != prop.major * 10 + prop.minor
                   : kn->needs > prop.major * 10 + prop.minor)
        || kn->smem > prop.sharedMemPerBlockOptin) {
        fprintf(stderr, "%s: this GPU cannot run %s\n", argv[0], c.kernel);
        return 3;
    }
    int m = c.m, n = c.n, k = c.k;
    int lda = k + c.pad, ldb = n + c.pad, ldc = n + c.pad;
    size_t na = (size_t)m * lda, nb = (size_t)k * ldb, nc = (size_t)m * ldc;
    float *ha = host(na * sizeof *ha), *hb = host(nb * sizeof *hb);
    float *hc0 = host(nc * sizeof *hc0), *hc = host(nc * sizeof *hc);
    fill_random(hc0, nc, SEED_C0(c.seed));
    float *a = dev(na * sizeof *a), *b = dev(nb * sizeof *b);
    float *cc = dev(nc * sizeof *cc);
    struct operands_up up = { ha, hb, NULL, a, b, NULL, NULL, na, nb };
    if (kn->precision == BF16) {
        up.h16 = host((na > nb ? na : nb) * sizeof *up.h16);
        up.a16 = dev(na * sizeof *up.a16);
        up.b16 = dev(nb * sizeof *up.b16);
    }
    bf16_bits *a16 = up.a16, *b16 = up.b16;
    upload(&up, c.seed, 0);
    FILE *f = fopen(c.file, "wb");
    if (!f) {
        fprintf(stderr, "%s: cannot write %s\n", argv[0], c.file);
        return 1;
    }
    if (c.time && c.beta != 0.0f) {
        fprintf(stderr, "%s: --time runs with beta 0\n", argv[0]);
        return 2;
    }
    int runs = c.beta != 0.0f ? 2 : 1;
    unsigned int head[6] = { LAB_MAGIC, (unsigned)m, (unsigned)n,
                             (unsigned)k, (unsigned)ldc, (unsigned)runs };
    int bad = fwrite(head, sizeof head, 1, f) != 1;
    if (kn->setup) {
        struct operands ops = { a, b, a16, b16, cc, lda, ldb, ldc };
        kn->setup(m, n, k, &ops);
    }
    /* --time R: R + 1 launches of the beta = 0 run, C poisoned before
       each, the last R timed; the last one's C is the one judged */
    int launches = c.time ? c.time + 1 : 1;
    float *ms = host(launches * sizeof *ms);
    cudaEvent_t t0, t1;
    CUDA_CHECK(cudaEventCreate(&t0));
    CUDA_CHECK(cudaEventCreate(&t1));
    for (int r = 0; r < runs; r++) {
        float beta = r ? c.beta : 0.0f;
        for (int l = 0; l < (r ? 1 : launches); l++) {
            /* every timed launch multiplies operands of its own, drawn
               from another seed, and the last one the judge's again:
               no launch's work can be kept for a later one */
            if (!r && c.time)
                upload(&up, c.seed, l == launches - 1 ? 0 : l + 1);
            if (r)
                CUDA_CHECK(cudaMemcpy(cc, hc0, nc * sizeof *cc, cudaMemcpyHostToDevice));
            else
                CUDA_CHECK(cudaMemset(cc, 0xff, nc * sizeof *cc));
            CUDA_CHECK(cudaEventRecord(t0, 0));
            if (kn->precision == BF16)
                kn->run_bf16(m, n, k, c.alpha, a16, lda, b16, ldb, beta, cc, ldc);
            else
                kn->run(m, n, k, c.alpha, a, lda, b, ldb, beta, cc, ldc);
            CUDA_CHECK(cudaEventRecord(t1, 0));
            CUDA_CHECK(cudaGetLastError());
            CUDA_CHECK(cudaEventSynchronize(t1));
            CUDA_CHECK(cudaEventElapsedTime(&ms[l], t0, t1));
            if (!r && c.time && !spot_check(&up, cc, m, n, k, lda, ldb, ldc, c.alpha,
                                            kn->precision, l, argv[0]))
                return 1;
        }
        CUDA_CHECK(cudaDeviceSynchronize());
        CUDA_CHECK(cudaMemcpy(hc, cc, nc * sizeof *hc, cudaMemcpyDeviceToHost));
        bad |= fwrite(hc, sizeof *hc, nc, f) != nc;
    }
    if (kn->teardown)
        kn->teardown();
    if (c.time) {
        double med = median_ms(ms + 1, c.time);
        printf("ms %.6f tflops %.4f\n", med,
               med > 0 ? 2.0 * m * n * k / (med * 1e9) : 0.0);
    }
    CUDA_CHECK(cudaEventDestroy(t0));
    CUDA_CHECK(cudaEventDestroy(t1));
    free(ms);
    bad |= fclose(f) != 0;
    if (bad) {
        fprintf(stderr, "%s: cannot write %s\n", argv[0], c.file);
        return 1;
    }
    CUDA_CHECK(cudaFree(a));
    CUDA_CHECK(cudaFree(b));
    CUDA_CHECK(cudaFree(cc));
    CUDA_CHECK(cudaFree(a16));
    CUDA_CHECK(cudaFree(b16));
    free(up.h16);
    free(ha);
    free(hb);
    free(hc0);
    free(hc);
    return 0;
}
