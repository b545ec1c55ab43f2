/* ch11.h: what later chapters use of chapter 11. */
#ifndef CH11_H
#define CH11_H
#include "ch10.h"

void run_3xtf32_mma(int m, int n, int k, float alpha,
                    const float *a, int lda, const float *b, int ldb,
                    float beta, float *c, int ldc);
#endif
