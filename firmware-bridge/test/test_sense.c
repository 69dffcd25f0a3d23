/* The 74HC165 chain reader against a model of the chips, the matrix reader, debounce, buttons. */
#include <stdlib.h>
#include "../core/xq_sense.h"
#include "xqtest.h"

/* A model of N daisy-chained 74HC165: PL low loads D7..D0 of every chip; each CP rising edge
   (with CE low) shifts one bit towards the MCU; Q7 is the top bit of chip 0. */
typedef struct {
  int nchips;
  unsigned char inputs[32]; /* D7..D0 of each chip, chip 0 nearest the MCU */
  unsigned char shift[32];
  int pl, cp, ce;
  int edges_ignored;
} hc165;

static void m_pl(void *ctx, uint8_t level) {
  hc165 *m = ctx;
  m->pl = level;
  if (!level) memcpy(m->shift, m->inputs, (size_t)m->nchips);
}
static void m_cp(void *ctx, uint8_t level) {
  hc165 *m = ctx;
  if (level && !m->cp) {
    if (!m->pl || m->ce) {
      m->edges_ignored++;
    } else {
      int c;
      for (c = 0; c < m->nchips; c++) {
        unsigned char in = c + 1 < m->nchips ? (unsigned char)(m->shift[c + 1] >> 7) : 0; /* DS of the last chip: GND */
        m->shift[c] = (unsigned char)((m->shift[c] << 1) | in);
      }
    }
  }
  m->cp = level;
}
static void m_ce(void *ctx, uint8_t level) { ((hc165 *)ctx)->ce = level; }
static uint8_t m_q7(void *ctx) {
  hc165 *m = ctx;
  return (uint8_t)(m->shift[0] >> 7);
}

/* The HAL steps of xq_chain_pins, made of pin-level operations on the model. */
static void h_load(void *ctx) {
  m_cp(ctx, 0);
  m_pl(ctx, 0);
  m_pl(ctx, 1);
}
static void h_enable(void *ctx, uint8_t on) { m_ce(ctx, (uint8_t)!on); }
static uint8_t h_shift(void *ctx) {
  uint8_t q = m_q7(ctx);
  m_cp(ctx, 1);
  m_cp(ctx, 0);
  return q;
}

static void chain_bit_order(void) {
  hc165 m;
  xq_chain_pins pins = {0, h_load, h_enable, h_shift};
  uint8_t raw[XQ_RAW_BYTES];
  int k;
  memset(&m, 0, sizeof m);
  m.nchips = 12;
  m.pl = m.ce = 1;
  pins.ctx = &m;
  /* Square k wired to chip k/8, input D(7 - k%8); set squares 0, 9, 45, 89. */
  m.inputs[0] = 0x80;      /* sq 0: chip 0 D7 */
  m.inputs[1] = 0x40;      /* sq 9: chip 1 D6 */
  m.inputs[5] = 0x04;      /* sq 45: chip 5 D2 */
  m.inputs[11] = 0x40 | 1; /* sq 89: chip 11 D6; D0 (bit 95) not read */
  memset(raw, 0xAA, sizeof raw);
  xq_chain_read(&pins, raw, 90);
  for (k = 0; k < 90; k++) CHECK_EQ(xq_raw_bit(raw, (uint16_t)k), k == 0 || k == 9 || k == 45 || k == 89);
  CHECK_EQ(m.edges_ignored, 0);
  CHECK_EQ(m.ce, 1); /* left disabled */
  /* A second read latches again (no stale shift state). */
  memset(m.inputs, 0, sizeof m.inputs);
  m.inputs[2] = 0x01; /* sq 23 */
  xq_chain_read(&pins, raw, 90);
  for (k = 0; k < 90; k++) CHECK_EQ(xq_raw_bit(raw, (uint16_t)k), k == 23);
}

static void chain_colour_length(void) {
  hc165 m;
  xq_chain_pins pins = {0, h_load, NULL, h_shift}; /* CE tied low */
  uint8_t raw[XQ_RAW_BYTES];
  memset(&m, 0, sizeof m);
  m.nchips = 23;
  m.pl = 1;
  pins.ctx = &m;
  m.inputs[22] = 0x10; /* bit 22*8 + 3 = 179: black polarity of Square 89 */
  xq_chain_read(&pins, raw, 180);
  CHECK_EQ(xq_raw_bit(raw, 179), 1);
  CHECK_EQ(xq_raw_bit(raw, 178), 0);
  CHECK_EQ(xq_raw_cell(raw, XQ_SENSING_COLOUR, 0, 89), XQ_CELL_BLACK);
}

static int mx_row = -1;
static unsigned char mx_on[10][9];
static void mx_drive(void *ctx, uint8_t row, uint8_t active) {
  (void)ctx;
  mx_row = active ? row : -1;
}
static uint8_t mx_col(void *ctx, uint8_t col) {
  (void)ctx;
  return mx_row >= 0 ? mx_on[mx_row][col] : 0;
}

static void matrix_bit_order(void) {
  xq_matrix_pins pins = {NULL, 10, 9, mx_drive, mx_col};
  uint8_t raw[XQ_RAW_BYTES];
  int k;
  memset(mx_on, 0, sizeof mx_on);
  mx_on[0][0] = mx_on[4][5] = mx_on[9][8] = 1; /* squares 0, 41, 89 */
  xq_matrix_read(&pins, raw, 90);
  for (k = 0; k < 90; k++) CHECK_EQ(xq_raw_bit(raw, (uint16_t)k), k == 0 || k == 41 || k == 89);
  CHECK_EQ(mx_row, -1); /* no row left driven */
}

/* Every point, in random patterns; a shorter read never writes past its last byte. */
static void matrix_random_patterns(void) {
  xq_matrix_pins pins = {NULL, 10, 9, mx_drive, mx_col};
  uint8_t raw[XQ_RAW_BYTES + 1];
  int round, k;
  srand(7);
  for (round = 0; round < 200; round++) {
    for (k = 0; k < 90; k++) mx_on[k / 9][k % 9] = (unsigned char)(rand() & 1);
    memset(raw, 0xA5, sizeof raw);
    xq_matrix_read(&pins, raw, 90);
    for (k = 0; k < 90; k++) CHECK_EQ(xq_raw_bit(raw, (uint16_t)k), mx_on[k / 9][k % 9]);
    CHECK_EQ(raw[12], 0xA5); /* 90 bits end in byte 11 */
  }
  memset(raw, 0xA5, sizeof raw);
  xq_matrix_read(&pins, raw, 16);
  CHECK_EQ(raw[2], 0xA5);
  CHECK_EQ(mx_row, -1);
}

static void set_sq(uint8_t *raw, int sq, int on, int active_low) { xq_raw_set(raw, (uint16_t)sq, (uint8_t)(on ^ active_low)); }

static void debounce_needs_n_equal_scans(void) {
  xq_debounce d;
  uint8_t raw[XQ_RAW_BYTES];
  memset(raw, 0xFF, sizeof raw); /* active low: all empty */
  xq_debounce_init(&d);
  set_sq(raw, 40, 1, 1);
  CHECK_EQ(xq_debounce_scan(&d, raw, XQ_SENSING_OCCUPANCY, 1, 3), 0);
  CHECK_EQ(xq_debounce_scan(&d, raw, XQ_SENSING_OCCUPANCY, 1, 3), 0);
  CHECK_EQ(d.stable[40], 0);
  CHECK_EQ(xq_debounce_scan(&d, raw, XQ_SENSING_OCCUPANCY, 1, 3), 1);
  CHECK_EQ(d.stable[40], 1);
  CHECK_EQ(xq_debounce_scan(&d, raw, XQ_SENSING_OCCUPANCY, 1, 3), 0);
}

static void debounce_ignores_flicker(void) {
  xq_debounce d;
  uint8_t raw[XQ_RAW_BYTES];
  int i;
  memset(raw, 0, sizeof raw);
  xq_debounce_init(&d);
  for (i = 0; i < 50; i++) {
    /* A sensor at the edge of a magnet's field: on, on, off, ... never 3 in a row. */
    set_sq(raw, 7, i % 3 != 2, 0);
    CHECK_EQ(xq_debounce_scan(&d, raw, XQ_SENSING_OCCUPANCY, 0, 3), 0);
  }
  CHECK_EQ(d.stable[7], 0);
}

/* The fast debounce walk reads the same cells as xq_raw_cell, for random raw bits. */
static void debounce_matches_raw_cell(void) {
  int round, sq, sensing, active_low;
  srand(3);
  for (round = 0; round < 200; round++) {
    uint8_t raw[XQ_RAW_BYTES];
    xq_debounce d;
    unsigned i;
    for (i = 0; i < sizeof raw; i++) raw[i] = (uint8_t)rand();
    sensing = round & 1;
    active_low = (round >> 1) & 1;
    xq_debounce_init(&d);
    xq_debounce_scan(&d, raw, (uint8_t)sensing, (uint8_t)active_low, 1);
    for (sq = 0; sq < 90; sq++) {
      uint8_t v = xq_raw_cell(raw, (uint8_t)sensing, (uint8_t)active_low, (uint8_t)sq);
      CHECK_EQ(d.stable[sq], v == XQ_CELL_INVALID ? XQ_CELL_EMPTY : v);
    }
  }
}

static void debounce_colour(void) {
  xq_debounce d;
  uint8_t raw[XQ_RAW_BYTES];
  int i;
  memset(raw, 0, sizeof raw);
  xq_debounce_init(&d);
  xq_raw_set(raw, 2 * 10, 1); /* red at 10 */
  xq_raw_set(raw, 2 * 11 + 1, 1); /* black at 11 */
  xq_raw_set(raw, 2 * 12, 1);     /* both at 12: unstable */
  xq_raw_set(raw, 2 * 12 + 1, 1);
  for (i = 0; i < 5; i++) xq_debounce_scan(&d, raw, XQ_SENSING_COLOUR, 0, 2);
  CHECK_EQ(d.stable[10], XQ_CELL_RED);
  CHECK_EQ(d.stable[11], XQ_CELL_BLACK);
  CHECK_EQ(d.stable[12], XQ_CELL_EMPTY);
  /* A capture: red replaces black at 11 directly (colour changes, occupancy does not). */
  xq_raw_set(raw, 2 * 11 + 1, 0);
  xq_raw_set(raw, 2 * 11, 1);
  CHECK_EQ(xq_debounce_scan(&d, raw, XQ_SENSING_COLOUR, 0, 2), 0);
  CHECK_EQ(xq_debounce_scan(&d, raw, XQ_SENSING_COLOUR, 0, 2), 1);
  CHECK_EQ(d.stable[11], XQ_CELL_RED);
}

static void button_debounce(void) {
  xq_button b;
  uint32_t t = 1000;
  int presses = 0, i;
  xq_button_init(&b);
  /* Contact bounce: 1 ms toggles for 10 ms, then held. */
  for (i = 0; i < 10; i++) presses += xq_button_sample(&b, (uint8_t)(i & 1), t++);
  for (i = 0; i < 19; i++) presses += xq_button_sample(&b, 1, t++);
  CHECK_EQ(presses, 0);
  for (i = 0; i < 30; i++) presses += xq_button_sample(&b, 1, t++);
  CHECK_EQ(presses, 1);
  /* Release and bounce: no event; a second press: one more. */
  for (i = 0; i < 40; i++) presses += xq_button_sample(&b, (uint8_t)(i < 6 ? i & 1 : 0), t++);
  for (i = 0; i < 40; i++) presses += xq_button_sample(&b, 1, t++);
  CHECK_EQ(presses, 2);
  /* Time wraps around 2^32 ms. */
  xq_button_init(&b);
  t = 0xFFFFFFF0u;
  for (i = 0; i < 40; i++) presses += xq_button_sample(&b, 1, t++);
  CHECK_EQ(presses, 3);
}

const xqt_case sense_cases[] = {
    {"chain bit order", chain_bit_order},
    {"chain colour length", chain_colour_length},
    {"matrix bit order", matrix_bit_order},
    {"matrix random patterns", matrix_random_patterns},
    {"debounce needs n equal scans", debounce_needs_n_equal_scans},
    {"debounce ignores flicker", debounce_ignores_flicker},
    {"debounce matches raw cell", debounce_matches_raw_cell},
    {"debounce colour", debounce_colour},
    {"button debounce", button_debounce},
    {NULL, NULL},
};
