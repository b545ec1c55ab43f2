/* ch10.h: what later chapters use of chapter 10. */
#ifndef CH10_H
#define CH10_H
#include <mma.h>
#include <cuda_bf16.h>
#include "ch9.h"

__device__ __forceinline__ unsigned
to_tf32(float x)
{
    unsigned r;
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
    return r;
}

__device__ __forceinline__ void
ldmatrix_x4(unsigned *r, const void *p)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(p);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 "
                 "{%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(s));
}

__device__ __forceinline__ void
ldmatrix_x4_trans(unsigned *r, const void *p)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(p);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 "
                 "{%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(s));
}

__device__ __forceinline__ void
mma_tf32(float *d, const unsigned *a, const unsigned *b)
{
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]),
                   "r"(b[0]), "r"(b[1]));
}

__device__ __forceinline__ void
mma_bf16(float *d, const unsigned *a, const unsigned *b)
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]),
                   "r"(b[0]), "r"(b[1]));
}

template <int ROUND>
__device__ __forceinline__ unsigned
rounded(unsigned x)
{
    return ROUND == 1 ? to_tf32(__uint_as_float(x))
         : ROUND == 2 ? x + 0x1000u : x;
}

__device__ __forceinline__ float tf32_rounded(float v)
{
    return __uint_as_float((__float_as_uint(v) + 0x1000u) & 0xffffe000u);
}

#define TA(s, r, c) (apipe + ((s) * BM + (r)) * BK + (((c) ^ ((r) & 7)) * 4))
#define TBT(s, r, c) (bpipe + ((s) * BN + (r)) * BK + (((c) ^ ((r) & 7)) * 4))
#define TB(s, k, c) (bpipe + ((s) * BK + (k)) * BN + (((c) ^ (((k) & 3) * 2)) * 4))

#define TF32_LARGE 128, 256, 64, 64, 4, 1, 2, 1
#define TF32_SMALL 128, 128, 64, 64, 3, 2, 2, 1
#define BF16_LARGE 256, 128, 64, 64, 4, 1
#define BF16_SMALL 128, 128, 64, 64, 3, 2
template <int BM, int BN, int WM, int WN, int STAGES, int... REST>
constexpr size_t mma_bytes(void)
{
    return (size_t)STAGES * (BM + BN) * 128;
}

struct scratch_set {               /* two buffers that grow as needed */
    float *buf[2];
    size_t len[2];                 /* floats each holds */
};
void use_scratch(struct scratch_set *set);
float *scratch(int i, size_t floats);
__global__ void transpose_round(const float *b, int ldb, float *bt, int ldt,
                                int k, int n, int round);
__global__ void round_copy(const float *a, int lda, float *ar, int ldr,
                           int m, int k);
void reserve_scratch(int m, int n, int k, const struct operands *set);
void free_scratch(void);
void convert_to_bf16(int m, int n, int k, const struct operands *set);
void run_mma(int m, int n, int k, float alpha,
             const float *a, int lda, const float *b, int ldb,
             float beta, float *c, int ldc);
void run_bf16(int m, int n, int k, float alpha, const bf16_bits *a,
              int lda, const bf16_bits *b, int ldb, float beta,
              float *c, int ldc);
#endif
