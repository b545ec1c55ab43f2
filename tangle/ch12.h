/* ch12.h: what chapter 14 uses of chapter 12. */
#ifndef CH12_H
#define CH12_H
#include "ch10.h"

void hopper_bf16(int m, int n, int k, float alpha, const bf16_bits *a,
                 int lda, const bf16_bits *b, int ldb, float beta, float *c,
                 int ldc);
void hopper_tf32(int m, int n, int k, float alpha,
                 const float *a, int lda, const float *b, int ldb,
                 float beta, float *c, int ldc);
void hopper_3xtf32(int m, int n, int k, float alpha,
                   const float *a, int lda, const float *b, int ldb,
                   float beta, float *c, int ldc);
/* C += alpha A B, with K cut into [splits] slices whose products are
   added into C atomically: the caller scales C by beta first. */
void hopper_bf16_split(int splits, int m, int n, int k, float alpha,
                       const bf16_bits *a, int lda, const bf16_bits *b,
                       int ldb, float *c, int ldc);
void hopper_tf32_split(int splits, int m, int n, int k, float alpha,
                       const float *a, int lda, const float *b, int ldb,
                       float *c, int ldc);
void hopper_3xtf32_split(int splits, int m, int n, int k, float alpha,
                         const float *a, int lda, const float *b, int ldb,
                         float *c, int ldc);
void hopper_reserve(int m, int n, int k, const struct operands *set);
void hopper_release(void);
struct pass_set {                  /* the passes' four matrices, in one */
    float *buf;
    size_t len;                    /* floats it holds */
};
void use_passes(struct pass_set *set);   /* NULL: the program's own */
/* whether the copy engine can read rows of [size]-byte numbers at x */
int tma_ok(const void *x, int ld, int size);
/* whether a persistent BF16 product takes whole tiles of 256 rows */
int hopper_tall(int m, int n);
#endif
