/* Sensor reading: raw bits from the hardware (74HC165 chain or diode matrix) to debounced cells. */
#ifndef XQ_SENSE_H
#define XQ_SENSE_H
#include <stdint.h>
#include "xq_proto.h"
#ifdef __cplusplus
extern "C" {
#endif

/* Raw bits, packed: bit k at byte k>>3, bit k&7. Occupancy uses 90 bits (bit i = Square i);
   colour uses 180 (bit 2i = red polarity at Square i, bit 2i+1 = black polarity). */
#define XQ_RAW_BITS_MAX 180
#define XQ_RAW_BYTES ((XQ_RAW_BITS_MAX + 7) / 8)

static inline uint8_t xq_raw_bit(const uint8_t *raw, uint16_t k) { return (uint8_t)((raw[k >> 3] >> (k & 7u)) & 1u); }
static inline void xq_raw_set(uint8_t *raw, uint16_t k, uint8_t v) {
  if (v) raw[k >> 3] |= (uint8_t)(1u << (k & 7u));
  else raw[k >> 3] &= (uint8_t)~(1u << (k & 7u));
}

/* 74HC165 chain: /PL (parallel load, active low), CP (clock, shifts on the rising edge),
   /CE (clock enable, active low), Q7 (serial out of the chip nearest the MCU).
   Bit k comes from chip k/8 counted from the MCU, input D(7 - k%8).
   The HAL gives three pin-level steps; one call per bit keeps a 90-bit scan fast on an AVR. */
typedef struct {
  void *ctx;
  /* CP low, pulse /PL low then high: every input is latched at this instant. */
  void (*load)(void *ctx);
  /* /CE low (1) or high (0); NULL when /CE is tied low. */
  void (*enable)(void *ctx, uint8_t on);
  /* Returns Q7, then pulses CP (low, high, low) so the next bit comes out. */
  uint8_t (*shift)(void *ctx);
} xq_chain_pins;

void xq_chain_read(const xq_chain_pins *p, uint8_t *raw, uint16_t nbits);

/* Diode matrix: drive one row active, read the columns; bit k = row * cols + col. */
typedef struct {
  void *ctx;
  uint8_t rows, cols;
  void (*row)(void *ctx, uint8_t row, uint8_t active);
  uint8_t (*col)(void *ctx, uint8_t col); /* 1 = sensor on */
} xq_matrix_pins;

void xq_matrix_read(const xq_matrix_pins *p, uint8_t *raw, uint16_t nbits);

/* Raw bits of Square i to a cell value; XQ_CELL_INVALID for a colour point reading both
   polarities (unstable). `active_low`: a sensor that sees a magnet reads 0 (A3144-style). */
uint8_t xq_raw_cell(const uint8_t *raw, uint8_t sensing, uint8_t active_low, uint8_t sq);

/* Per-intersection debounce: a value becomes stable after `need` consecutive equal scans. */
typedef struct {
  uint8_t stable[XQ_CELLS];
  uint8_t candidate[XQ_CELLS];
  uint8_t count[XQ_CELLS];
} xq_debounce;

void xq_debounce_init(xq_debounce *d);
/* Feeds one scan; returns 1 if any stable value changed. */
uint8_t xq_debounce_scan(xq_debounce *d, const uint8_t *raw, uint8_t sensing, uint8_t active_low, uint8_t need);

/* Button debounce: the level must hold for `XQ_BUTTON_STABLE_MS` before it counts. */
#define XQ_BUTTON_STABLE_MS 20
typedef struct {
  uint8_t stable;
  uint8_t last;
  uint32_t since_ms;
} xq_button;

void xq_button_init(xq_button *b);
/* Feeds a sample (1 = pressed); returns 1 on a debounced press edge. */
uint8_t xq_button_sample(xq_button *b, uint8_t pressed, uint32_t now_ms);

#ifdef __cplusplus
}
#endif
#endif
