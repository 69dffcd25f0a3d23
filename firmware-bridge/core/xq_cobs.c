#include "xq_cobs.h"

void xq_cobs_begin(xq_cobs_encoder *e, uint8_t *out) {
  e->out = out;
  e->code_pos = 0;
  e->pos = 1;
  e->code = 1;
}

void xq_cobs_put(xq_cobs_encoder *e, uint8_t byte) {
  if (byte == 0) {
    e->out[e->code_pos] = e->code;
    e->code_pos = e->pos++;
    e->code = 1;
    return;
  }
  e->out[e->pos++] = byte;
  if (++e->code == 0xFF) {
    e->out[e->code_pos] = e->code;
    e->code_pos = e->pos++;
    e->code = 1;
  }
}

uint16_t xq_cobs_end(xq_cobs_encoder *e) {
  e->out[e->code_pos] = e->code;
  return e->pos;
}

uint16_t xq_cobs_encode(const uint8_t *in, uint16_t len, uint8_t *out) {
  xq_cobs_encoder e;
  uint16_t i;
  xq_cobs_begin(&e, out);
  for (i = 0; i < len; i++) xq_cobs_put(&e, in[i]);
  return xq_cobs_end(&e);
}

int16_t xq_cobs_decode(const uint8_t *in, uint16_t len, uint8_t *out, uint16_t cap) {
  uint16_t r = 0, w = 0;
  while (r < len) {
    uint8_t code = in[r++];
    uint8_t i;
    if (code == 0) return -1;
    if ((uint16_t)(code - 1) > (uint16_t)(len - r)) return -1;
    for (i = 1; i < code; i++) {
      if (w >= cap) return -1;
      out[w++] = in[r++];
    }
    if (code != 0xFF && r < len) {
      if (w >= cap) return -1;
      out[w++] = 0;
    }
  }
  return (int16_t)w;
}
