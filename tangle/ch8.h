/* ch8.h: what later chapters use of chapter 8. */
#ifndef CH8_H
#define CH8_H
#include "ch7.h"

#define WARP_TILING 128, 128, 16, 32, 64, 8, 8

void run_warptile_ch8(int m, int n, int k, float alpha,
                      const float *a, int lda, const float *b, int ldb,
                      float beta, float *c, int ldc);
#endif
