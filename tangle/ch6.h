/* ch6.h: what later chapters use of chapter 6. */
#ifndef CH6_H
#define CH6_H
#include <stdint.h>
#include "ch5.h"

static inline int aligned16(const float *a, const float *b, int lda, int ldb)
{
    uintptr_t addr = (uintptr_t)a | (uintptr_t)b;
    return addr % 16 == 0 && (lda | ldb) % 4 == 0;
}

typedef void sgemm_kernel(int m, int n, int k, float alpha,
                          const float *a, int lda, const float *b, int ldb,
                          float beta, float *c, int ldc);
void launch_float4(sgemm_kernel *kernel, int m, int n, int k, float alpha,
                                         const float *a, int lda, const float *b, int ldb,
                                         float beta, float *c, int ldc);

__device__ __forceinline__ float4
load4(const float *x, int ld, int row, int col, int rows, int cols)
{
    const float *p = &x[row * ld + col];
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (row >= rows)
        return v;
    if (col + 3 < cols)
        return *(const float4 *)p;
    if (col < cols)
        v.x = p[0];
    if (col + 1 < cols)
        v.y = p[1];
    if (col + 2 < cols)
        v.z = p[2];
    return v;
}
#endif
