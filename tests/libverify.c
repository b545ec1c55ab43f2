/* libverify: the library (build/lib/libsgemmbook.so) on a GPU, as a
   program that links it sees it.  For each shape given as MxNxK, in
   each precision, with alpha = 1, beta = 0 and unpadded rows, then with
   alpha = -1.5, beta = 0.5 and rows padded by 3: C against a float64
   product of the same inputs (BF16: of the inputs rounded to BF16),
   judged by the harness's own verify() (harness.h): the error and the
   worst element's within their bounds, no NaN or infinity, and C's
   padding untouched.  First, a handle that
   plans for 4 SMs runs each shape in each precision, so that the
   buffers the dispatchers keep must grow for the plans of every SM
   that follow.  Then two host threads, each with
   its own handle on its own stream, run every precision at two shapes
   at once, and each checks its results.

     libverify [--one-thread] [--ampere] [--sms N --smem-limit B] MxNxK...
                               (--ampere: the kernels of Ampere, whose
                               3xTF32 is chapter 11's on mma.sync, or
                               FP32 on the CUDA cores;
                               --sms, --smem-limit: plan as for a GPU
                               of N SMs and B bytes of shared memory a
                               block, sgemmbook_set_limits)
                               exit 0: all correct, 1: a check failed,
                               2: bad arguments, 3: no GPU it runs on */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>
#include "harness.h"
#include "sgemmbook.h"

#define CUDA(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    fprintf(stderr, "libverify: %s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)

static const char *names[] = { "fp32", "tf32", "3xtf32", "bf16" };
/* the harness's precision of each of the library's */
static const enum precision book_precision[] = { FP32, TF32, FP32_3XTF32, BF16 };

static int ampere, sms;
static long smem;

struct job {
    int m, n, k, pad, p, ok;
    float alpha, beta;
    cudaStream_t stream;
    sgemmbook_handle h;
    char said[300];
};

static unsigned short to_bf16(float x)
{
    unsigned u;
    memcpy(&u, &x, 4);
    return (unsigned short)((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}

static float from_bf16(unsigned short b)
{
    unsigned u = (unsigned)b << 16;
    float x;
    memcpy(&x, &u, 4);
    return x;
}

/* One product, checked; what it found goes to j->said and j->ok. */
static void run(struct job *j)
{
    int m = j->m, n = j->n, k = j->k, lda = k + j->pad, ldb = n + j->pad,
        ldc = n + j->pad, bf16 = j->p == SGEMMBOOK_BF16, size = bf16 ? 2 : 4;
    size_t na = (size_t)m * lda + 1, nb = (size_t)k * ldb + 1, nc = (size_t)m * ldc + 1;
    float *a = malloc(na * 4), *b = malloc(nb * 4), *c = malloc(nc * 4), *c0 = malloc(nc * 4);
    unsigned short *a16 = malloc(na * 2), *b16 = malloc(nb * 2);
    void *da, *db;
    float *dc;
    size_t i;
    if (!a || !b || !c || !c0 || !a16 || !b16) {
        fprintf(stderr, "libverify: out of host memory\n");
        exit(1);
    }
    unsigned long long seed = (unsigned long long)m * 7919 + n * 104729 + k * 31 + j->p;
    fill_random(a, na, seed);                  /* the harness's inputs */
    fill_random(b, nb, seed + 1);
    fill_random(c0, nc, seed + 2);
    for (i = 0; i < na; i++) {
        a16[i] = to_bf16(a[i]);
        if (bf16)
            a[i] = from_bf16(a16[i]);
    }
    for (i = 0; i < nb; i++) {
        b16[i] = to_bf16(b[i]);
        if (bf16)
            b[i] = from_bf16(b16[i]);
    }
    CUDA(cudaMalloc(&da, na * size));
    CUDA(cudaMalloc(&db, nb * size));
    CUDA(cudaMalloc((void **)&dc, nc * 4));
    CUDA(cudaMemcpyAsync(da, bf16 ? (void *)a16 : (void *)a, na * size, cudaMemcpyHostToDevice, j->stream));
    CUDA(cudaMemcpyAsync(db, bf16 ? (void *)b16 : (void *)b, nb * size, cudaMemcpyHostToDevice, j->stream));
    CUDA(cudaMemcpyAsync(dc, c0, nc * 4, cudaMemcpyHostToDevice, j->stream));
    sgemmbook_status s = sgemmbook_gemm(j->h, (sgemmbook_precision)j->p, m, n, k, j->alpha,
                                        da, lda, db, ldb, j->beta, dc, ldc);
    CUDA(cudaMemcpyAsync(c, dc, nc * 4, cudaMemcpyDeviceToHost, j->stream));
    CUDA(cudaStreamSynchronize(j->stream));
    /* the reference as the harness makes it: alpha AB + beta C0, and
       each element's scale, |alpha| ||a_i|| ||b_j|| + |beta c0| */
    double *ref = malloc((size_t)m * n * sizeof(double) + 1);
    double *scale = malloc((size_t)m * n * sizeof(double) + 1);
    int padding = 0;
    if (!ref || !scale) {
        fprintf(stderr, "libverify: out of host memory\n");
        exit(1);
    }
    reference_product(m, n, k, a, lda, b, ldb, ref, scale);
    for (int r = 0; r < m; r++)
        for (int q = 0; q < ldc; q++) {
            size_t at = (size_t)r * ldc + q, rq = (size_t)r * n + q;
            if (q >= n) {
                padding += memcmp(&c[at], &c0[at], 4) != 0;
                continue;
            }
            ref[rq] = j->alpha * ref[rq] + j->beta * (double)c0[at];
            scale[rq] = fabs(j->alpha) * scale[rq] + fabs(j->beta * (double)c0[at]);
        }
    padding += memcmp(&c[nc - 1], &c0[nc - 1], 4) != 0;   /* past the end */
    struct verdict v = verify(c, ldc, ref, scale, m, n, k, book_precision[j->p]);
    j->ok = s == SGEMMBOOK_SUCCESS && v.ok && !padding;
    snprintf(j->said, sizeof j->said, "%s %dx%dx%d alpha %g beta %g pad %d: %s, error %.1e "
             "(bound %.1e), worst %.1e (bound %.1e)%s%s", names[j->p], m, n, k,
             j->alpha, j->beta, j->pad, sgemmbook_status_string(s), v.err, v.tol,
             v.max_err, v.tol_max, v.nonfinite ? ", not finite" : "",
             padding ? ", C's padding written" : "");
    CUDA(cudaFree(da));
    CUDA(cudaFree(db));
    CUDA(cudaFree(dc));
    free(a), free(b), free(c), free(c0), free(a16), free(b16), free(ref), free(scale);
}

static void *thread_main(void *arg)          /* one handle, one stream */
{
    struct job *js = arg;
    sgemmbook_handle h;
    cudaStream_t st;
    if (sgemmbook_create(&h) != SGEMMBOOK_SUCCESS) {
        js[0].ok = 0;
        snprintf(js[0].said, sizeof js[0].said, "a thread's handle");
        return NULL;
    }
    CUDA(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    sgemmbook_set_stream(h, st);
    if (ampere)
        sgemmbook_set_kernels(h, SGEMMBOOK_KERNELS_AMPERE);
    sgemmbook_set_limits(h, sms, smem);
    for (int r = 0; r < 3; r++)
        for (struct job *j = js; j->m; j++) {
            j->h = h;
            j->stream = st;
            run(j);
            if (!j->ok)
                break;
        }
    CUDA(cudaStreamDestroy(st));
    sgemmbook_destroy(h);
    return NULL;
}

int main(int argc, char **argv)
{
    int passed = 0, failed = 0, first = 1, threads = 1;
    for (; first < argc && argv[first][0] == '-'; first++) {
        if (strcmp(argv[first], "--one-thread") == 0)
            threads = 0;
        else if (strcmp(argv[first], "--ampere") == 0)
            ampere = 1;
        else if (strcmp(argv[first], "--sms") == 0 && first + 1 < argc && atoi(argv[first + 1]) > 0)
            sms = atoi(argv[++first]);
        else if (strcmp(argv[first], "--smem-limit") == 0 && first + 1 < argc && atol(argv[first + 1]) > 0)
            smem = atol(argv[++first]);
        else {
            fprintf(stderr, "libverify: %s: not an option (--one-thread, --ampere, --sms N, "
                    "--smem-limit B)\n", argv[first]);
            return 2;
        }
    }
    int shape[64][3], shapes = 0;      /* the shapes, before the GPU */
    for (int i = first; i < argc; i++) {
        int *d = shape[shapes];
        char end;
        if (shapes == 64 || sscanf(argv[i], "%dx%dx%d%c", &d[0], &d[1], &d[2], &end) != 3
            || d[0] < 1 || d[1] < 1 || d[2] < 1 || (double)d[0] * d[1] * d[2] > 4e9) {
            fprintf(stderr, "libverify: %s: not MxNxK (each at least 1, their product at "
                    "most 4e9, 64 shapes at most)\n", argv[i]);
            return 2;
        }
        shapes++;
    }
    sgemmbook_handle h;
    sgemmbook_status s = sgemmbook_create(&h);
    if (s == SGEMMBOOK_NO_DEVICE || s == SGEMMBOOK_NOT_SUPPORTED) {
        fprintf(stderr, "libverify: %s\n", sgemmbook_status_string(s));
        return 3;
    }
    if (s != SGEMMBOOK_SUCCESS) {
        fprintf(stderr, "libverify: sgemmbook_create: %s\n", sgemmbook_status_string(s));
        return 1;
    }
    if (ampere)
        sgemmbook_set_kernels(h, SGEMMBOOK_KERNELS_AMPERE);
    if (sgemmbook_set_limits(h, sms, smem) != SGEMMBOOK_SUCCESS) {
        fprintf(stderr, "libverify: sgemmbook_set_limits refused %d SMs, %ld bytes\n", sms, smem);
        return 1;
    }
    /* a handle of 4 SMs first: its plans reserve the least */
    sgemmbook_handle few;
    if (sgemmbook_create(&few) != SGEMMBOOK_SUCCESS
        || sgemmbook_set_limits(few, 4, smem) != SGEMMBOOK_SUCCESS) {
        fprintf(stderr, "libverify: a handle of 4 SMs was refused\n");
        return 1;
    }
    if (ampere)
        sgemmbook_set_kernels(few, SGEMMBOOK_KERNELS_AMPERE);
    for (int i = 0; i < shapes; i++)
        for (int p = 0; p < 4; p++) {
            struct job j = { shape[i][0], shape[i][1], shape[i][2], 0, p, 0, 1.0f,
                             0.0f, 0, few, "" };
            run(&j);
            if (j.ok) passed++; else failed++;
            printf("%s - %s, planned for 4 SMs\n", j.ok ? "ok" : "FAIL", j.said);
        }
    sgemmbook_destroy(few);
    for (int i = 0; i < shapes; i++) {
        int m = shape[i][0], n = shape[i][1], k = shape[i][2];
        for (int p = 0; p < 4; p++)
            for (int v = 0; v < 2; v++) {
                struct job j = { m, n, k, v ? 3 : 0, p, 0, v ? -1.5f : 1.0f,
                                 v ? 0.5f : 0.0f, 0, h, "" };
                run(&j);
                if (j.ok) passed++; else failed++;
                printf("%s - %s\n", j.ok ? "ok" : "FAIL", j.said);
            }
    }
    sgemmbook_destroy(h);
    if (!threads) {
        printf("%d passed, %d failed\n", passed, failed);
        return failed != 0;
    }
    /* two threads at once, each its own handle and stream */
    struct job js[2][9];
    memset(js, 0, sizeof js);
    for (int t = 0; t < 2; t++)
        for (int p = 0; p < 4; p++)
            for (int v = 0; v < 2; v++) {
                struct job *j = &js[t][2 * p + v];
                j->m = t ? 257 : 130, j->n = t ? 255 : 259, j->k = t ? 513 : 131;
                j->pad = v, j->p = p, j->alpha = v ? 2.0f : 1.0f, j->beta = v ? -1.0f : 0.0f;
            }
    pthread_t th[2];
    for (int t = 0; t < 2; t++)
        if (pthread_create(&th[t], NULL, thread_main, js[t]) != 0) {
            fprintf(stderr, "libverify: pthread_create failed\n");
            return 1;
        }
    for (int t = 0; t < 2; t++)
        pthread_join(th[t], NULL);
    for (int t = 0; t < 2; t++)
        for (struct job *j = js[t]; j->m; j++) {
            if (j->ok) passed++; else failed++;
            printf("%s - thread %d, three times: %s\n", j->ok ? "ok" : "FAIL", t, j->said);
        }
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
