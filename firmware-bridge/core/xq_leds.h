/* The board's own LEDs: 90 WS2812-class LEDs on one data line, one under each intersection.
   The protocol's LED_FRAME is R, G, B per Square at full brightness; the chain wants G, R, B
   per LED in chain order, scaled by the board's brightness limit. */
#ifndef XQ_LEDS_H
#define XQ_LEDS_H
#include <stdint.h>
#include "xq_proto.h"
#ifdef __cplusplus
extern "C" {
#endif

#define XQ_LED_COUNT XQ_CELLS

/* LED index of Square `sq` (rank * 9 + file). The chain starts at a0 and runs along rank 0;
   serpentine: it snakes back on every other rank (odd ranks run from file i to file a).
   The same mapping as the WLED driver's `serpentine` (src/leds/wled.ts) with offset 0. */
static inline uint8_t xq_led_index(uint8_t sq, uint8_t serpentine) {
  uint8_t rank = (uint8_t)(sq / 9u), file = (uint8_t)(sq % 9u);
  if (serpentine && (rank & 1u)) file = (uint8_t)(8u - file);
  return (uint8_t)(rank * 9u + file);
}

/* round(v * brightness / 255), without a division (exact for every v and brightness). */
static inline uint8_t xq_led_scale(uint8_t v, uint8_t brightness) {
  uint16_t y = (uint16_t)((uint16_t)v * brightness + 127u);
  return (uint8_t)((y + 1u + (y >> 8)) >> 8);
}

/* LED_FRAME body (R,G,B per Square) -> chain bytes (G,R,B per LED, chain order), scaled. */
void xq_leds_render(const uint8_t *rgb, uint8_t serpentine, uint8_t brightness, uint8_t *grb);

#ifdef __cplusplus
}
#endif
#endif
