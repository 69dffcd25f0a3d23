#include "xq_leds.h"

void xq_leds_render(const uint8_t *rgb, uint8_t serpentine, uint8_t brightness, uint8_t *grb) {
  uint8_t sq;
  for (sq = 0; sq < XQ_LED_COUNT; sq++, rgb += 3) {
    uint8_t *out = grb + 3u * xq_led_index(sq, serpentine);
    out[0] = xq_led_scale(rgb[1], brightness);
    out[1] = xq_led_scale(rgb[0], brightness);
    out[2] = xq_led_scale(rgb[2], brightness);
  }
}
