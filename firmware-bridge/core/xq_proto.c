#include "xq_proto.h"
#include "xq_cobs.h"
#include "xq_crc16.h"

static uint16_t put_crc(xq_cobs_encoder *e, uint16_t crc, uint8_t byte) {
  xq_cobs_put(e, byte);
  return xq_crc16_byte(crc, byte);
}

uint16_t xq_frame_write(uint8_t *out, uint8_t type, uint16_t seq, const uint8_t *body, uint16_t body_len) {
  xq_cobs_encoder e;
  uint16_t crc = XQ_CRC16_INIT;
  uint16_t i, n;
  xq_cobs_begin(&e, out);
  crc = put_crc(&e, crc, type);
  crc = put_crc(&e, crc, (uint8_t)(seq >> 8));
  crc = put_crc(&e, crc, (uint8_t)seq);
  for (i = 0; i < body_len; i++) crc = put_crc(&e, crc, body[i]);
  xq_cobs_put(&e, (uint8_t)(crc >> 8));
  xq_cobs_put(&e, (uint8_t)crc);
  n = xq_cobs_end(&e);
  out[n] = 0;
  return (uint16_t)(n + 1);
}

int8_t xq_frame_check(const uint8_t *decoded, uint16_t len, xq_frame *f) {
  if (len < XQ_FRAME_MIN || len > XQ_FRAME_MAX) return -1;
  /* The CRC is appended big-endian, so the CRC over the whole frame is 0. */
  if (xq_crc16(XQ_CRC16_INIT, decoded, len) != 0) return -1;
  f->type = decoded[0];
  f->seq = xq_get_u16(decoded + 1);
  f->body = decoded + 3;
  f->body_len = (uint16_t)(len - 5);
  return 0;
}

void xq_cells_pack(const uint8_t cells[XQ_CELLS], uint8_t out[XQ_CELL_BYTES]) {
  uint8_t i;
  for (i = 0; i < XQ_CELL_BYTES; i++) out[i] = 0;
  for (i = 0; i < XQ_CELLS; i++) out[i >> 2] |= (uint8_t)((cells[i] & 3u) << ((i & 3u) * 2u));
}

int8_t xq_cells_unpack(const uint8_t in[XQ_CELL_BYTES], uint8_t sensing, uint8_t cells[XQ_CELLS]) {
  uint8_t i;
  uint8_t max = sensing == XQ_SENSING_COLOUR ? XQ_CELL_BLACK : XQ_CELL_OCCUPIED;
  if (in[XQ_CELL_BYTES - 1] & 0xF0u) return -1;
  for (i = 0; i < XQ_CELLS; i++) {
    uint8_t v = (uint8_t)((in[i >> 2] >> ((i & 3u) * 2u)) & 3u);
    if (v > max) return -1;
    cells[i] = v;
  }
  return 0;
}

void xq_rx_init(xq_rx *rx) {
  rx->len = 0;
  rx->wire = 0;
  rx->crc = XQ_CRC16_INIT;
  rx->left = 0;
  rx->zero = 0;
  rx->overflow = 0;
}

static void rx_emit(xq_rx *rx, uint8_t byte) {
  rx->buf[rx->len++] = byte; /* len < wire <= XQ_WIRE_MAX: always room */
  rx->crc = xq_crc16_byte(rx->crc, byte);
}

int8_t xq_rx_push(xq_rx *rx, uint8_t byte, xq_frame *f) {
  uint16_t len;
  if (byte != 0) {
    if (rx->overflow) return XQ_RX_NONE;
    if (++rx->wire > XQ_WIRE_MAX) {
      rx->overflow = 1;
      return XQ_RX_NONE;
    }
    if (rx->left == 0) { /* a code byte: the previous block's implied zero, if any, was real */
      if (rx->zero) rx_emit(rx, 0);
      rx->zero = byte != 0xFF;
      rx->left = (uint8_t)(byte - 1);
    } else {
      rx_emit(rx, byte);
      rx->left--;
    }
    return XQ_RX_NONE;
  }
  /* Delimiter: judge what was collected, then start afresh whatever happened. */
  if (rx->wire == 0 && !rx->overflow) return XQ_RX_NONE;
  len = rx->len;
  if (rx->overflow || rx->left != 0 || len < XQ_FRAME_MIN || len > XQ_FRAME_MAX || rx->crc != 0) {
    xq_rx_init(rx);
    return XQ_RX_BAD;
  }
  /* The CRC is appended big-endian, so the CRC over the whole frame is 0. */
  f->type = rx->buf[0];
  f->seq = xq_get_u16(rx->buf + 1);
  f->body = rx->buf + 3;
  f->body_len = (uint16_t)(len - 5);
  xq_rx_init(rx);
  return XQ_RX_FRAME;
}
