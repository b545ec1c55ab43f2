/* ch9.h: what later chapters use of chapter 9. */
#ifndef CH9_H
#define CH9_H
#include "ch8.h"

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
#define CP_ASYNC(...) asm volatile(__VA_ARGS__)
#else
#define CP_ASYNC(...) __trap()
#endif

__device__ __forceinline__ void
cp_async(float *dst, const float *src, int bytes, int valid)
{
#define SHARED(p) "r"((unsigned)__cvta_generic_to_shared(p))
    if (bytes == 16)
        CP_ASYNC("cp.async.cg.shared.global [%0], [%1], 16, %2;\n"
                 :: SHARED(dst), "l"(src), "r"(valid));
    else
        CP_ASYNC("cp.async.ca.shared.global [%0], [%1], 4, %2;\n"
                 :: SHARED(dst), "l"(src), "r"(valid));
#undef SHARED
}

__device__ __forceinline__ void cp_async_commit(void)
{
    CP_ASYNC("cp.async.commit_group;\n" ::);
}

template <int N>
__device__ __forceinline__ void cp_async_wait(void)
{
    CP_ASYNC("cp.async.wait_group %0;\n" :: "n"(N));
}

template <int VEC>
__device__ __forceinline__ void
copy4(float *dst, const float *x, int ld, int row, int col,
      int rows, int cols)
{
    int in = row < rows ? cols - col : 0;   /* floats that exist */
    in = in < 0 ? 0 : in > 4 ? 4 : in;
    if (VEC == 4) {
        cp_async(dst, in ? &x[row * ld + col] : x, 16, 4 * in);
    } else {
        #pragma unroll
        for (int e = 0; e < 4; e++)
            cp_async(dst + e, e < in ? &x[row * ld + col + e] : x, 4,
                     e < in ? 4 : 0);
    }
}

#define LARGE 256, 128, 16, 64, 64, 16, 8, 1
#define MIDDLE 128, 128, 16, 32, 64, 8, 8, 1
#define SMALL 128, 64, 16, 32, 32, 8, 4, 2

void run_tuned(int m, int n, int k, float alpha,
               const float *a, int lda, const float *b, int ldb,
               float beta, float *c, int ldc);
void run_split(int splits, int m, int n, int k, float alpha,
                           const float *a, int lda, const float *b, int ldb,
                           float beta, float *c, int ldc);
void scale_c(int m, int n, float beta, float *c, int ldc);
#define WIDE 128, 256, 8, 64, 64, 8, 16, 1
void run_streamk_middle(int m, int n, int k, float alpha,
                        const float *a, int lda, const float *b, int ldb,
                        float beta, float *c, int ldc);
void run_wide(int m, int n, int k, float alpha,
              const float *a, int lda, const float *b, int ldb,
              float beta, float *c, int ldc);
#endif
