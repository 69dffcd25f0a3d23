#include "xq_leds.h"

/* Rank by rank, so no division per Square (the AVR has none): same result as xq_led_index. */
void xq_leds_render(const uint8_t *rgb, uint8_t serpentine, uint8_t brightness, uint8_t *grb) {
  uint8_t rank, file;
  for (rank = 0; rank < XQ_CELLS / 9u; rank++) {
    uint8_t back = serpentine && (rank & 1u);
    uint8_t *row = grb + 27u * rank;
    for (file = 0; file < 9u; file++, rgb += 3) {
      uint8_t *out = row + 3u * (back ? 8u - file : file);
      if (brightness == 255) {
        out[0] = rgb[1];
        out[1] = rgb[0];
        out[2] = rgb[2];
      } else {
        out[0] = xq_led_scale(rgb[1], brightness);
        out[1] = xq_led_scale(rgb[0], brightness);
        out[2] = xq_led_scale(rgb[2], brightness);
      }
    }
  }
}
