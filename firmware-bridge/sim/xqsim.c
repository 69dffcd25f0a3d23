/* xqsim: runs the xqboard firmware in simavr with UART0 on a pty, and simulates the sensors.
 *
 *   xqsim build/xqboard.elf [--colour | --matrix]
 *
 * stdout, first line: the pty path (open it, then send `start`). Then one line per command.
 * stdin commands:
 *   start               run the MCU (do it after opening the pty: earlier bytes would be lost)
 *   set <90 cells>      what the sensors see, Square order: '.' empty, 'x' occupied, 'r' / 'b'
 *   button red|black    press a clock button for 60 ms (simulated time); "ok" after the release
 *   glitch <sq> <us>    square <sq> reads the opposite for <us> microseconds (simulated);
 *                       answered "ok glitch <sq>" when it is back
 *   stats               prints "stats sim_ms=<n> scans=<n> chain_read_us=<x> led_frames=<n>
 *                       scan_gap_max_us=<x> led_first_ms=<x> led_last_ms=<x>" (scans = /PL pulses
 *                       seen, or row 0 selections on a matrix; chain_read_us = the last read, /PL
 *                       low to /CE high, or row 0 low to row 9 high; scan_gap_max_us = the longest
 *                       time from one scan to the next since `gap reset`; led_first_ms and
 *                       led_last_ms = when the first and the last LED frame since `gap reset` were
 *                       latched, simulated time, -1 for none)
 *   gap reset           starts a new window for scan_gap_max_us, led_first_ms and led_last_ms
 *   leds                prints "leds frames=<n> grb=<hex> t0h_ns=<min>-<max> t1h_ns=<min>-<max>
 *                       period_ns=<min>-<max> low_max_ns=<n> show_us=<x> after_scan_us=<x>": the
 *                       last complete frame decoded from the WS2812 data pin (PA4), its timing, and
 *                       when it started after the start of the last scan
 *   quit                exits (uart_pty_stop() hangs in simavr 1.6, so we never call it)
 * Each command is answered "ok <command>" or "error <why>".
 *
 * The 74HC165 chain is simulated on the firmware's pins (xqboard/pins.h): /PL = PA0, CP = PA1,
 * /CE = PA2, Q7 = PA3; buttons on PE4 (red) and PE5 (black). Sensors are active low, as on the
 * real board. With --matrix, a 10 x 9 diode matrix instead: rows (ranks 0..9) on PC7..PC0, PD7,
 * PG2, columns (files a..i) on PF0..PF7, PK0; a column reads low while a row with a piece on that
 * file is driven low. The WS2812 chain's data line (PA4) is decoded from its edges' cycle times.
 * The simulation runs at most as fast as real time, so firmware timings hold. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <simavr/avr_ioport.h>
#include <simavr/parts/uart_pty.h>
#include <simavr/sim_avr.h>
#include <simavr/sim_elf.h>

#define FREQ 16000000ul
#define MAX_CHIPS 23

static avr_t *avr;
static uart_pty_t pty;
static avr_irq_t *q7_irq, *button_irq[2];

/* The chain: bit k (k-th bit out of Q7 after a load) = raw sensor bit k. */
static int nbits = 90;
static unsigned char sensors[MAX_CHIPS * 8]; /* raw levels, 1 = no magnet */
static unsigned char shift[MAX_CHIPS * 8];
static int pos, pl_level = 1, ce_level = 1;
static unsigned long scans;
static avr_cycle_count_t scan_started, scan_cycles; /* /PL low to /CE high: one chain read */
static avr_cycle_count_t scan_gap_max; /* longest time between two scans since `gap reset` */

static void scan_begins(void) {
  if (scan_started && avr->cycle - scan_started > scan_gap_max) scan_gap_max = avr->cycle - scan_started;
  scans++;
  scan_started = avr->cycle;
}

static void put_q7(void) { avr_raise_irq(q7_irq, pos < MAX_CHIPS * 8 ? shift[pos] : 0); }

static void on_pl(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq, (void)param;
  pl_level = value & 1;
  if (!pl_level) { /* parallel load */
    memcpy(shift, sensors, sizeof shift);
    pos = 0;
    scan_begins();
    put_q7();
  }
}

static void on_cp(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq, (void)param;
  if ((value & 1) && pl_level && !ce_level) { /* rising edge, shifting enabled */
    pos++;
    put_q7();
  }
}

static void on_ce(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq, (void)param;
  ce_level = value & 1;
  if (ce_level && scan_started) scan_cycles = avr->cycle - scan_started;
}

/* ---- diode matrix ---- */
static int matrix;
static avr_irq_t *col_irq[9];
static unsigned char row_level[10]; /* what the firmware drives; 0 = selected. IRQs start at 0. */

static void update_columns(void) {
  int c, r;
  for (c = 0; c < 9; c++) {
    int low = 0;
    for (r = 0; r < 10; r++) low |= !row_level[r] && !sensors[r * 9 + c];
    avr_raise_irq(col_irq[c], !low);
  }
}

static void on_row(struct avr_irq_t *irq, uint32_t value, void *param) {
  long r = (long)param;
  (void)irq;
  row_level[r] = value & 1;
  if (r == 0 && !row_level[r]) scan_begins();
  if (r == 9 && row_level[r] && scan_started) scan_cycles = avr->cycle - scan_started;
  update_columns();
}

/* ---- WS2812 decoder on PA4 ---- */
#define LED_MAX_BYTES 512
#define LED_RESET_CYCLES (FREQ / 20000) /* 50 us low: the chain latches */
typedef struct {
  unsigned char bytes[LED_MAX_BYTES];
  int bits;
  avr_cycle_count_t start, end, after_scan; /* after_scan: from the last scan's start to `start` */
  unsigned t0h_min, t0h_max, t1h_min, t1h_max, period_min, period_max, low_max; /* cycles */
} led_frame_t;
static led_frame_t led_cur, led_last;
static unsigned long led_frames;
/* Latch times (cycles) of the first and the last frame since `gap reset`; 0: none yet. */
static avr_cycle_count_t led_first_latch, led_last_latch;
static int led_level;
static avr_cycle_count_t led_rise, led_fall;

static void led_reset_cur(void) {
  memset(&led_cur, 0, sizeof led_cur);
  led_cur.t0h_min = led_cur.t1h_min = led_cur.period_min = ~0u;
}

static avr_cycle_count_t led_latch(struct avr_t *a, avr_cycle_count_t when, void *param) {
  (void)a, (void)when, (void)param;
  if (led_cur.bits) {
    led_cur.end = led_fall;
    led_last = led_cur;
    led_frames++;
    if (!led_first_latch) led_first_latch = when;
    led_last_latch = when;
  }
  led_reset_cur();
  return 0;
}

static void on_led(struct avr_irq_t *irq, uint32_t value, void *param) {
  avr_cycle_count_t now = avr->cycle;
  (void)irq, (void)param;
  value &= 1;
  if ((int)value == led_level) return;
  led_level = (int)value;
  if (value) {
    if (led_cur.bits) {
      unsigned period = (unsigned)(now - led_rise), low = (unsigned)(now - led_fall);
      if (period < led_cur.period_min) led_cur.period_min = period;
      if (period > led_cur.period_max) led_cur.period_max = period;
      if (low > led_cur.low_max) led_cur.low_max = low;
    } else {
      led_cur.start = now;
      led_cur.after_scan = scan_started ? now - scan_started : 0;
    }
    led_rise = now;
  } else {
    unsigned high = (unsigned)(now - led_rise);
    int one = high * 1000000000ull / FREQ >= 625; /* between T0H (<= 550 ns) and T1H (>= 650 ns) */
    if (one) {
      if (high < led_cur.t1h_min) led_cur.t1h_min = high;
      if (high > led_cur.t1h_max) led_cur.t1h_max = high;
    } else {
      if (high < led_cur.t0h_min) led_cur.t0h_min = high;
      if (high > led_cur.t0h_max) led_cur.t0h_max = high;
    }
    if (led_cur.bits < LED_MAX_BYTES * 8) {
      if (one) led_cur.bytes[led_cur.bits >> 3] |= (unsigned char)(0x80 >> (led_cur.bits & 7));
      led_cur.bits++;
    }
    led_fall = now;
    avr_cycle_timer_register(avr, LED_RESET_CYCLES, led_latch, NULL);
  }
}

static unsigned ns(unsigned cycles) { return cycles == ~0u ? 0 : (unsigned)(cycles * 1000000000ull / FREQ); }

static void print_leds(void) {
  int i;
  printf("leds frames=%lu grb=", led_frames);
  for (i = 0; i < led_last.bits / 8; i++) printf("%02x", led_last.bytes[i]);
  printf(" bits=%d t0h_ns=%u-%u t1h_ns=%u-%u period_ns=%u-%u low_max_ns=%u show_us=%.1f after_scan_us=%.1f\n", led_last.bits,
         ns(led_last.t0h_min), ns(led_last.t0h_max), ns(led_last.t1h_min), ns(led_last.t1h_max),
         ns(led_last.period_min), ns(led_last.period_max), ns(led_last.low_max),
         (led_last.end - led_last.start) * 1e6 / FREQ, led_last.after_scan * 1e6 / FREQ);
}

static int set_cells(const char *cells) {
  int sq;
  if (strlen(cells) != 90) return -1;
  for (sq = 0; sq < 90; sq++)
    if (!strchr(".xrb", cells[sq])) return -1;
  memset(sensors, 1, sizeof sensors);
  for (sq = 0; sq < 90; sq++) {
    char c = cells[sq];
    if (nbits == 90) sensors[sq] = c == '.';
    else {
      sensors[2 * sq] = !(c == 'r' || c == 'x');
      sensors[2 * sq + 1] = c != 'b';
    }
  }
  if (matrix) update_columns();
  return 0;
}

static avr_cycle_count_t release(struct avr_t *a, avr_cycle_count_t when, void *param) {
  (void)a, (void)when;
  avr_raise_irq(button_irq[(long)param], 1);
  /* Answered only now, so a test's presses never overlap. */
  printf("ok button %s\n", (long)param ? "black" : "red");
  fflush(stdout);
  return 0;
}

/* glitch: one square reads the opposite for a while (a piece slid over it, a flaky sensor). */
static int glitch_sq = -1;
static void flip(int sq) {
  if (nbits == 90) sensors[sq] ^= 1;
  else sensors[2 * sq] ^= 1; /* the red sensor */
  if (matrix) update_columns();
}
static avr_cycle_count_t glitch_end(struct avr_t *a, avr_cycle_count_t when, void *param) {
  (void)a, (void)when, (void)param;
  flip(glitch_sq);
  printf("ok glitch %d\n", glitch_sq);
  fflush(stdout);
  glitch_sq = -1;
  return 0;
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

static int running;
static char line[256];
static size_t line_len;

static void command(char *cmd) {
  if (!strcmp(cmd, "start")) {
    running = 1;
  } else if (!strncmp(cmd, "set ", 4)) {
    if (set_cells(cmd + 4)) {
      printf("error set needs 90 of . x r b\n");
      return;
    }
  } else if (!strcmp(cmd, "button red") || !strcmp(cmd, "button black")) {
    long side = cmd[7] == 'b';
    avr_raise_irq(button_irq[side], 0);
    avr_cycle_timer_register_usec(avr, 60000, release, (void *)side);
    return;
  } else if (!strncmp(cmd, "glitch ", 7)) {
    int sq, us;
    if (sscanf(cmd + 7, "%d %d", &sq, &us) != 2 || sq < 0 || sq > 89 || us < 1 || glitch_sq >= 0) {
      printf("error glitch needs <square 0..89> <microseconds>, one at a time\n");
      return;
    }
    glitch_sq = sq;
    flip(sq);
    avr_cycle_timer_register_usec(avr, (uint32_t)us, glitch_end, NULL);
    return;
  } else if (!strcmp(cmd, "stats")) {
    printf("stats sim_ms=%llu scans=%lu chain_read_us=%.1f led_frames=%lu scan_gap_max_us=%.1f "
           "led_first_ms=%.3f led_last_ms=%.3f\n",
           (unsigned long long)(avr->cycle * 1000 / FREQ), scans, scan_cycles * 1e6 / FREQ, led_frames,
           scan_gap_max * 1e6 / FREQ, led_first_latch ? led_first_latch * 1e3 / FREQ : -1.0,
           led_last_latch ? led_last_latch * 1e3 / FREQ : -1.0);
  } else if (!strcmp(cmd, "gap reset")) {
    scan_gap_max = 0;
    led_first_latch = led_last_latch = 0;
  } else if (!strcmp(cmd, "leds")) {
    print_leds();
  } else if (!strcmp(cmd, "quit")) {
    fflush(stdout);
    _exit(0);
  } else {
    printf("error unknown command '%s'\n", cmd);
    return;
  }
  printf("ok %s\n", cmd);
}

/* Reads whatever stdin has, without waiting; runs complete lines. */
static void read_stdin(int wait_ms) {
  struct pollfd p = {0, POLLIN, 0};
  char buf[512];
  ssize_t n, i;
  if (poll(&p, 1, wait_ms) <= 0) return;
  n = read(0, buf, sizeof buf);
  if (n <= 0) _exit(0); /* the test went away */
  for (i = 0; i < n; i++) {
    if (buf[i] == '\n') {
      line[line_len] = 0;
      command(line);
      line_len = 0;
    } else if (line_len < sizeof line - 1) {
      line[line_len++] = buf[i];
    }
  }
  fflush(stdout);
}

int main(int argc, char **argv) {
  elf_firmware_t fw;
  int saved_stdout, i;
  double t0 = 0;
  avr_cycle_count_t c0 = 0;
  if (argc < 2) {
    fprintf(stderr, "usage: xqsim firmware.elf [--colour | --matrix]\n");
    return 2;
  }
  if (argc > 2 && !strcmp(argv[2], "--colour")) nbits = 180;
  if (argc > 2 && !strcmp(argv[2], "--matrix")) matrix = 1;
  /* simavr talks on stdout while loading; the first stdout line must be the pty path. */
  fflush(stdout);
  saved_stdout = dup(1);
  dup2(2, 1);
  memset(&fw, 0, sizeof fw);
  if (elf_read_firmware(argv[1], &fw)) {
    fprintf(stderr, "xqsim: cannot read %s\n", argv[1]);
    return 1;
  }
  avr = avr_make_mcu_by_name("atmega2560");
  if (!avr) return 1;
  avr_init(avr);
  avr->frequency = FREQ;
  avr_load_firmware(avr, &fw);
  avr->frequency = FREQ;
  avr->log = LOG_ERROR;

  uart_pty_init(avr, &pty);
  uart_pty_connect(&pty, '0');
  fflush(stdout);
  dup2(saved_stdout, 1);
  close(saved_stdout);
  printf("%s\n", pty.port[0].slavename);
  fflush(stdout);

  if (matrix) {
    /* xqboard/pins.h: ranks 0..7 on D30..D37 = PC7..PC0, rank 8 on D38 = PD7, rank 9 on D39 = PG2;
       files a..h on A0..A7 = PF0..PF7, file i on A8 = PK0. */
    static const char row_port[10] = {'C', 'C', 'C', 'C', 'C', 'C', 'C', 'C', 'D', 'G'};
    static const int row_bit[10] = {7, 6, 5, 4, 3, 2, 1, 0, 7, 2};
    long r;
    int c;
    for (r = 0; r < 10; r++)
      avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(row_port[r]), row_bit[r]), on_row, (void *)r);
    for (c = 0; c < 9; c++) col_irq[c] = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(c < 8 ? 'F' : 'K'), c < 8 ? c : 0);
  } else {
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('A'), 0), on_pl, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('A'), 1), on_cp, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('A'), 2), on_ce, NULL);
  }
  q7_irq = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('A'), 3);
  led_reset_cur();
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('A'), 4), on_led, NULL);
  button_irq[0] = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('E'), 4);
  button_irq[1] = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('E'), 5);
  avr_raise_irq(button_irq[0], 1);
  avr_raise_irq(button_irq[1], 1);
  set_cells("..........................................................................................");

  while (!running) read_stdin(100);
  t0 = now_s();
  c0 = avr->cycle;
  for (;;) {
    for (i = 0; i < 20000; i++) {
      int state = avr_run(avr);
      if (state == cpu_Done || state == cpu_Crashed) {
        fprintf(stderr, "xqsim: MCU stopped (state %d)\n", state);
        return 1;
      }
    }
    read_stdin(0);
    {
      /* Never run ahead of the wall clock: heartbeats and debounce keep their real meaning. */
      double ahead = (double)(avr->cycle - c0) / FREQ - (now_s() - t0);
      if (ahead > 0.002) usleep((useconds_t)(ahead * 1e6));
    }
  }
}
