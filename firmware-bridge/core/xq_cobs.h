/* COBS (Consistent Overhead Byte Stuffing): removes every 0x00 so 0x00 can delimit frames. */
#ifndef XQ_COBS_H
#define XQ_COBS_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

/* Largest encoded size of `len` bytes (without the 0x00 delimiter). */
#define XQ_COBS_BOUND(len) ((uint16_t)((len) + (len) / 254u + 1u))

/* Streaming encoder: bytes go straight into `out`, no scratch copy of the frame. */
typedef struct {
  uint8_t *out;
  uint16_t code_pos;
  uint16_t pos;
  uint8_t code;
} xq_cobs_encoder;

void xq_cobs_begin(xq_cobs_encoder *e, uint8_t *out);
void xq_cobs_put(xq_cobs_encoder *e, uint8_t byte);
/* Closes the last block; returns the encoded length (no delimiter written). */
uint16_t xq_cobs_end(xq_cobs_encoder *e);

uint16_t xq_cobs_encode(const uint8_t *in, uint16_t len, uint8_t *out);

/* Decodes `len` bytes (no delimiter) into `out` (may be `in`: decoding in place is safe).
   Returns the decoded length, or -1 if the input is not valid COBS or exceeds `cap`. */
int16_t xq_cobs_decode(const uint8_t *in, uint16_t len, uint8_t *out, uint16_t cap);

#ifdef __cplusplus
}
#endif
#endif
