/* A tiny assert-based test runner: CHECK* record failures and go on; the summary line is
   "xq core tests: <tests> tests, <checks> checks, <failed> failed". */
#ifndef XQTEST_H
#define XQTEST_H
#include <stdio.h>
#include <string.h>

extern int xqt_checks, xqt_failed;
extern const char *xqt_current;

#define CHECK(cond)                                                                       \
  do {                                                                                    \
    xqt_checks++;                                                                         \
    if (!(cond)) {                                                                        \
      xqt_failed++;                                                                       \
      fprintf(stderr, "FAIL %s (%s:%d): %s\n", xqt_current, __FILE__, __LINE__, #cond); \
    }                                                                                     \
  } while (0)

#define CHECK_EQ(a, b)                                                                            \
  do {                                                                                            \
    long xqt_a = (long)(a), xqt_b = (long)(b);                                                    \
    xqt_checks++;                                                                                 \
    if (xqt_a != xqt_b) {                                                                         \
      xqt_failed++;                                                                               \
      fprintf(stderr, "FAIL %s (%s:%d): %s == %s (%ld != %ld)\n", xqt_current, __FILE__, __LINE__, \
              #a, #b, xqt_a, xqt_b);                                                              \
    }                                                                                             \
  } while (0)

#define CHECK_BYTES(a, b, n)                                                                   \
  do {                                                                                         \
    xqt_checks++;                                                                              \
    if (memcmp((a), (b), (n)) != 0) {                                                          \
      xqt_failed++;                                                                            \
      fprintf(stderr, "FAIL %s (%s:%d): bytes %s != %s\n", xqt_current, __FILE__, __LINE__, #a, \
              #b);                                                                             \
      xqt_dump("  got ", (const unsigned char *)(a), (n));                                      \
      xqt_dump("  want", (const unsigned char *)(b), (n));                                      \
    }                                                                                          \
  } while (0)

void xqt_dump(const char *label, const unsigned char *p, unsigned n);
/* Parses "02 04 01 ..." into out; returns the byte count. */
unsigned xqt_hex(const char *hex, unsigned char *out);

typedef void (*xqt_fn)(void);
typedef struct {
  const char *name;
  xqt_fn fn;
} xqt_case;

#endif
