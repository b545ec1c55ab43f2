/* ch13.h: the whole job, for the programs of chapter 13. */
#ifndef CH13_H
#define CH13_H
#include "ch9.h"

struct job {
    int m, n, k, lda, ldb, ldc;
    float alpha, beta;
    const float *ha, *hb, *hc0;   /* host: A, B, and C's input */
    float *hc;                    /* host: C's output */
    float *da, *db, *dc;          /* the GPU's copies */
};

enum { LANE_IN, LANE_KERNEL, LANE_OUT, MAX_STEPS = 256 };

struct trace {
    int steps;
    int lane[MAX_STEPS], panel[MAX_STEPS];
    cudaEvent_t start[MAX_STEPS], stop[MAX_STEPS];
};

void job_serial(const struct job *j, int pinned, struct trace *t);
void job_overlap(const struct job *j, int panels, struct trace *t);
int panels_for(int m);
#endif
