/* ch7.h: what later chapters use of chapter 7. */
#ifndef CH7_H
#define CH7_H
#include "ch6.h"

#define ASWIZZLE(p) ((p) / 4 * (128 / BK) % 32)
#define BSWIZZLE(c) ((c) / 32 % 4 * 4)
#endif
