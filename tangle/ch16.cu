/* ch16.cu: one product on several GPUs, over NCCL. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ch16.h"

void check_nccl(ncclResult_t r, const char *call, const char *file,
                int line)
{
    if (r == ncclSuccess)
        return;
    fprintf(stderr, "NCCL error: %s in %s at %s:%d\n",
            ncclGetErrorString(r), call, file, line);
    exit(3);
}

static size_t elem_bytes(enum precision p)
{
    return p == BF16 ? sizeof(bf16_bits) : sizeof(float);
}

static size_t pitch_of(int k, size_t e)   /* a gathered row's bytes */
{
    return ((size_t)k * e + 15) / 16 * 16;
}

static void product(enum precision p, int m, int n, int k, float alpha,
                    const char *a, int lda, const char *b, int ldb,
                    float beta, float *c, int ldc)
{
    if (p == BF16)
        gemm_bf16(m, n, k, alpha, (const bf16_bits *)a, lda,
                  (const bf16_bits *)b, ldb, beta, c, ldc);
    else
        gemm_fp32(m, n, k, alpha, (const float *)a, lda,
                  (const float *)b, ldb, beta, c, ldc);
}

void team_join(struct team *t, ncclComm_t comm)
{
    int lo, hi;
    memset(t, 0, sizeof *t);
    t->comm = comm;
    NCCL_CHECK(ncclCommUserRank(comm, &t->rank));
    NCCL_CHECK(ncclCommCount(comm, &t->size));
    CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
    CUDA_CHECK(cudaStreamCreateWithPriority(&t->link, cudaStreamNonBlocking,
                                            hi));
    CUDA_CHECK(cudaEventCreate(&t->start));
    CUDA_CHECK(cudaEventCreate(&t->done));
    for (int l = 0; l < 2; l++)
        for (int e = 0; e < 2; e++)
            for (int j = 0; j < MAX_CHUNKS; j++)
                CUDA_CHECK(cudaEventCreate(&t->ev[l][e][j]));
}

static void grow(void **buf, size_t *have, size_t want)
{
    if (want <= *have)
        return;
    if (*buf)
        CUDA_CHECK(cudaFree(*buf));
    CUDA_CHECK(cudaMalloc(buf, want));
    CUDA_CHECK(cudaMemset(*buf, 0, want));
    *have = want;
}

void team_reserve(struct team *t, struct cut c, int m, int n, int k)
{
    int p = t->size, h = CEIL_DIV(CEIL_DIV(m, p), c.chunks);
    struct operands none = { 0 };
    if (c.kind == SPLIT_N) {
        grow((void **)&t->gather, &t->gather_bytes, (size_t)c.chunks * p
             * h * pitch_of(k, elem_bytes(c.precision)));
        gemm_reserve(h, share_of(n, p, t->rank).count, k, &none);
    } else {
        grow((void **)&t->part, &t->part_bytes,
             (size_t)c.chunks * p * h * n * sizeof(float));
        grow((void **)&t->sum, &t->sum_bytes,
             (size_t)c.chunks * h * n * sizeof(float));
        gemm_reserve(h, n, share_of(k, p, t->rank).count, &none);
    }
}

void team_release(struct team *t)
{
    CUDA_CHECK(cudaFree(t->gather));
    CUDA_CHECK(cudaFree(t->part));
    CUDA_CHECK(cudaFree(t->sum));
    t->gather = NULL, t->part = t->sum = NULL;
    t->gather_bytes = t->part_bytes = t->sum_bytes = 0;
    gemm_release();
}

void team_leave(struct team *t)
{
    team_release(t);
    for (int l = 0; l < 2; l++)
        for (int e = 0; e < 2; e++)
            for (int j = 0; j < MAX_CHUNKS; j++)
                CUDA_CHECK(cudaEventDestroy(t->ev[l][e][j]));
    CUDA_CHECK(cudaEventDestroy(t->start));
    CUDA_CHECK(cudaEventDestroy(t->done));
    CUDA_CHECK(cudaStreamDestroy(t->link));
    memset(t, 0, sizeof *t);
}

static inline int rows_in(int count, int j, int h)
{
    int r = count - j * h;
    return r < 0 ? 0 : r > h ? h : r;
}

static void record(struct team *t, int lane, int end, int j,
                   cudaStream_t s)
{
    CUDA_CHECK(cudaEventRecord(t->ev[lane][end][j], s));
}

static void begin_call(struct team *t)
{
    CUDA_CHECK(cudaEventRecord(t->start, 0));
    CUDA_CHECK(cudaStreamWaitEvent(t->link, t->start, 0));
}

static void end_call(struct team *t)
{
    CUDA_CHECK(cudaEventRecord(t->done, t->link));
    CUDA_CHECK(cudaStreamWaitEvent(0, t->done, 0));
}

static void split_n(struct team *t, struct cut c, int m, int n, int k,
                    float alpha, const void *a, int lda, const void *b,
                    int ldb, float beta, float *cc, int ldc)
{
    int p = t->size, h = CEIL_DIV(CEIL_DIV(m, p), c.chunks);
    int cols = share_of(n, p, t->rank).count;
    size_t e = elem_bytes(c.precision), row = pitch_of(k, e);
    size_t slot = (size_t)h * row;          /* one rank's rows of a piece */
    begin_call(t);
    for (int j = 0; j < c.chunks; j++) {
        char *piece = t->gather + (size_t)j * p * slot;
        int mine = rows_in(share_of(m, p, t->rank).count, j, h);
        record(t, LINK_LANE, 0, j, t->link);
        if (c.steps != MATH_ONLY && k > 0) {
            if (mine > 0)
                CUDA_CHECK(cudaMemcpy2DAsync(piece + t->rank * slot, row,
                                             (const char *)a + (size_t)j * h * lda * e,
                                             (size_t)lda * e, (size_t)k * e, mine,
                                             cudaMemcpyDeviceToDevice, t->link));
            NCCL_CHECK(ncclAllGather(piece + t->rank * slot, piece, slot, ncclUint8,
                                     t->comm, t->link));
        }
        record(t, LINK_LANE, 1, j, t->link);
    }
    for (int j = 0; j < c.chunks; j++) {
        char *piece = t->gather + (size_t)j * p * slot;
        CUDA_CHECK(cudaStreamWaitEvent(0, t->ev[LINK_LANE][1][j], 0));
        record(t, MATH_LANE, 0, j, 0);
        for (int q = 0; q < p && c.steps != LINK_ONLY; q++) {
            struct share from = share_of(m, p, q);
            int rows = rows_in(from.count, j, h);
            if (rows > 0 && cols > 0)
                product(c.precision, rows, cols, k, alpha, piece + q * slot,
                        (int)(row / e),
                        (const char *)b, ldb, beta,
                        cc + (size_t)(from.first + j * h) * ldc, ldc);
        }
        record(t, MATH_LANE, 1, j, 0);
    }
    end_call(t);
}

__global__ void scale_rows(float *c, int ldc, int rows, int cols,
                           float beta)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = blockIdx.y; i < rows && j < cols; i += gridDim.y) {
        float *to = c + (size_t)i * ldc + j;
        *to = beta == 0.0f ? 0.0f : beta * *to;
    }
}

__global__ void finish_rows(float *c, int ldc, const float *sums, int lds,
                            int rows, int cols, float beta)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = blockIdx.y; i < rows && j < cols; i += gridDim.y) {
        float s = sums[(size_t)i * lds + j];
        float *to = c + (size_t)i * ldc + j;
        *to = beta == 0.0f ? s : s + beta * *to;
    }
}

static void split_k(struct team *t, struct cut c, int m, int n, int k,
                    float alpha, const void *a, int lda, const void *b,
                    int ldb, float beta, float *cc, int ldc)
{
    int p = t->size, h = CEIL_DIV(CEIL_DIV(m, p), c.chunks);
    int ks = share_of(k, p, t->rank).count;   /* this rank's slice of K */
    size_t e = elem_bytes(c.precision), slot = (size_t)h * n;
    begin_call(t);
    for (int j = 0; j < c.chunks; j++) {
        float *piece = t->part + (size_t)j * p * slot;
        record(t, MATH_LANE, 0, j, 0);
        for (int q = 0; q < p && c.steps != LINK_ONLY; q++) {
            struct share to = share_of(m, p, q);
            int rows = rows_in(to.count, j, h);
            if (rows > 0 && ks == 0)
                CUDA_CHECK(cudaMemsetAsync(piece + q * slot, 0,
                                           sizeof(float) * rows * n, 0));
            else if (rows > 0)
                product(c.precision, rows, n, ks, alpha,
                        (const char *)a + (size_t)(to.first + j * h) * lda * e,
                        lda, (const char *)b, ldb, 0.0f, piece + q * slot, n);
        }
        record(t, MATH_LANE, 1, j, 0);
        CUDA_CHECK(cudaStreamWaitEvent(t->link, t->ev[MATH_LANE][1][j], 0));
        record(t, LINK_LANE, 0, j, t->link);
        float *sums = t->sum + (size_t)j * slot;
        if (c.steps != MATH_ONLY)
            NCCL_CHECK(ncclReduceScatter(piece, sums, slot, ncclFloat, ncclSum,
                                         t->comm, t->link));
        int mine = rows_in(share_of(m, p, t->rank).count, j, h);
        if (mine > 0 && n > 0)
            finish_rows<<<dim3(CEIL_DIV(n, 256), mine < 65535 ? mine : 65535),
                          256, 0, t->link>>>(cc + (size_t)j * h * ldc, ldc, sums,
                                              n, mine, n, beta);
        CUDA_CHECK(cudaGetLastError());
        record(t, LINK_LANE, 1, j, t->link);
    }
    end_call(t);
}

void cut_product(struct team *t, struct cut c, int m, int n, int k,
                 float alpha, const void *a, int lda, const void *b,
                 int ldb, float beta, float *cc, int ldc)
{
    if (m <= 0 || n <= 0)
        return;
    if (k <= 0) {
        int rows = c.kind == SPLIT_N ? m : share_of(m, t->size, t->rank).count;
        int cols = c.kind == SPLIT_N ? share_of(n, t->size, t->rank).count : n;
        if (rows > 0 && cols > 0)
            scale_rows<<<dim3(CEIL_DIV(cols, 256), rows < 65535 ? rows : 65535),
                         256>>>(cc, ldc, rows, cols, beta);
        CUDA_CHECK(cudaGetLastError());
        return;
    }
    c.chunks = c.chunks < 1 ? 1 : c.chunks > MAX_CHUNKS ? MAX_CHUNKS : c.chunks;
    team_reserve(t, c, m, n, k);
    if (c.kind == SPLIT_N)
        split_n(t, c, m, n, k, alpha, a, lda, b, ldb, beta, cc, ldc);
    else
        split_k(t, c, m, n, k, alpha, a, lda, b, ldb, beta, cc, ldc);
}

int pieces_for(int m, int n, int k, int ranks)
{
    double flops = 2.0 * m * n * k / ranks;
    int pieces = (int)(flops / 8589934592.0);
    return pieces < 1 ? 1 : pieces > 4 ? 4 : pieces;
}

static struct team one;

static void join_one(int m, int n, int k, struct cut c)
{
    if (!one.comm) {
        ncclComm_t comm;
        int dev;
        CUDA_CHECK(cudaGetDevice(&dev));
        NCCL_CHECK(ncclCommInitAll(&comm, 1, &dev));
        team_join(&one, comm);
    }
    c.chunks = pieces_for(m, n, k, 1);
    team_reserve(&one, c, m, n, k);
}

static void release_one(void)
{
    team_release(&one);
}

#define ONE_CUT(name, kind, prec)                                         \
    static void setup_##name(int m, int n, int k, const struct operands *s) \
    {                                                                     \
        struct cut c = { kind, prec, 1, LINK_AND_MATH };                  \
        if (prec == BF16)                                                 \
            convert_to_bf16(m, n, k, s);                                  \
        join_one(m, n, k, c);                                             \
    }                                                                     \
    static void run_##name(int m, int n, int k, float alpha,             \
                           const void *a, int lda, const void *b,         \
                           int ldb, float beta, float *c, int ldc)        \
    {                                                                     \
        struct cut cut = { kind, prec, pieces_for(m, n, k, 1),            \
                           LINK_AND_MATH };                                \
        cut_product(&one, cut, m, n, k, alpha, a, lda, b, ldb, beta, c,   \
                    ldc);                                                 \
    }
ONE_CUT(split_n_fp32, SPLIT_N, FP32)
ONE_CUT(split_k_fp32, SPLIT_K, FP32)
ONE_CUT(split_n_bf16, SPLIT_N, BF16)
ONE_CUT(split_k_bf16, SPLIT_K, BF16)

static void n_fp32(int m, int n, int k, float alpha,
                   const float *a, int lda, const float *b, int ldb,
                   float beta, float *c, int ldc)
{
    run_split_n_fp32(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
static void k_fp32(int m, int n, int k, float alpha,
                   const float *a, int lda, const float *b, int ldb,
                   float beta, float *c, int ldc)
{
    run_split_k_fp32(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
static void n_bf16(int m, int n, int k, float alpha, const bf16_bits *a,
                   int lda, const bf16_bits *b, int ldb, float beta,
                   float *c, int ldc)
{
    run_split_n_bf16(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
static void k_bf16(int m, int n, int k, float alpha, const bf16_bits *a,
                   int lda, const bf16_bits *b, int ldb, float beta,
                   float *c, int ldc)
{
    run_split_k_bf16(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

static const struct kernel kernels[] = {
    { .name = "split-n", .what = "split N on a communicator of one, FP32",
      .run = n_fp32, .setup = setup_split_n_fp32, .teardown = release_one },
    { .name = "split-k", .what = "split K on a communicator of one, FP32",
      .run = k_fp32, .setup = setup_split_k_fp32, .teardown = release_one },
    { .name = "split-n-bf16",
      .what = "split N on a communicator of one, BF16",
      .precision = BF16, .run_bf16 = n_bf16,
      .setup = setup_split_n_bf16, .teardown = release_one },
    { .name = "split-k-bf16",
      .what = "split K on a communicator of one, BF16",
      .precision = BF16, .run_bf16 = k_bf16,
      .setup = setup_split_k_bf16, .teardown = release_one },
};

extern "C" const struct chapter ch16_program = {
    .title = "one product on several GPUs, over NCCL",
    .kernels = kernels, .nkernels = COUNT_OF(kernels),
};
