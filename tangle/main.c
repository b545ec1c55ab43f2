/* main.c: the main function of every program.  The build compiles it
   once per program P with -DPROGRAM=P, -DBOOK_CHAPTER=N and
   -DBOOK_TARGET="sm_XY", and links it with the object that holds the
   table P_program. */
#include "harness.h"
#if !defined(PROGRAM) || !defined(BOOK_CHAPTER) || !defined(BOOK_TARGET)
#error "build with make: it defines PROGRAM, BOOK_CHAPTER and BOOK_TARGET"
#endif
#define TABLE(p) TABLE_(p)
#define TABLE_(p) p##_program
extern const struct chapter TABLE(PROGRAM);

int main(int argc, char **argv)
{
    struct chapter ch = TABLE(PROGRAM);
    ch.number = BOOK_CHAPTER;
    ch.target = BOOK_TARGET;
    return harness_main(argc, argv, &ch);
}
