/* CRC, COBS, frames, receiver and cell packing, against the examples of PROTOCOL.md. */
#include <stdlib.h>
#include "../core/xq_cobs.h"
#include "../core/xq_crc16.h"
#include "../core/xq_proto.h"
#include "xqtest.h"

/* The byte-wise step equals the textbook bitwise one, for every byte and many CRC states. */
static uint16_t crc_bitwise(uint16_t crc, uint8_t byte) {
  int i;
  crc ^= (uint16_t)(byte << 8);
  for (i = 0; i < 8; i++) crc = (uint16_t)(crc & 0x8000u ? ((unsigned)crc << 1) ^ 0x1021u : (unsigned)crc << 1);
  return crc;
}
static void crc_bytewise_equals_bitwise(void) {
  unsigned crc, b, wrong = 0;
  for (crc = 0; crc < 0x10000u; crc += 251)
    for (b = 0; b < 256; b++) wrong += xq_crc16_byte((uint16_t)crc, (uint8_t)b) != crc_bitwise((uint16_t)crc, (uint8_t)b);
  CHECK_EQ(wrong, 0);
  CHECK_EQ(xq_crc16_byte(0xFFFF, 0xFF), crc_bitwise(0xFFFF, 0xFF));
}

static void crc_check_value(void) {
  const unsigned char s[] = "123456789";
  unsigned char with_crc[11];
  CHECK_EQ(xq_crc16(XQ_CRC16_INIT, s, 9), 0x29B1);
  memcpy(with_crc, s, 9);
  with_crc[9] = 0x29;
  with_crc[10] = 0xB1;
  CHECK_EQ(xq_crc16(XQ_CRC16_INIT, with_crc, 11), 0);
}

static void cobs_known_vectors(void) {
  /* Cheshire & Baker / Wikipedia examples. */
  struct {
    const char *in, *out;
  } v[] = {
      {"00", "01 01"},
      {"00 00", "01 01 01"},
      {"00 11 00", "01 02 11 01"},
      {"11 22 00 33", "03 11 22 02 33"},
      {"11 22 33 44", "05 11 22 33 44"},
      {"11 00 00 00", "02 11 01 01 01"},
  };
  unsigned i;
  for (i = 0; i < sizeof v / sizeof v[0]; i++) {
    unsigned char in[16], want[16], got[16], back[16];
    unsigned n = xqt_hex(v[i].in, in), m = xqt_hex(v[i].out, want);
    CHECK_EQ(xq_cobs_encode(in, (uint16_t)n, got), m);
    CHECK_BYTES(got, want, m);
    CHECK_EQ(xq_cobs_decode(want, (uint16_t)m, back, sizeof back), n);
    CHECK_BYTES(back, in, n);
  }
}

static void cobs_long_runs(void) {
  /* 254 and 255 non-zero bytes cross the 0xFF block boundary. */
  static unsigned char in[600], enc[700], dec[700];
  unsigned len;
  for (len = 250; len < 600; len++) {
    unsigned i;
    uint16_t n;
    for (i = 0; i < len; i++) in[i] = (unsigned char)(1 + i % 255);
    n = xq_cobs_encode(in, (uint16_t)len, enc);
    CHECK(n <= XQ_COBS_BOUND(len));
    CHECK(memchr(enc, 0, n) == NULL);
    CHECK_EQ(xq_cobs_decode(enc, n, dec, sizeof dec), len);
    CHECK_BYTES(dec, in, len);
  }
}

static void cobs_random_roundtrip(void) {
  static unsigned char in[400], enc[420], dec[420];
  int round;
  srand(1);
  for (round = 0; round < 2000; round++) {
    unsigned len = (unsigned)rand() % 400, i;
    uint16_t n;
    int zeros = rand() % 4; /* from no zeros to mostly zeros */
    for (i = 0; i < len; i++) in[i] = (unsigned char)((rand() % 4 < zeros) ? 0 : 1 + rand() % 255);
    n = xq_cobs_encode(in, (uint16_t)len, enc);
    CHECK(n <= XQ_COBS_BOUND(len));
    CHECK(memchr(enc, 0, n) == NULL);
    CHECK_EQ(xq_cobs_decode(enc, n, dec, sizeof dec), len);
    CHECK(memcmp(dec, in, len) == 0);
    /* In place, as the receiver does it. */
    CHECK_EQ(xq_cobs_decode(enc, n, enc, sizeof enc), len);
    CHECK(memcmp(enc, in, len) == 0);
  }
}

static void cobs_rejects_bad_input(void) {
  unsigned char out[8];
  const unsigned char past_end[] = {0x05, 0x11, 0x22};
  const unsigned char has_zero[] = {0x02, 0x11, 0x00, 0x22};
  const unsigned char ok[] = {0x05, 0x11, 0x22, 0x33, 0x44};
  CHECK_EQ(xq_cobs_decode(past_end, 3, out, sizeof out), -1);
  CHECK_EQ(xq_cobs_decode(has_zero, 4, out, sizeof out), -1);
  CHECK_EQ(xq_cobs_decode(ok, 5, out, 3), -1); /* too long for the output */
}

/* Every example of PROTOCOL.md section 5. */
static const char *EX_PING = "02 02 04 01 B2 DD 00";
static const char *EX_SET_RATE = "02 04 06 07 01 F4 81 30 00";
static const char *EX_ACK = "02 85 02 2B 03 07 04 03 8E 8F 00";
static const char *EX_INFO = "02 81 01 02 01 02 01 01 01 0E C8 03 E8 03 02 05 78 71 62 2D 31 C4 86 00";
static const char *EX_SNAP_OCC =
    "02 83 02 2A 01 01 06 30 39 55 55 01 02 40 04 44 44 44 01 01 01 06 10 11 11 01 10 01 06 54 55 05 03 1D 00";
static const char *EX_SNAP_COLOUR_DECODED =
    "83 00 2A 00 00 00 30 39 55 55 01 00 40 00 44 44 44 00 00 00 00 20 22 22 02 20 00 00 A8 AA 0A 6A 44";
static const char *EX_BUTTON = "02 84 04 2C 01 01 01 05 30 70 93 41 00";

/* The start position: rank 0 (Red) first, '.' empty, 'r' red, 'b' black. */
static const char *START =
    "rrrrrrrrr"
    "........."
    ".r.....r."
    "r.r.r.r.r"
    "........."
    "........."
    "b.b.b.b.b"
    ".b.....b."
    "........."
    "bbbbbbbbb";

static void start_cells(int colour, uint8_t *cells) {
  int i;
  for (i = 0; i < 90; i++) {
    char c = START[i];
    cells[i] = c == '.' ? 0 : !colour ? 1 : c == 'r' ? 1 : 2;
  }
}

static void check_example(const char *hex, uint8_t type, uint16_t seq, const uint8_t *body, uint16_t len) {
  unsigned char want[300], got[300];
  unsigned n = xqt_hex(hex, want);
  CHECK_EQ(xq_frame_write(got, type, seq, body, len), n);
  CHECK_BYTES(got, want, n);
}

static void protocol_examples_encode(void) {
  uint8_t body[64], cells[90];
  const char *id = "xqb-1";
  check_example(EX_PING, XQ_T_PING, 1, NULL, 0);
  xq_put_u16(body, 500);
  check_example(EX_SET_RATE, XQ_T_SET_SCAN_RATE, 7, body, 2);
  body[0] = 0x00, body[1] = 0x07, body[2] = XQ_T_SET_SCAN_RATE, body[3] = XQ_ACK_OK;
  check_example(EX_ACK, XQ_T_ACK, 0x2B, body, 4);
  body[0] = 1, body[1] = XQ_SENSING_OCCUPANCY, body[2] = 1, body[3] = 0, body[4] = 0;
  xq_put_u16(body + 5, 200);
  xq_put_u16(body + 7, 1000);
  body[9] = 3, body[10] = XQ_CAP_BUTTONS, body[11] = 5;
  memcpy(body + 12, id, 5);
  check_example(EX_INFO, XQ_T_INFO, 0, body, 17);
  start_cells(0, cells);
  body[0] = XQ_REASON_CHANGE;
  xq_put_u32(body + 1, 12345);
  xq_cells_pack(cells, body + 5);
  check_example(EX_SNAP_OCC, XQ_T_SNAPSHOT, 0x2A, body, 28);
  body[0] = 1, body[1] = 1;
  xq_put_u32(body + 2, 12400);
  check_example(EX_BUTTON, XQ_T_BUTTON, 0x2C, body, 6);
}

static void protocol_examples_decode(void) {
  xq_rx rx;
  xq_frame f;
  unsigned char wire[300], want[40];
  uint8_t cells[90], expect[90];
  unsigned n = xqt_hex(EX_SNAP_OCC, wire), i;
  int8_t r = XQ_RX_NONE;
  xq_rx_init(&rx);
  for (i = 0; i < n; i++) r = xq_rx_push(&rx, wire[i], &f);
  CHECK_EQ(r, XQ_RX_FRAME);
  CHECK_EQ(f.type, XQ_T_SNAPSHOT);
  CHECK_EQ(f.seq, 0x2A);
  CHECK_EQ(f.body_len, 28);
  CHECK_EQ(xq_get_u32(f.body + 1), 12345);
  CHECK_EQ(xq_cells_unpack(f.body + 5, XQ_SENSING_OCCUPANCY, cells), 0);
  start_cells(0, expect);
  CHECK_BYTES(cells, expect, 90);
  /* The colour example: the decoded bytes as printed. */
  n = xqt_hex(EX_SNAP_COLOUR_DECODED, want);
  CHECK_EQ(xq_frame_check(want, (uint16_t)n, &f), 0);
  CHECK_EQ(xq_cells_unpack(f.body + 5, XQ_SENSING_COLOUR, cells), 0);
  start_cells(1, expect);
  CHECK_BYTES(cells, expect, 90);
  /* Colour values on an occupancy board are invalid. */
  CHECK_EQ(xq_cells_unpack(f.body + 5, XQ_SENSING_OCCUPANCY, cells), -1);
}

static void cells_pack_layout(void) {
  uint8_t cells[90] = {0}, packed[23], back[90];
  cells[0] = 1;  /* byte 0 bits 1..0 */
  cells[3] = 2;  /* byte 0 bits 7..6 */
  cells[89] = 2; /* byte 22 bits 3..2 */
  xq_cells_pack(cells, packed);
  CHECK_EQ(packed[0], 0x81);
  CHECK_EQ(packed[22], 0x08);
  CHECK_EQ(xq_cells_unpack(packed, XQ_SENSING_COLOUR, back), 0);
  CHECK_BYTES(back, cells, 90);
  packed[22] |= 0x10; /* padding must be zero */
  CHECK_EQ(xq_cells_unpack(packed, XQ_SENSING_COLOUR, back), -1);
  packed[22] = 0x0C; /* value 3 */
  CHECK_EQ(xq_cells_unpack(packed, XQ_SENSING_COLOUR, back), -1);
}

static int feed(xq_rx *rx, const unsigned char *p, unsigned n, int *frames, int *bad) {
  xq_frame f;
  unsigned i;
  for (i = 0; i < n; i++) {
    int8_t r = xq_rx_push(rx, p[i], &f);
    if (r == XQ_RX_FRAME) (*frames)++;
    if (r == XQ_RX_BAD) (*bad)++;
  }
  return 0;
}

static void rx_resyncs_after_garbage(void) {
  xq_rx rx;
  unsigned char ping[16], junk[1000];
  unsigned n = xqt_hex(EX_PING, ping), i;
  int frames = 0, bad = 0;
  xq_rx_init(&rx);
  /* Garbage without a zero, longer than any frame: one bad frame at the next 0x00. */
  for (i = 0; i < sizeof junk; i++) junk[i] = (unsigned char)(1 + i % 200);
  feed(&rx, junk, sizeof junk, &frames, &bad);
  feed(&rx, ping, n, &frames, &bad);
  CHECK_EQ(bad, 1);
  CHECK_EQ(frames, 0); /* the ping was glued to the garbage */
  feed(&rx, ping, n, &frames, &bad);
  CHECK_EQ(frames, 1);
  /* A cut cable: half a frame, then a whole one after the sender's leading 0x00. */
  feed(&rx, ping, 3, &frames, &bad);
  feed(&rx, (const unsigned char *)"\0", 1, &frames, &bad);
  feed(&rx, ping, n, &frames, &bad);
  CHECK_EQ(bad, 2);
  CHECK_EQ(frames, 2);
  /* Empty frames are not errors. */
  feed(&rx, (const unsigned char *)"\0\0\0", 3, &frames, &bad);
  CHECK_EQ(bad, 2);
  /* One flipped bit: bad CRC. */
  ping[3] ^= 0x10;
  feed(&rx, ping, n, &frames, &bad);
  CHECK_EQ(bad, 3);
  CHECK_EQ(frames, 2);
}

static void rx_random_bytes_never_frame(void) {
  xq_rx rx;
  xq_frame f;
  long frames = 0, bad = 0, i;
  srand(7);
  xq_rx_init(&rx);
  for (i = 0; i < 200000; i++) {
    unsigned char c = (unsigned char)(rand() % 8 == 0 ? 0 : rand());
    int8_t r = xq_rx_push(&rx, c, &f);
    if (r == XQ_RX_FRAME) frames++;
    if (r == XQ_RX_BAD) bad++;
  }
  /* A 16-bit CRC lets about 1 in 65536 random frames through; with ~25000 candidates,
     allow a couple, but the receiver must have judged every one of them. */
  CHECK(frames <= 3);
  CHECK(bad > 10000);
}

const xqt_case codec_cases[] = {
    {"crc check value", crc_check_value},
    {"crc byte-wise equals bitwise", crc_bytewise_equals_bitwise},
    {"cobs known vectors", cobs_known_vectors},
    {"cobs long runs", cobs_long_runs},
    {"cobs random roundtrip", cobs_random_roundtrip},
    {"cobs rejects bad input", cobs_rejects_bad_input},
    {"protocol examples encode", protocol_examples_encode},
    {"protocol examples decode", protocol_examples_decode},
    {"cells pack layout", cells_pack_layout},
    {"rx resyncs after garbage", rx_resyncs_after_garbage},
    {"rx random bytes never frame", rx_random_bytes_never_frame},
    {NULL, NULL},
};
