/* LED frame rendering: chain order (serpentine or straight), G R B, the brightness limit. */
#include "../core/xq_leds.h"
#include "xqtest.h"

static void index_serpentine_and_straight(void) {
  uint8_t seen[90];
  uint8_t sq;
  CHECK_EQ(xq_led_index(0, 1), 0);   /* a0 */
  CHECK_EQ(xq_led_index(8, 1), 8);   /* i0 */
  CHECK_EQ(xq_led_index(17, 1), 9);  /* i1: the chain turns at the edge */
  CHECK_EQ(xq_led_index(9, 1), 17);  /* a1 */
  CHECK_EQ(xq_led_index(18, 1), 18); /* a2 runs forward again */
  CHECK_EQ(xq_led_index(89, 1), 81); /* i9 (rank 9 is odd) */
  CHECK_EQ(xq_led_index(81, 1), 89); /* a9 is the last LED */
  memset(seen, 0, sizeof seen);
  for (sq = 0; sq < 90; sq++) {
    CHECK_EQ(xq_led_index(sq, 0), sq);
    seen[xq_led_index(sq, 1)]++;
  }
  for (sq = 0; sq < 90; sq++) CHECK_EQ(seen[sq], 1); /* a permutation */
}

static void scale_is_rounded_product(void) {
  unsigned v, b, wrong = 0;
  for (v = 0; v < 256; v++)
    for (b = 0; b < 256; b++) wrong += xq_led_scale((uint8_t)v, (uint8_t)b) != (v * b + 127) / 255;
  CHECK_EQ(wrong, 0);
  CHECK_EQ(xq_led_scale(255, 255), 255);
  CHECK_EQ(xq_led_scale(200, 0), 0);
}

static void render_grb_in_chain_order(void) {
  uint8_t rgb[270], grb[270];
  unsigned i;
  for (i = 0; i < 270; i++) rgb[i] = (uint8_t)(i * 7);
  xq_leds_render(rgb, 1, 128, grb);
  for (i = 0; i < 90; i++) {
    const uint8_t *out = grb + 3 * xq_led_index((uint8_t)i, 1);
    CHECK_EQ(out[0], xq_led_scale(rgb[3 * i + 1], 128));
    CHECK_EQ(out[1], xq_led_scale(rgb[3 * i], 128));
    CHECK_EQ(out[2], xq_led_scale(rgb[3 * i + 2], 128));
  }
}

const xqt_case leds_cases[] = {
    {"led index, serpentine and straight", index_serpentine_and_straight},
    {"led scale is the rounded product", scale_is_rounded_product},
    {"led render: G R B in chain order", render_grb_in_chain_order},
    {NULL, NULL},
};
