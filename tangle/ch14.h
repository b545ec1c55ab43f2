/* ch14.h: one entry point per precision, for any shape. */
#ifndef CH14_H
#define CH14_H
#include "ch12.h"

void gemm_fp32(int m, int n, int k, float alpha,
               const float *a, int lda, const float *b, int ldb,
               float beta, float *c, int ldc);
void gemm_tf32(int m, int n, int k, float alpha,
               const float *a, int lda, const float *b, int ldb,
               float beta, float *c, int ldc);
void gemm_3xtf32(int m, int n, int k, float alpha,
                 const float *a, int lda, const float *b, int ldb,
                 float beta, float *c, int ldc);
void gemm_bf16(int m, int n, int k, float alpha, const bf16_bits *a,
               int lda, const bf16_bits *b, int ldb, float beta, float *c,
               int ldc);
void gemm_reserve(int m, int n, int k, const struct operands *set);
void gemm_release(void);
struct gemm_workspace {            /* every buffer the dispatchers grow */
    struct scratch_set scratch;    /* chapter 10's */
    struct pass_set passes;        /* chapter 12's */
    float *partials;               /* the join of a split last wave, */
    int *flags, epoch, sms;        /* its flags and launch, for sms SMs */
    char *pad;                     /* aligned copies of rows */
    size_t pad_len;
};
void gemm_use(struct gemm_workspace *w);   /* NULL: the program's own */
#endif
