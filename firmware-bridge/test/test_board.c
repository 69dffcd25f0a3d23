/* The whole board (xq_board) against a fake HAL: boot, snapshots on change and as heartbeat,
   commands, garbage, a full TX buffer, buttons. Time is driven by the test. */
#include <stdlib.h>
#include "../core/xq_board.h"
#include "xqtest.h"

static uint32_t now_us, now_ms, us_acc;

typedef struct {
  uint8_t cells[90]; /* what the sensors see */
  uint8_t sensing, active_low;
  uint8_t pressed[2];
  unsigned char rx[4096];
  unsigned rx_len, rx_pos;
  unsigned char tx[65536];
  unsigned tx_len;
  unsigned tx_room_limit; /* 0xFFFF: unlimited */
  unsigned reads;
  uint8_t leds[270];
  int led_frames;
  uint32_t last_read_us; /* when the sensors were last read */
  int32_t led_room_us;   /* at the last show: time left before the next scan was due */
  int led_after_scan;    /* the last show came in the same poll as a scan */
  int writes_near_scan;  /* frames written within XQ_TX_MARGIN_US of a due scan, not right after one */
} fake;

static xq_board board;

static void f_read_raw(void *ctx, uint8_t *raw, uint16_t nbits) {
  fake *f = ctx;
  int sq;
  memset(raw, 0, XQ_RAW_BYTES);
  for (sq = 0; sq < 90; sq++) {
    uint8_t v = f->cells[sq];
    if (f->sensing == XQ_SENSING_COLOUR) {
      xq_raw_set(raw, (uint16_t)(2 * sq), (uint8_t)((v == 1 || v == 3) ^ f->active_low));
      xq_raw_set(raw, (uint16_t)(2 * sq + 1), (uint8_t)((v == 2 || v == 3) ^ f->active_low));
    } else {
      xq_raw_set(raw, (uint16_t)sq, (uint8_t)((v != 0) ^ f->active_low));
    }
  }
  (void)nbits;
  f->reads++;
  f->last_read_us = now_us;
}
static uint8_t f_button(void *ctx, uint8_t side) { return ((fake *)ctx)->pressed[side]; }
static int16_t f_rx(void *ctx) {
  fake *f = ctx;
  return f->rx_pos < f->rx_len ? f->rx[f->rx_pos++] : -1;
}
static uint16_t f_room(void *ctx) { return (uint16_t)((fake *)ctx)->tx_room_limit; }
static void f_write(void *ctx, const uint8_t *d, uint16_t n) {
  fake *f = ctx;
  CHECK(n <= f->tx_room_limit); /* the board never writes more than there is room for */
  if (f->last_read_us != now_us && (int32_t)(board.next_scan_us - now_us) < (int32_t)XQ_TX_MARGIN_US)
    f->writes_near_scan++;
  memcpy(f->tx + f->tx_len, d, n);
  f->tx_len += n;
  if (f->tx_room_limit != 0xFFFF) f->tx_room_limit -= n;
}
static void f_leds(void *ctx, const uint8_t *grb) {
  fake *f = ctx;
  memcpy(f->leds, grb, 270);
  f->led_frames++;
  f->led_room_us = (int32_t)(board.next_scan_us - now_us);
  f->led_after_scan = f->last_read_us == now_us;
}

typedef struct {
  uint8_t type;
  uint16_t seq;
  uint8_t body[64];
  uint16_t len;
} got_frame;

static got_frame frames[512];
static int nframes;
static int bad_frames;

/* Decodes everything the board wrote so far (and forgets it). */
static void collect(fake *f) {
  static xq_rx rx;
  static int inited;
  xq_frame fr;
  unsigned i;
  if (!inited) xq_rx_init(&rx), inited = 1;
  for (i = 0; i < f->tx_len; i++) {
    int8_t r = xq_rx_push(&rx, f->tx[i], &fr);
    if (r == XQ_RX_BAD) bad_frames++;
    if (r == XQ_RX_FRAME && nframes < 512) {
      frames[nframes].type = fr.type;
      frames[nframes].seq = fr.seq;
      frames[nframes].len = fr.body_len;
      memcpy(frames[nframes].body, fr.body, fr.body_len < 64 ? fr.body_len : 64);
      nframes++;
    }
  }
  f->tx_len = 0;
}

static fake fk;
static const xq_hal HAL = {&fk, f_read_raw, f_button, f_rx, f_room, f_write, NULL};
static const xq_hal HAL_LEDS = {&fk, f_read_raw, f_button, f_rx, f_room, f_write, f_leds};

static void start(uint8_t sensing, const xq_hal *hal) {
  xq_config cfg = {"test-board", 0, 1, {1, 2, 3}, 200, 1000, 3, 1, 255};
  memset(&fk, 0, sizeof fk);
  cfg.sensing = sensing;
  fk.sensing = sensing;
  fk.active_low = 1;
  fk.tx_room_limit = 0xFFFF;
  nframes = 0;
  bad_frames = 0;
  now_us = 5000000; /* not zero: the board must not assume time starts at 0 */
  now_ms = 5000;
  us_acc = 0;
  xq_board_init(&board, &cfg, hal, now_us, now_ms);
}

/* Runs the board for `ms` milliseconds, polled every 50 us (the Mega's loop runs about that often). */
static void run_ms(unsigned ms) {
  unsigned i;
  for (i = 0; i < ms * 20; i++) {
    now_us += 50;
    us_acc += 50;
    if (us_acc >= 1000) now_ms++, us_acc -= 1000;
    xq_board_poll(&board, now_us, now_ms);
  }
  collect(&fk);
}

static void send_cmd(uint8_t type, uint16_t seq, const uint8_t *body, uint16_t len) {
  if (fk.rx_pos == fk.rx_len) fk.rx_pos = fk.rx_len = 0; /* all read: start the buffer afresh */
  CHECK(fk.rx_len + XQ_WIRE_LEN(len) <= sizeof fk.rx);
  fk.rx_len += xq_frame_write(fk.rx + fk.rx_len, type, seq, body, len);
}

static int count_type(uint8_t type, int from) {
  int i, n = 0;
  for (i = from; i < nframes; i++) n += frames[i].type == type;
  return n;
}
static const got_frame *last_of(uint8_t type) {
  int i;
  for (i = nframes - 1; i >= 0; i--)
    if (frames[i].type == type) return &frames[i];
  return NULL;
}
static int cells_equal(const got_frame *g, const uint8_t *cells, uint8_t sensing) {
  uint8_t got[90];
  return g && g->len == 28 && xq_cells_unpack(g->body + 5, sensing, got) == 0 && memcmp(got, cells, 90) == 0;
}

static void boot_sends_info_then_snapshot(void) {
  start(XQ_SENSING_OCCUPANCY, &HAL);
  fk.cells[0] = fk.cells[89] = 1;
  run_ms(30);
  CHECK(fk.tx_len == 0);
  CHECK(nframes >= 2);
  CHECK_EQ(frames[0].type, XQ_T_INFO);
  CHECK_EQ(frames[0].seq, 0);
  CHECK_EQ(frames[0].len, 12 + 10);
  CHECK_EQ(frames[0].body[0], XQ_PROTO_VERSION);
  CHECK_EQ(frames[0].body[1], XQ_SENSING_OCCUPANCY);
  CHECK_EQ(frames[0].body[2], 1);
  CHECK_EQ(frames[0].body[4], 3);
  CHECK_EQ(xq_get_u16(frames[0].body + 5), 200);
  CHECK_EQ(xq_get_u16(frames[0].body + 7), 1000);
  CHECK_EQ(frames[0].body[9], 3);
  CHECK_EQ(frames[0].body[10], XQ_CAP_BUTTONS);
  CHECK(memcmp(frames[0].body + 12, "test-board", 10) == 0);
  CHECK_EQ(frames[1].type, XQ_T_SNAPSHOT);
  CHECK_EQ(frames[1].seq, 1);
  CHECK_EQ(frames[1].body[0], XQ_REASON_BOOT);
  CHECK(cells_equal(&frames[1], fk.cells, XQ_SENSING_OCCUPANCY));
  CHECK_EQ(nframes, 2); /* nothing changed after boot */
  CHECK_EQ(bad_frames, 0);
}

static void hello_before_boot_waits_for_boot_snapshot(void) {
  start(XQ_SENSING_OCCUPANCY, &HAL);
  fk.cells[44] = 1;
  send_cmd(XQ_T_HELLO, 1, NULL, 0);
  run_ms(30);
  CHECK_EQ(nframes, 3);
  CHECK_EQ(frames[0].type, XQ_T_INFO); /* after reset */
  CHECK_EQ(frames[1].type, XQ_T_INFO); /* the HELLO's */
  CHECK_EQ(frames[2].type, XQ_T_SNAPSHOT);
  CHECK_EQ(frames[2].body[0], XQ_REASON_BOOT);
  CHECK(cells_equal(&frames[2], fk.cells, XQ_SENSING_OCCUPANCY));
}

static void change_and_heartbeat(void) {
  int before;
  start(XQ_SENSING_OCCUPANCY, &HAL);
  run_ms(30);
  before = nframes;
  fk.cells[40] = 1;
  run_ms(30);
  CHECK_EQ(count_type(XQ_T_SNAPSHOT, before), 1);
  CHECK_EQ(last_of(XQ_T_SNAPSHOT)->body[0], XQ_REASON_CHANGE);
  CHECK(cells_equal(last_of(XQ_T_SNAPSHOT), fk.cells, XQ_SENSING_OCCUPANCY));
  /* A one-scan glitch is not a change. */
  before = nframes;
  fk.cells[41] = 1;
  run_ms(5);
  fk.cells[41] = 0;
  run_ms(100);
  CHECK_EQ(count_type(XQ_T_SNAPSHOT, before), 0);
  /* Quiet board: a heartbeat every 1000 ms, same content. */
  before = nframes;
  run_ms(3050);
  CHECK_EQ(count_type(XQ_T_SNAPSHOT, before), 3);
  CHECK_EQ(last_of(XQ_T_SNAPSHOT)->body[0], XQ_REASON_HEARTBEAT);
  CHECK(cells_equal(last_of(XQ_T_SNAPSHOT), fk.cells, XQ_SENSING_OCCUPANCY));
  /* Sequence numbers have no gaps. */
  {
    int i;
    for (i = 1; i < nframes; i++) CHECK_EQ(frames[i].seq, (uint16_t)(frames[i - 1].seq + 1));
  }
  /* 200 Hz: about 200 scans per second of run time. */
  CHECK(fk.reads >= 200 * 3 && fk.reads <= 200 * 4);
}

static void commands(void) {
  uint8_t body[270];
  int before;
  const got_frame *g;
  start(XQ_SENSING_COLOUR, &HAL);
  fk.cells[0] = 1;
  fk.cells[89] = 2;
  run_ms(30);
  before = nframes;
  send_cmd(XQ_T_HELLO, 100, NULL, 0);
  send_cmd(XQ_T_PING, 101, NULL, 0);
  send_cmd(XQ_T_GET_SNAPSHOT, 102, NULL, 0);
  xq_put_u16(body, 500);
  send_cmd(XQ_T_SET_SCAN_RATE, 103, body, 2);
  xq_put_u16(body, 5);
  send_cmd(XQ_T_SET_SCAN_RATE, 104, body, 2);
  send_cmd(XQ_T_SET_SCAN_RATE, 105, body, 1);
  memset(body, 0x11, sizeof body);
  send_cmd(XQ_T_LED_FRAME, 106, body, 270);
  send_cmd(0x3A, 107, NULL, 0);
  send_cmd(XQ_T_PING, 108, body, 3);
  run_ms(2);
  /* In order: INFO, SNAPSHOT(requested), PONG, SNAPSHOT(requested), 5 ACKs, ACK for the ping with a body. */
  CHECK_EQ(nframes - before, 10);
  CHECK_EQ(frames[before].type, XQ_T_INFO);
  CHECK_EQ(frames[before].body[1], XQ_SENSING_COLOUR);
  CHECK_EQ(frames[before + 1].type, XQ_T_SNAPSHOT);
  CHECK_EQ(frames[before + 1].body[0], XQ_REASON_REQUESTED);
  CHECK(cells_equal(&frames[before + 1], fk.cells, XQ_SENSING_COLOUR));
  g = &frames[before + 2];
  CHECK_EQ(g->type, XQ_T_PONG);
  CHECK_EQ(g->len, 14);
  CHECK_EQ(xq_get_u16(g->body), 101);
  CHECK(xq_get_u32(g->body + 2) <= now_ms && xq_get_u32(g->body + 2) >= now_ms - 2);
  CHECK(xq_get_u32(g->body + 6) >= 6);
  CHECK_EQ(frames[before + 3].type, XQ_T_SNAPSHOT);
  {
    static const uint16_t echo[] = {103, 104, 105, 106, 107, 108};
    static const uint8_t cmd[] = {XQ_T_SET_SCAN_RATE, XQ_T_SET_SCAN_RATE, XQ_T_SET_SCAN_RATE, XQ_T_LED_FRAME, 0x3A, XQ_T_PING};
    static const uint8_t status[] = {XQ_ACK_OK, XQ_ACK_OUT_OF_RANGE, XQ_ACK_BAD_LENGTH, XQ_ACK_UNSUPPORTED, XQ_ACK_UNKNOWN_TYPE, XQ_ACK_BAD_LENGTH};
    int i;
    for (i = 0; i < 6; i++) {
      g = &frames[before + 4 + i];
      CHECK_EQ(g->type, XQ_T_ACK);
      CHECK_EQ(xq_get_u16(g->body), echo[i]);
      CHECK_EQ(g->body[2], cmd[i]);
      CHECK_EQ(g->body[3], status[i]);
    }
  }
  /* The two wrong lengths and the value out of range count as bad frames. */
  CHECK_EQ(board.rx_bad, 3);
  /* The new rate is in effect and announced. */
  fk.reads = 0;
  run_ms(1000);
  CHECK(fk.reads >= 490 && fk.reads <= 510);
  send_cmd(XQ_T_HELLO, 109, NULL, 0);
  run_ms(1);
  CHECK_EQ(xq_get_u16(last_of(XQ_T_INFO)->body + 5), 500);
}

static void leds_when_present(void) {
  uint8_t body[270], want[270];
  int i;
  start(XQ_SENSING_OCCUPANCY, &HAL_LEDS);
  run_ms(30);
  CHECK_EQ(frames[0].body[10], XQ_CAP_LEDS | XQ_CAP_BUTTONS);
  for (i = 0; i < 270; i++) body[i] = (uint8_t)i; /* has a zero: COBS must carry it */
  send_cmd(XQ_T_LED_FRAME, 1, body, 270);
  run_ms(6); /* one scan period at most */
  CHECK_EQ(fk.led_frames, 1);
  /* Chain order (serpentine), G R B. */
  xq_leds_render(body, 1, 255, want);
  CHECK_BYTES(fk.leds, want, 270);
  CHECK_EQ(fk.leds[0], 1);           /* a0: G */
  CHECK_EQ(fk.leds[9 * 3 + 1], 51);  /* LED 9 is i1 (Square 17): R = 17 * 3 */
  CHECK_EQ(fk.leds[17 * 3 + 2], 29); /* LED 17 is a1 (Square 9): B = 9 * 3 + 2 */
  CHECK_EQ(last_of(XQ_T_ACK)->body[3], XQ_ACK_OK);
  CHECK_EQ(xq_get_u16(last_of(XQ_T_ACK)->body), 1);
}

/* The configured limit and layout are applied; a board with another config shows another order. */
static void leds_brightness_and_layout_from_config(void) {
  uint8_t body[270], want[270];
  xq_config cfg = {"test-board", 0, 1, {1, 2, 3}, 200, 1000, 3, 0, 100};
  int i;
  start(XQ_SENSING_OCCUPANCY, &HAL_LEDS);
  xq_board_init(&board, &cfg, &HAL_LEDS, now_us, now_ms);
  run_ms(30);
  for (i = 0; i < 270; i++) body[i] = (uint8_t)(255 - i);
  send_cmd(XQ_T_LED_FRAME, 7, body, 270);
  run_ms(6);
  CHECK_EQ(fk.led_frames, 1);
  for (i = 0; i < 90; i++) { /* straight chain: LED i is Square i */
    want[3 * i] = (uint8_t)((body[3 * i + 1] * 100 + 127) / 255);
    want[3 * i + 1] = (uint8_t)((body[3 * i] * 100 + 127) / 255);
    want[3 * i + 2] = (uint8_t)((body[3 * i + 2] * 100 + 127) / 255);
  }
  CHECK_BYTES(fk.leds, want, 270);
}

/* The show (which blocks on the Mega) goes between scans; its ACK keeps the command order. */
static void leds_shown_between_scans_acked_in_order(void) {
  uint8_t body[270];
  int before, i, shows = 0;
  unsigned reads;
  start(XQ_SENSING_OCCUPANCY, &HAL_LEDS);
  run_ms(30);
  memset(body, 0x40, sizeof body);
  before = nframes;
  send_cmd(XQ_T_LED_FRAME, 10, body, 270);
  send_cmd(XQ_T_PING, 11, NULL, 0);
  run_ms(6);
  CHECK_EQ(nframes - before, 2);
  CHECK_EQ(frames[before].type, XQ_T_ACK); /* the frame's ACK first, though the PING waited */
  CHECK_EQ(xq_get_u16(frames[before].body), 10);
  CHECK_EQ(frames[before + 1].type, XQ_T_PONG);
  CHECK(fk.led_after_scan || fk.led_room_us >= (int32_t)(XQ_LED_SHOW_US + XQ_LED_MARGIN_US));
  /* A frame every 25 ms (what 115200 baud carries): every one shown, every scan on time. */
  reads = fk.reads;
  before = nframes;
  for (i = 0; i < 40; i++) {
    send_cmd(XQ_T_LED_FRAME, (uint16_t)(100 + i), body, 270);
    run_ms(25);
    shows += fk.led_after_scan || fk.led_room_us >= (int32_t)(XQ_LED_SHOW_US + XQ_LED_MARGIN_US);
  }
  CHECK_EQ(fk.led_frames, 41);
  CHECK_EQ(shows, 40);
  CHECK_EQ(count_type(XQ_T_ACK, before), 40);
  CHECK(fk.reads - reads >= 199 && fk.reads - reads <= 201);
  /* At 1000 Hz there is no room between scans: shown right after one. */
  xq_put_u16(body, 1000);
  send_cmd(XQ_T_SET_SCAN_RATE, 200, body, 2);
  run_ms(5);
  send_cmd(XQ_T_LED_FRAME, 201, body, 270);
  run_ms(5);
  CHECK_EQ(fk.led_frames, 42);
  CHECK(fk.led_after_scan);
  CHECK_EQ(last_of(XQ_T_ACK)->body[3], XQ_ACK_OK);
  CHECK_EQ(bad_frames, 0);
}

/* Writing a frame takes a while on the Mega: never in the stretch just before a scan is due. */
static void frames_written_away_from_the_next_scan(void) {
  int i;
  start(XQ_SENSING_OCCUPANCY, &HAL);
  run_ms(30);
  for (i = 0; i < 200; i++) {
    send_cmd(XQ_T_PING, (uint16_t)i, NULL, 0);
    fk.cells[i % 90] = (uint8_t)!fk.cells[i % 90];
    run_ms(7); /* out of step with the 5 ms scan period */
  }
  run_ms(3000); /* heartbeats */
  CHECK_EQ(count_type(XQ_T_PONG, 0), 200);
  CHECK(count_type(XQ_T_SNAPSHOT, 0) >= 100);
  CHECK_EQ(fk.writes_near_scan, 0);
}

static void garbage_is_counted_and_survived(void) {
  unsigned i;
  const got_frame *g;
  start(XQ_SENSING_OCCUPANCY, &HAL);
  run_ms(30);
  /* Garbage, a frame cut in half, a bad CRC, the board's own frame echoed back, then a ping. */
  for (i = 0; i < 700; i++) fk.rx[fk.rx_len++] = (unsigned char)(1 + i % 250);
  fk.rx[fk.rx_len++] = 0;
  send_cmd(XQ_T_PING, 1, NULL, 0);
  fk.rx_len -= 3;
  fk.rx[fk.rx_len++] = 0;
  send_cmd(XQ_T_PING, 2, NULL, 0);
  fk.rx[fk.rx_len - 3] ^= 0x01;
  send_cmd(XQ_T_SNAPSHOT, 3, NULL, 0);
  send_cmd(XQ_T_PING, 4, NULL, 0);
  run_ms(5);
  CHECK_EQ(count_type(XQ_T_PONG, 0), 1);
  g = last_of(XQ_T_PONG);
  CHECK_EQ(xq_get_u16(g->body), 4);
  CHECK_EQ(xq_get_u16(g->body + 10), 4); /* rx_bad */
  CHECK_EQ(count_type(XQ_T_ACK, 0), 0);
}

static void fuzz_random_input(void) {
  int round;
  srand(42);
  start(XQ_SENSING_COLOUR, &HAL_LEDS);
  for (round = 0; round < 300; round++) {
    unsigned n = (unsigned)rand() % 512, i;
    fk.rx_len = fk.rx_pos = 0;
    for (i = 0; i < n; i++) fk.rx[fk.rx_len++] = (unsigned char)(rand() % 6 == 0 ? 0 : rand());
    if (rand() % 4 == 0) {
      fk.rx[fk.rx_len++] = 0; /* the sender's leading delimiter ends whatever garbage came before */
      send_cmd(XQ_T_PING, (uint16_t)round, NULL, 0);
    }
    fk.cells[rand() % 90] = (uint8_t)(rand() % 3);
    run_ms(3);
  }
  run_ms(50);
  CHECK(board.rx_bad > 100);
  CHECK(count_type(XQ_T_PONG, 0) > 40);
  CHECK(cells_equal(last_of(XQ_T_SNAPSHOT), fk.cells, XQ_SENSING_COLOUR));
  CHECK_EQ(bad_frames, 0); /* whatever came in, what goes out is well formed */
}

static void full_tx_never_blocks_scanning(void) {
  unsigned reads;
  const got_frame *g;
  start(XQ_SENSING_OCCUPANCY, &HAL);
  run_ms(30);
  fk.tx_room_limit = 10; /* smaller than any frame */
  reads = fk.reads;
  fk.cells[3] = 1;
  run_ms(50);
  fk.cells[4] = 1;
  run_ms(50);
  fk.cells[3] = 0;
  run_ms(50);
  CHECK(fk.reads - reads >= 29); /* kept scanning at 200 Hz */
  CHECK_EQ(nframes, 2);          /* INFO + boot, nothing since */
  CHECK_EQ(board.tx_deferred, 1);
  fk.tx_room_limit = 0xFFFF;
  run_ms(2);
  /* One snapshot, with the latest state (3 empty again, 4 occupied): changes coalesce. */
  CHECK_EQ(nframes, 3);
  g = last_of(XQ_T_SNAPSHOT);
  CHECK_EQ(g->body[0], XQ_REASON_CHANGE);
  CHECK(cells_equal(g, fk.cells, XQ_SENSING_OCCUPANCY));
}

static void buttons_send_events(void) {
  const got_frame *g;
  int before, i;
  start(XQ_SENSING_OCCUPANCY, &HAL);
  run_ms(30);
  before = nframes;
  for (i = 0; i < 8; i++) { /* bounce */
    fk.pressed[1] = (uint8_t)(i & 1);
    run_ms(1);
  }
  fk.pressed[1] = 1;
  run_ms(60);
  fk.pressed[1] = 0;
  run_ms(60);
  fk.pressed[0] = 1;
  run_ms(60);
  fk.pressed[0] = 0;
  run_ms(60);
  fk.pressed[1] = 1;
  run_ms(60);
  CHECK_EQ(count_type(XQ_T_BUTTON, before), 3);
  g = &frames[before];
  CHECK_EQ(g->type, XQ_T_BUTTON);
  CHECK_EQ(g->body[0], 1);
  CHECK_EQ(g->body[1], 1);
  g = last_of(XQ_T_BUTTON);
  CHECK_EQ(g->body[0], 1);
  CHECK_EQ(g->body[1], 2);
  CHECK(xq_get_u32(g->body + 2) <= now_ms);
}

static void time_wraps(void) {
  unsigned reads;
  int before;
  start(XQ_SENSING_OCCUPANCY, &HAL);
  now_us = 0xFFFFFFFFu - 100000u; /* micros() wraps every 71 minutes, millis() every 49 days */
  now_ms = 0xFFFFFFFFu - 1000u;
  xq_board_init(&board, &board.cfg, &HAL, now_us, now_ms);
  run_ms(30);
  reads = fk.reads;
  before = nframes;
  run_ms(2500);
  CHECK(fk.reads - reads >= 490 && fk.reads - reads <= 510);
  CHECK_EQ(count_type(XQ_T_SNAPSHOT, before), 2);
}

const xqt_case board_cases[] = {
    {"boot sends info then snapshot", boot_sends_info_then_snapshot},
    {"hello before boot waits for boot snapshot", hello_before_boot_waits_for_boot_snapshot},
    {"change and heartbeat", change_and_heartbeat},
    {"commands", commands},
    {"leds when present", leds_when_present},
    {"leds brightness and layout from config", leds_brightness_and_layout_from_config},
    {"leds shown between scans, acked in order", leds_shown_between_scans_acked_in_order},
    {"frames written away from the next scan", frames_written_away_from_the_next_scan},
    {"garbage is counted and survived", garbage_is_counted_and_survived},
    {"fuzz random input", fuzz_random_input},
    {"full tx never blocks scanning", full_tx_never_blocks_scanning},
    {"buttons send events", buttons_send_events},
    {"time wraps", time_wraps},
    {NULL, NULL},
};
