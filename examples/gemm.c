/* gemm.c: the book's dispatchers from a C program, through the library
   (make examples; appendix "Chapter 14's dispatchers as a library").
   Multiplies two random N x N matrices in one precision, checks C
   against cuBLAS FP32, and prints both speeds.

     ./examples/gemm [N [fp32|tf32|3xtf32|bf16]]     (default 4096 fp32)

   Exit status: 0 correct, 1 wrong or a call failed, 2 bad arguments,
   3 no GPU the library can run on. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <sgemmbook.h>

#define CUDA(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    fprintf(stderr, "gemm: %s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)
#define CUBLAS(call) do { if ((call) != CUBLAS_STATUS_SUCCESS) { \
    fprintf(stderr, "gemm: %s failed\n", #call); exit(1); } } while (0)
#define BOOK(call) do { sgemmbook_status s_ = (call); if (s_ != SGEMMBOOK_SUCCESS) { \
    fprintf(stderr, "gemm: %s: %s\n", #call, sgemmbook_status_string(s_)); \
    exit(s_ == SGEMMBOOK_NO_DEVICE || s_ == SGEMMBOOK_NOT_SUPPORTED ? 3 : 1); } } while (0)

static unsigned short to_bf16(float x)          /* round to nearest even */
{
    unsigned u;
    memcpy(&u, &x, 4);
    return (unsigned short)((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}

static float from_bf16(unsigned short h)
{
    unsigned u = (unsigned)h << 16;
    float x;
    memcpy(&x, &u, 4);
    return x;
}

int main(int argc, char **argv)
{
    static const char *names[] = { "fp32", "tf32", "3xtf32", "bf16" };
    int n = argc > 1 ? atoi(argv[1]) : 4096, p = 0, reps = 10;
    while (argc > 2 && p < 4 && strcmp(argv[2], names[p]) != 0)
        p++;
    if (n < 1 || n > 16384 || p == 4 || argc > 3) {
        fprintf(stderr, "usage: gemm [N (1 to 16384) [fp32|tf32|3xtf32|bf16]]\n");
        return 2;
    }
    size_t count = (size_t)n * n, i;
    float *a = malloc(count * 4), *b = malloc(count * 4), *c = malloc(count * 4),
          *r = malloc(count * 4);
    unsigned short *h16 = malloc(count * 2);
    if (!a || !b || !c || !r || !h16) {
        fprintf(stderr, "gemm: out of host memory\n");
        return 1;
    }
    srand(1);
    for (i = 0; i < count; i++) {
        a[i] = 2.0f * rand() / RAND_MAX - 1.0f;
        b[i] = 2.0f * rand() / RAND_MAX - 1.0f;
    }
    if (p == SGEMMBOOK_BF16)       /* both products see the same inputs */
        for (i = 0; i < count; i++) {
            a[i] = from_bf16(to_bf16(a[i]));
            b[i] = from_bf16(to_bf16(b[i]));
        }

    sgemmbook_handle book;
    BOOK(sgemmbook_create(&book));
    float *da, *db, *dc, *dr;
    unsigned short *da16, *db16;
    CUDA(cudaMalloc((void **)&da, count * 4));
    CUDA(cudaMalloc((void **)&db, count * 4));
    CUDA(cudaMalloc((void **)&dc, count * 4));
    CUDA(cudaMalloc((void **)&dr, count * 4));
    CUDA(cudaMalloc((void **)&da16, count * 2));
    CUDA(cudaMalloc((void **)&db16, count * 2));
    CUDA(cudaMemcpy(da, a, count * 4, cudaMemcpyHostToDevice));
    CUDA(cudaMemcpy(db, b, count * 4, cudaMemcpyHostToDevice));
    for (i = 0; i < count; i++)
        h16[i] = to_bf16(a[i]);
    CUDA(cudaMemcpy(da16, h16, count * 2, cudaMemcpyHostToDevice));
    for (i = 0; i < count; i++)
        h16[i] = to_bf16(b[i]);
    CUDA(cudaMemcpy(db16, h16, count * 2, cudaMemcpyHostToDevice));
    const void *xa = p == SGEMMBOOK_BF16 ? (const void *)da16 : da;
    const void *xb = p == SGEMMBOOK_BF16 ? (const void *)db16 : db;

    /* cuBLAS stores by columns: row-major C = AB is C^T = B^T A^T */
    cublasHandle_t blas;
    CUBLAS(cublasCreate(&blas));
    const float one = 1.0f, zero = 0.0f;
    cudaEvent_t t0, t1;
    float ms_book, ms_blas;
    CUDA(cudaEventCreate(&t0));
    CUDA(cudaEventCreate(&t1));
    BOOK(sgemmbook_gemm(book, (sgemmbook_precision)p, n, n, n, 1.0f, xa, n, xb, n, 0.0f, dc, n));
    CUDA(cudaEventRecord(t0, 0));
    for (i = 0; i < (size_t)reps; i++)
        BOOK(sgemmbook_gemm(book, (sgemmbook_precision)p, n, n, n, 1.0f, xa, n, xb, n, 0.0f, dc, n));
    CUDA(cudaEventRecord(t1, 0));
    CUDA(cudaEventSynchronize(t1));
    CUDA(cudaEventElapsedTime(&ms_book, t0, t1));
    CUBLAS(cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, db, n, da, n, &zero, dr, n));
    CUDA(cudaEventRecord(t0, 0));
    for (i = 0; i < (size_t)reps; i++)
        CUBLAS(cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, db, n, da, n, &zero, dr, n));
    CUDA(cudaEventRecord(t1, 0));
    CUDA(cudaEventSynchronize(t1));
    CUDA(cudaEventElapsedTime(&ms_blas, t0, t1));

    /* the error against cuBLAS FP32, in the Frobenius norm */
    CUDA(cudaMemcpy(c, dc, count * 4, cudaMemcpyDeviceToHost));
    CUDA(cudaMemcpy(r, dr, count * 4, cudaMemcpyDeviceToHost));
    double num = 0, den = 0, tol = p == SGEMMBOOK_FP32 || p == SGEMMBOOK_3XTF32 ? 1e-5 : 1e-2;
    for (i = 0; i < count; i++) {
        double d = (double)c[i] - r[i];
        num += d * d;
        den += (double)r[i] * r[i];
    }
    double err = den > 0 ? sqrt(num / den) : sqrt(num);
    double flops = 2.0 * n * n * (double)n * reps;
    printf("%d^3 %s: the library %.1f TFLOP/s, cuBLAS FP32 %.1f TFLOP/s; "
           "error against cuBLAS %.1e (at most %.0e): %s\n", n, names[p],
           flops / ms_book / 1e9, flops / ms_blas / 1e9, err, tol,
           err <= tol && err == err ? "correct" : "WRONG");

    CUBLAS(cublasDestroy(blas));
    BOOK(sgemmbook_destroy(book));
    CUDA(cudaFree(da));
    CUDA(cudaFree(db));
    CUDA(cudaFree(dc));
    CUDA(cudaFree(dr));
    CUDA(cudaFree(da16));
    CUDA(cudaFree(db16));
    free(a), free(b), free(c), free(r), free(h16);
    return err <= tol && err == err ? 0 : 1;
}
