/* ch5.h: what later chapters use of chapter 5. */
#ifndef CH5_H
#define CH5_H
#include "harness.h"

void run_remap2d(int m, int n, int k, float alpha,
                 const float *a, int lda, const float *b, int ldb,
                 float beta, float *c, int ldc);
#endif
