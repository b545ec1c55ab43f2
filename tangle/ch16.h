/* ch16.h: one product on several GPUs, over NCCL. */
#ifndef CH16_H
#define CH16_H
#include <nccl.h>
#include "ch14.h"

enum cut_kind { SPLIT_N, SPLIT_K };
enum cut_steps { LINK_AND_MATH, LINK_ONLY, MATH_ONLY };
enum { MAX_CHUNKS = 8 };
struct cut {
    enum cut_kind kind;
    enum precision precision;   /* FP32 or BF16 */
    int chunks;                 /* pieces of the communication, 1 to 8 */
    enum cut_steps steps;       /* both, or one of them alone */
};

struct share { int first, count; };

static inline struct share share_of(int total, int parts, int r)
{
    int room = (total + parts - 1) / parts, first = r * room;
    int count = total - first < room ? total - first : room;
    struct share s = { first, count < 0 ? 0 : count };
    return s;
}

struct team {
    ncclComm_t comm;
    int rank, size;
    cudaStream_t link;                  /* the communication's stream */
    cudaEvent_t start, done;            /* a call's first and last */
    cudaEvent_t ev[2][2][MAX_CHUNKS];   /* [link, math][begin, end][piece] */
    char *gather;                       /* split N: A, gathered */
    float *part, *sum;                  /* split K: partial products, sums */
    size_t gather_bytes, part_bytes, sum_bytes;
};
enum { LINK_LANE, MATH_LANE };

void check_nccl(ncclResult_t r, const char *call, const char *file,
                int line);
#define NCCL_CHECK(call) check_nccl((call), #call, __FILE__, __LINE__)
void team_join(struct team *t, ncclComm_t comm);
void team_reserve(struct team *t, struct cut c, int m, int n, int k);
void team_release(struct team *t);
void team_leave(struct team *t);
void cut_product(struct team *t, struct cut c, int m, int n, int k,
                 float alpha, const void *a, int lda, const void *b,
                 int ldb, float beta, float *cc, int ldc);
int pieces_for(int m, int n, int k, int ranks);
#endif
