/* ch13.cu: the whole job, from host memory to host memory. */
#include <stdio.h>
#include <stdlib.h>
#include "ch13.h"

static void copy_rows(float *dst, const float *src, int r, int h,
                      int cols, int ld, cudaMemcpyKind dir,
                      cudaStream_t s)
{
    size_t at = (size_t)r * ld;
    size_t count = (size_t)(h - 1) * ld + cols;
    CUDA_CHECK(cudaMemcpyAsync(dst + at, src + at, count * sizeof(float),
                               dir, s));
}
static void step_begin(struct trace *t, int lane, int panel,
                       cudaStream_t s)
{
    if (!t || t->steps == MAX_STEPS)
        return;
    t->lane[t->steps] = lane;
    t->panel[t->steps] = panel;
    CUDA_CHECK(cudaEventRecord(t->start[t->steps], s));
}

static void step_end(struct trace *t, cudaStream_t s)
{
    if (!t || t->steps == MAX_STEPS)
        return;
    CUDA_CHECK(cudaEventRecord(t->stop[t->steps++], s));
}
void job_serial(const struct job *j, int pinned, struct trace *t)
{
    cudaMemcpyKind in = cudaMemcpyHostToDevice;
    step_begin(t, LANE_IN, 0, 0);
    if (pinned) {
        copy_rows(j->da, j->ha, 0, j->m, j->k, j->lda, in, 0);
        copy_rows(j->db, j->hb, 0, j->k, j->n, j->ldb, in, 0);
        if (j->beta != 0.0f)
            copy_rows(j->dc, j->hc0, 0, j->m, j->n, j->ldc, in, 0);
    } else {
        size_t na = (size_t)(j->m - 1) * j->lda + j->k;
        size_t nb = (size_t)(j->k - 1) * j->ldb + j->n;
        size_t nc = (size_t)(j->m - 1) * j->ldc + j->n;
        CUDA_CHECK(cudaMemcpy(j->da, j->ha, na * sizeof(float), in));
        CUDA_CHECK(cudaMemcpy(j->db, j->hb, nb * sizeof(float), in));
        if (j->beta != 0.0f)
            CUDA_CHECK(cudaMemcpy(j->dc, j->hc0, nc * sizeof(float), in));
    }
    step_end(t, 0);
    step_begin(t, LANE_KERNEL, 0, 0);
    run_tuned(j->m, j->n, j->k, j->alpha, j->da, j->lda, j->db, j->ldb,
              j->beta, j->dc, j->ldc);
    step_end(t, 0);
    step_begin(t, LANE_OUT, 0, 0);
    if (pinned)
        copy_rows(j->hc, j->dc, 0, j->m, j->n, j->ldc,
                  cudaMemcpyDeviceToHost, 0);
    else
        CUDA_CHECK(cudaMemcpy(j->hc, j->dc, ((size_t)(j->m - 1) * j->ldc
                              + j->n) * sizeof(float),
                              cudaMemcpyDeviceToHost));
    step_end(t, 0);
}
enum { MAX_PANELS = 64, B_SLICES = 4 };
static cudaStream_t in_stream, out_stream;
static cudaEvent_t go, done, in_done[MAX_PANELS], k_done[MAX_PANELS],
                   b_done[B_SLICES];

static void make_overlap_streams(void)
{
    unsigned f = cudaEventDisableTiming;
    if (in_stream)
        return;
    CUDA_CHECK(cudaStreamCreateWithFlags(&in_stream,
                                         cudaStreamNonBlocking));
    CUDA_CHECK(cudaStreamCreateWithFlags(&out_stream,
                                         cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreateWithFlags(&go, f));
    CUDA_CHECK(cudaEventCreateWithFlags(&done, f));
    for (int p = 0; p < MAX_PANELS; p++) {
        CUDA_CHECK(cudaEventCreateWithFlags(&in_done[p], f));
        CUDA_CHECK(cudaEventCreateWithFlags(&k_done[p], f));
    }
    for (int q = 0; q < B_SLICES; q++)
        CUDA_CHECK(cudaEventCreateWithFlags(&b_done[q], f));
}

void job_overlap(const struct job *j, int panels, struct trace *t)
{
    int rows = CEIL_DIV(CEIL_DIV(j->m, panels), 256) * 256;
    int slices = j->k >= 1024 ? B_SLICES : 1;
    int ks = CEIL_DIV(CEIL_DIV(j->k, slices), 16) * 16;
    cudaMemcpyKind in = cudaMemcpyHostToDevice;
    make_overlap_streams();
    CUDA_CHECK(cudaEventRecord(go, 0));
    CUDA_CHECK(cudaStreamWaitEvent(in_stream, go, 0));
    CUDA_CHECK(cudaStreamWaitEvent(out_stream, go, 0));
    for (int p = 0, r = 0; r < j->m; p++, r += rows) {
        int h = j->m - r < rows ? j->m - r : rows;
        step_begin(t, LANE_IN, p, in_stream);
        copy_rows(j->da, j->ha, r, h, j->k, j->lda, in, in_stream);
        if (j->beta != 0.0f)
            copy_rows(j->dc, j->hc0, r, h, j->n, j->ldc, in, in_stream);
        step_end(t, in_stream);
        CUDA_CHECK(cudaEventRecord(in_done[p], in_stream));
        if (p == 0) {
            for (int q = 0, p0 = 0; p0 < j->k; q++, p0 += ks) {
                int kq = j->k - p0 < ks ? j->k - p0 : ks;
                step_begin(t, LANE_IN, -1, in_stream);
                copy_rows(j->db, j->hb, p0, kq, j->n, j->ldb, in, in_stream);
                step_end(t, in_stream);
                CUDA_CHECK(cudaEventRecord(b_done[q], in_stream));
                CUDA_CHECK(cudaStreamWaitEvent(0, b_done[q], 0));
                step_begin(t, LANE_KERNEL, 0, 0);
                run_tuned(h, j->n, kq, j->alpha, j->da + p0, j->lda,
                          j->db + (size_t)p0 * j->ldb, j->ldb, q ? 1.0f : j->beta,
                          j->dc, j->ldc);
                step_end(t, 0);
            }
            CUDA_CHECK(cudaEventRecord(k_done[p], 0));
        } else {
            CUDA_CHECK(cudaStreamWaitEvent(0, in_done[p], 0));
            step_begin(t, LANE_KERNEL, p, 0);
            run_tuned(h, j->n, j->k, j->alpha, j->da + (size_t)r * j->lda, j->lda,
                      j->db, j->ldb, j->beta, j->dc + (size_t)r * j->ldc, j->ldc);
            step_end(t, 0);
            CUDA_CHECK(cudaEventRecord(k_done[p], 0));
        }
        CUDA_CHECK(cudaStreamWaitEvent(out_stream, k_done[p], 0));
        step_begin(t, LANE_OUT, p, out_stream);
        copy_rows(j->hc, j->dc, r, h, j->n, j->ldc, cudaMemcpyDeviceToHost,
                  out_stream);
        step_end(t, out_stream);
    }
    CUDA_CHECK(cudaEventRecord(done, out_stream));
    CUDA_CHECK(cudaStreamWaitEvent(0, done, 0));
}
int panels_for(int m)
{
    int p = m / 512;
    return p < 1 ? 1 : p > 8 ? 8 : p;
}

enum { MAX_STAGED = 256 };       /* the harness's MAX_SETS */
struct staged {
    float *dc;                   /* the set's C on the GPU: the key */
    float *da, *db;
    float *ha, *hb, *hc0, *hc;   /* host copies; C's input and output */
    size_t na, nb, nc;           /* their sizes in floats */
    int pinned;
};
static struct staged staged[MAX_STAGED];
static int nstaged, c_taken;

static float *host_buffer(size_t count, int pinned)
{
    void *p = NULL;
    if (pinned)
        CUDA_CHECK(cudaMallocHost(&p, count * sizeof(float)));
    else if (!(p = malloc(count * sizeof(float)))) {
        fprintf(stderr, "ch13: out of host memory\n");
        exit(3);
    }
    return (float *)p;
}

static void stage(int m, int n, int k, const struct operands *o,
                  int pinned)
{
    if (nstaged == MAX_STAGED) {
        fprintf(stderr, "ch13: more than %d buffer sets\n", MAX_STAGED);
        exit(3);
    }
    struct staged *s = &staged[nstaged++];
    (void)n;
    s->na = (size_t)m * o->lda;
    s->nb = (size_t)k * o->ldb;
    s->nc = (size_t)m * o->ldc;
    s->da = (float *)o->a;      /* the job rewrites them, same values */
    s->db = (float *)o->b;
    s->dc = o->c;
    s->pinned = pinned;
    s->ha = host_buffer(s->na, pinned);
    s->hb = host_buffer(s->nb, pinned);
    s->hc0 = host_buffer(s->nc, pinned);
    s->hc = host_buffer(s->nc, pinned);
    CUDA_CHECK(cudaMemcpy(s->ha, o->a, s->na * sizeof(float),
                          cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(s->hb, o->b, s->nb * sizeof(float),
                          cudaMemcpyDeviceToHost));
    c_taken = 0;
}

static void stage_pageable(int m, int n, int k,
                           const struct operands *o)
{
    stage(m, n, k, o, 0);
}

static void stage_pinned(int m, int n, int k, const struct operands *o)
{
    stage(m, n, k, o, 1);
}
static void free_staged(void)
{
    for (int i = 0; i < nstaged; i++) {
        float *h[4] = { staged[i].ha, staged[i].hb, staged[i].hc0,
                        staged[i].hc };
        for (int b = 0; b < 4; b++)
            if (staged[i].pinned)
                CUDA_CHECK(cudaFreeHost(h[b]));
            else
                free(h[b]);
    }
    nstaged = 0;
}
static struct job job_of(int m, int n, int k, float alpha,
                         const float *a, int lda, const float *b, int ldb,
                         float beta, float *c, int ldc)
{
    struct job j = { m, n, k, lda, ldb, ldc, alpha, beta };
    int i = 0;
    while (i < nstaged && staged[i].dc != c)
        i++;
    if (i == nstaged) {
        fprintf(stderr, "ch13: no host copies for this buffer set\n");
        exit(3);
    }
    (void)a;
    (void)b;
    if (beta != 0.0f && !c_taken) {
        for (int s = 0; s < nstaged; s++)
            CUDA_CHECK(cudaMemcpy(staged[s].hc0, staged[s].dc,
                                  staged[s].nc * sizeof(float),
                                  cudaMemcpyDeviceToHost));
        c_taken = 1;
    }
    j.ha = staged[i].ha;  j.hb = staged[i].hb;
    j.hc0 = staged[i].hc0;  j.hc = staged[i].hc;
    j.da = staged[i].da;  j.db = staged[i].db;  j.dc = c;
    return j;
}

static void run_naive(int m, int n, int k, float alpha,
                      const float *a, int lda, const float *b, int ldb,
                      float beta, float *c, int ldc)
{
    struct job j = job_of(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    job_serial(&j, 0, NULL);
}

static void run_pinned(int m, int n, int k, float alpha,
                       const float *a, int lda, const float *b, int ldb,
                       float beta, float *c, int ldc)
{
    struct job j = job_of(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    job_serial(&j, 1, NULL);
}

static void run_overlap(int m, int n, int k, float alpha,
                        const float *a, int lda, const float *b, int ldb,
                        float beta, float *c, int ldc)
{
    struct job j = job_of(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    job_overlap(&j, panels_for(m), NULL);
}

static const struct kernel kernels[] = {
    { .name = "kernel",
      .what = "ch9's kernel alone, on data already on the GPU",
      .function = FUNCTION(sgemm_dbuf<LARGE>), .run = run_tuned },
    { .name = "naive",
      .what = "pageable memory: cudaMemcpy in, kernel, cudaMemcpy out",
      .run = run_naive,
      .setup = stage_pageable, .teardown = free_staged },
    { .name = "pinned",
      .what = "pinned memory: the same steps, one after the other",
      .run = run_pinned,
      .setup = stage_pinned, .teardown = free_staged },
    { .name = "overlap",
      .what = "pinned, row panels: copies overlap the multiply",
      .run = run_overlap,
      .setup = stage_pinned, .teardown = free_staged },
};

extern "C" const struct chapter ch13_program = {
    .title = "the whole job, from host memory to host memory",
    .kernels = kernels, .nkernels = COUNT_OF(kernels),
};
