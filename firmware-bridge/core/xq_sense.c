#include "xq_sense.h"

void xq_chain_read(const xq_chain_pins *p, uint8_t *raw, uint16_t nbits) {
  uint16_t k;
  uint8_t mask = 1, acc = 0;
  /* Latch all inputs at once, so one scan is one instant even while pieces move. */
  p->load(p->ctx);
  if (p->enable) p->enable(p->ctx, 1);
  for (k = 0; k < nbits; k++) {
    if (p->shift(p->ctx)) acc |= mask;
    mask = (uint8_t)(mask << 1);
    if (!mask) { /* a walking mask: variable shifts are loops on an AVR */
      *raw++ = acc;
      acc = 0;
      mask = 1;
    }
  }
  if (mask != 1) *raw = acc;
  if (p->enable) p->enable(p->ctx, 0);
}

void xq_matrix_read(const xq_matrix_pins *p, uint8_t *raw, uint16_t nbits) {
  uint8_t r, c, mask = 1, acc = 0;
  uint16_t k = 0;
  /* A walking mask, as in xq_chain_read: xq_raw_set's variable shifts are loops on an AVR and
     made a 90-point read take ~0.8 ms instead of ~0.35. */
  for (r = 0; r < p->rows && k < nbits; r++) {
    p->row(p->ctx, r, 1);
    for (c = 0; c < p->cols && k < nbits; c++, k++) {
      if (p->col(p->ctx, c)) acc |= mask;
      mask = (uint8_t)(mask << 1);
      if (!mask) {
        *raw++ = acc;
        acc = 0;
        mask = 1;
      }
    }
    p->row(p->ctx, r, 0);
  }
  if (mask != 1) *raw = acc;
}

uint8_t xq_raw_cell(const uint8_t *raw, uint8_t sensing, uint8_t active_low, uint8_t sq) {
  if (sensing == XQ_SENSING_COLOUR) {
    uint8_t red = (uint8_t)(xq_raw_bit(raw, (uint16_t)(2u * sq)) ^ active_low);
    uint8_t black = (uint8_t)(xq_raw_bit(raw, (uint16_t)(2u * sq + 1u)) ^ active_low);
    if (red && black) return XQ_CELL_INVALID;
    return red ? XQ_CELL_RED : black ? XQ_CELL_BLACK : XQ_CELL_EMPTY;
  }
  return (uint8_t)(xq_raw_bit(raw, sq) ^ active_low);
}

void xq_debounce_init(xq_debounce *d) {
  uint8_t i;
  for (i = 0; i < XQ_CELLS; i++) {
    d->stable[i] = XQ_CELL_EMPTY;
    d->candidate[i] = XQ_CELL_EMPTY;
    d->count[i] = 0;
  }
}

/* One cell against its debounce state. */
static uint8_t debounce_cell(xq_debounce *d, uint8_t i, uint8_t v, uint8_t need) {
  if (v == XQ_CELL_INVALID || v == d->stable[i]) {
    /* Unstable or back to the stable value: any run towards a new value is broken. */
    d->candidate[i] = d->stable[i];
    d->count[i] = 0;
    return 0;
  }
  if (v != d->candidate[i]) {
    d->candidate[i] = v;
    d->count[i] = 0;
  }
  if (++d->count[i] >= need) {
    d->stable[i] = v;
    d->count[i] = 0;
    return 1;
  }
  return 0;
}

uint8_t xq_debounce_scan(xq_debounce *d, const uint8_t *raw, uint8_t sensing, uint8_t active_low, uint8_t need) {
  uint8_t i, changed = 0, mask = 1, flip = active_low ? 0xFF : 0;
  uint8_t byte = (uint8_t)(*raw++ ^ flip);
  /* Same result as xq_raw_cell per Square, with a walking mask instead of variable shifts. */
  for (i = 0; i < XQ_CELLS; i++) {
    uint8_t v;
    if (sensing == XQ_SENSING_COLOUR) {
      uint8_t red = (byte & mask) ? 1 : 0;
      uint8_t black = (byte & (uint8_t)(mask << 1)) ? 1 : 0;
      v = red && black ? XQ_CELL_INVALID : red ? XQ_CELL_RED : black ? XQ_CELL_BLACK : XQ_CELL_EMPTY;
      mask = (uint8_t)(mask << 2);
    } else {
      v = (byte & mask) ? 1 : 0;
      mask = (uint8_t)(mask << 1);
    }
    if (!mask) {
      mask = 1;
      byte = (uint8_t)(*raw++ ^ flip);
    }
    changed |= debounce_cell(d, i, v, need);
  }
  return changed;
}

void xq_button_init(xq_button *b) {
  b->stable = 0;
  b->last = 0;
  b->since_ms = 0;
}

uint8_t xq_button_sample(xq_button *b, uint8_t pressed, uint32_t now_ms) {
  pressed = pressed ? 1 : 0;
  if (pressed != b->last) {
    b->last = pressed;
    b->since_ms = now_ms;
    return 0;
  }
  if (pressed != b->stable && (uint32_t)(now_ms - b->since_ms) >= XQ_BUTTON_STABLE_MS) {
    b->stable = pressed;
    return pressed;
  }
  return 0;
}
