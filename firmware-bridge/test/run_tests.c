/* Runs every host test of the firmware core and prints one summary line. */
#include <stdlib.h>
#include "xqtest.h"

int xqt_checks, xqt_failed;
const char *xqt_current;

void xqt_dump(const char *label, const unsigned char *p, unsigned n) {
  unsigned i;
  fprintf(stderr, "%s:", label);
  for (i = 0; i < n; i++) fprintf(stderr, " %02X", p[i]);
  fprintf(stderr, "\n");
}

unsigned xqt_hex(const char *hex, unsigned char *out) {
  unsigned n = 0;
  while (*hex) {
    char *end;
    unsigned long v = strtoul(hex, &end, 16);
    if (end == hex) break;
    out[n++] = (unsigned char)v;
    hex = end;
  }
  return n;
}

extern const xqt_case codec_cases[], sense_cases[], leds_cases[], board_cases[];

int main(void) {
  const xqt_case *suites[] = {codec_cases, sense_cases, leds_cases, board_cases};
  int tests = 0, failed_tests = 0;
  unsigned s;
  for (s = 0; s < sizeof suites / sizeof suites[0]; s++) {
    const xqt_case *c;
    for (c = suites[s]; c->name; c++) {
      int before = xqt_failed;
      xqt_current = c->name;
      c->fn();
      tests++;
      if (xqt_failed != before) failed_tests++;
      printf("%s %s\n", xqt_failed == before ? "ok  " : "FAIL", c->name);
    }
  }
  printf("xq core tests: %d tests, %d checks, %d failed\n", tests, xqt_checks, failed_tests);
  return failed_tests ? 1 : 0;
}
