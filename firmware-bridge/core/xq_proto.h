/* The wire protocol of PROTOCOL.md: constants, frame writing, frame checking, cell packing. */
#ifndef XQ_PROTO_H
#define XQ_PROTO_H
#include <stdint.h>
#include "xq_cobs.h"
#ifdef __cplusplus
extern "C" {
#endif

#define XQ_PROTO_VERSION 1
#define XQ_CELLS 90
#define XQ_CELL_BYTES 23       /* 90 cells x 2 bits, 4 bits of padding */
#define XQ_LED_BYTES 270       /* 90 x R,G,B */
#define XQ_FRAME_MIN 5         /* type + seq + crc */
#define XQ_FRAME_MAX 280       /* decoded */
#define XQ_WIRE_MAX 282        /* encoded, without the 0x00 delimiter */
#define XQ_BOARD_ID_MAX 32

enum xq_type {
  XQ_T_HELLO = 0x01,
  XQ_T_PING = 0x02,
  XQ_T_GET_SNAPSHOT = 0x03,
  XQ_T_SET_SCAN_RATE = 0x04,
  XQ_T_LED_FRAME = 0x05,
  XQ_T_INFO = 0x81,
  XQ_T_PONG = 0x82,
  XQ_T_SNAPSHOT = 0x83,
  XQ_T_BUTTON = 0x84,
  XQ_T_ACK = 0x85
};

enum xq_ack_status {
  XQ_ACK_OK = 0,
  XQ_ACK_BAD_LENGTH = 1,
  XQ_ACK_OUT_OF_RANGE = 2,
  XQ_ACK_UNSUPPORTED = 3,
  XQ_ACK_UNKNOWN_TYPE = 4
};

enum xq_sensing { XQ_SENSING_OCCUPANCY = 0, XQ_SENSING_COLOUR = 1 };

enum xq_reason {
  XQ_REASON_CHANGE = 0,
  XQ_REASON_HEARTBEAT = 1,
  XQ_REASON_REQUESTED = 2,
  XQ_REASON_BOOT = 3
};

#define XQ_CAP_LEDS 0x01
#define XQ_CAP_BUTTONS 0x02

#define XQ_SCAN_HZ_MIN 10
#define XQ_SCAN_HZ_MAX 1000

/* Cell values (2 bits). */
#define XQ_CELL_EMPTY 0
#define XQ_CELL_OCCUPIED 1 /* occupancy board */
#define XQ_CELL_RED 1      /* colour board */
#define XQ_CELL_BLACK 2
#define XQ_CELL_INVALID 3

/* Bytes a frame with `body_len` bytes of body takes on the wire, delimiter included. */
#define XQ_WIRE_LEN(body_len) ((uint16_t)(XQ_COBS_BOUND((body_len) + 5u) + 1u))

/* A checked, decoded frame; `body` points into the decoder's buffer. */
typedef struct {
  uint8_t type;
  uint16_t seq;
  const uint8_t *body;
  uint16_t body_len;
} xq_frame;

/* Writes COBS(type seq body crc) 0x00 into `out` (room for XQ_WIRE_LEN(body_len)).
   Returns the bytes written. */
uint16_t xq_frame_write(uint8_t *out, uint8_t type, uint16_t seq, const uint8_t *body, uint16_t body_len);

/* Checks a decoded frame (length and CRC) and fills `f`. Returns 0 or -1. */
int8_t xq_frame_check(const uint8_t *decoded, uint16_t len, xq_frame *f);

/* 90 cell values (0..3) <-> 23 bytes, cell i at bits 2*(i&3) of byte i>>2, padding zero. */
void xq_cells_pack(const uint8_t cells[XQ_CELLS], uint8_t out[XQ_CELL_BYTES]);
/* Returns 0, or -1 if a value is invalid for `sensing` or the padding is not zero. */
int8_t xq_cells_unpack(const uint8_t in[XQ_CELL_BYTES], uint8_t sensing, uint8_t cells[XQ_CELLS]);

/* Byte receiver: decodes COBS and runs the CRC as the bytes arrive, so the delimiter costs
   nothing more than a comparison (a 280-byte frame checked all at once took ~1 ms on the AVR,
   long enough to make a scan late). */
typedef struct {
  uint8_t buf[XQ_WIRE_MAX]; /* the decoded frame */
  uint16_t len;             /* decoded bytes */
  uint16_t wire;            /* wire bytes since the last delimiter */
  uint16_t crc;             /* CRC of buf[0..len) */
  uint8_t left;             /* data bytes left in the current COBS block; 0: a code byte is next */
  uint8_t zero;             /* the current block ends with an implied zero, if another block follows */
  uint8_t overflow;
} xq_rx;

enum xq_rx_result { XQ_RX_NONE = 0, XQ_RX_FRAME = 1, XQ_RX_BAD = -1 };

void xq_rx_init(xq_rx *rx);
/* Feeds one byte. XQ_RX_FRAME: `f` holds a good frame (valid until the next push).
   XQ_RX_BAD: a frame was dropped (overflow, bad COBS, bad length or CRC). */
int8_t xq_rx_push(xq_rx *rx, uint8_t byte, xq_frame *f);

/* Big-endian helpers. */
static inline void xq_put_u16(uint8_t *p, uint16_t v) {
  p[0] = (uint8_t)(v >> 8);
  p[1] = (uint8_t)v;
}
static inline void xq_put_u32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}
static inline uint16_t xq_get_u16(const uint8_t *p) { return (uint16_t)(((uint16_t)p[0] << 8) | p[1]); }
static inline uint32_t xq_get_u32(const uint8_t *p) {
  return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

#ifdef __cplusplus
}
#endif
#endif
