/* labrun.c: runs one kernel entry of a lab's program once (make labN
   links it with the student's code as build/lab/chN-run, in place of
   the harness's main) and writes C, its padding included, to a file
   for the grader's judge (judge.c), which verifies it in a process of
   its own.  Nothing is checked here: what the student's code could
   reach in this process decides nothing.  With --time R it also times
   the launches whose last result the judge checks (lab.h).  See lab.h for the options
   and the file.  LAB_PROGRAM names the chapter's table (chN_program).
   Exit: 0 written, 1 a CUDA error or a failed write, 2 bad options or
   no such entry, 3 this GPU cannot run the entry. */
#include "harness.h"
#include "lab.h"
#include <cuda_runtime_api.h>

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
    if (kn->needs > prop.major * 10 + prop.minor
        || kn->smem > prop.sharedMemPerBlockOptin) {
        fprintf(stderr, "%s: this GPU cannot run %s\n", argv[0], c.kernel);
        return 3;
    }
    int m = c.m, n = c.n, k = c.k;
    int lda = k + c.pad, ldb = n + c.pad, ldc = n + c.pad;
    size_t na = (size_t)m * lda, nb = (size_t)k * ldb, nc = (size_t)m * ldc;
    float *ha = host(na * sizeof *ha), *hb = host(nb * sizeof *hb);
    float *hc0 = host(nc * sizeof *hc0), *hc = host(nc * sizeof *hc);
    fill_random(ha, na, SEED_A(c.seed));
    fill_random(hb, nb, SEED_B(c.seed));
    fill_random(hc0, nc, SEED_C0(c.seed));
    float *a = dev(na * sizeof *a), *b = dev(nb * sizeof *b);
    float *cc = dev(nc * sizeof *cc);
    bf16_bits *a16 = NULL, *b16 = NULL;
    CUDA_CHECK(cudaMemcpy(a, ha, na * sizeof *a, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(b, hb, nb * sizeof *b, cudaMemcpyHostToDevice));
    if (kn->precision == BF16) {
        bf16_bits *h16 = host((na > nb ? na : nb) * sizeof *h16);
        a16 = dev(na * sizeof *a16);
        b16 = dev(nb * sizeof *b16);
        for (size_t i = 0; i < na; i++)
            h16[i] = to_bf16(ha[i]);
        CUDA_CHECK(cudaMemcpy(a16, h16, na * sizeof *h16, cudaMemcpyHostToDevice));
        for (size_t i = 0; i < nb; i++)
            h16[i] = to_bf16(hb[i]);
        CUDA_CHECK(cudaMemcpy(b16, h16, nb * sizeof *h16, cudaMemcpyHostToDevice));
        free(h16);
    }
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
    free(ha);
    free(hb);
    free(hc0);
    free(hc);
    return 0;
}
