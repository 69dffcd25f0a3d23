/* The board: scans, debounces, answers commands and sends frames, all from one non-blocking
   poll. The hardware is reached only through `xq_hal`, so the same code runs on the Mega, in
   simavr and in the host tests. */
#ifndef XQ_BOARD_H
#define XQ_BOARD_H
#include <stdint.h>
#include "xq_leds.h"
#include "xq_proto.h"
#include "xq_sense.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  void *ctx;
  /* Reads `nbits` raw sensor bits (see xq_sense.h); called once per scan. */
  void (*read_raw)(void *ctx, uint8_t *raw, uint16_t nbits);
  /* 1 while the clock button of `side` (0 red, 1 black) is held; NULL: no buttons. */
  uint8_t (*button)(void *ctx, uint8_t side);
  /* Next received byte, or -1 when none is waiting. */
  int16_t (*rx_byte)(void *ctx);
  /* Bytes that tx_write can take now without blocking. */
  uint16_t (*tx_room)(void *ctx);
  void (*tx_write)(void *ctx, const uint8_t *data, uint16_t len);
  /* Clocks out the chain: 270 bytes, G,R,B per LED in chain order (xq_leds_render). Blocks for
     about XQ_LED_SHOW_US; the board calls it only where it fits between two scans.
     NULL: the board has no LEDs (LED_FRAME is answered "unsupported"). */
  void (*leds)(void *ctx, const uint8_t *grb);
} xq_hal;

typedef struct {
  const char *board_id; /* 1..32 ASCII 0x21..0x7E */
  uint8_t sensing;      /* enum xq_sensing */
  uint8_t active_low;   /* sensors read 0 when they see a magnet */
  uint8_t fw[3];
  uint16_t scan_hz;
  uint16_t heartbeat_ms;
  uint8_t debounce; /* scans */
  uint8_t led_serpentine; /* the LED chain snakes back on odd ranks (xq_led_index) */
  uint8_t led_brightness; /* limit: a frame's 255 is shown as this (0..255) */
} xq_config;

#define XQ_DEFAULT_SCAN_HZ 200
#define XQ_DEFAULT_HEARTBEAT_MS 1000
#define XQ_DEFAULT_DEBOUNCE 3
#define XQ_QUEUE_LEN 16
#define XQ_RX_BUDGET 16 /* received bytes handled per poll */
#define XQ_TX_MARGIN_US 1000u /* no frame is written closer than this to the next scan */
/* Time a show takes: rendering (a few hundred microseconds on the Mega) and the HAL's `leds` for
   90 LEDs (24 bits of 1.25 us each plus the gaps between LEDs: 2.8 ms in simavr), rounded up; and
   the margin kept before the next scan for the rest of a poll. */
#define XQ_LED_SHOW_US 3500u
#define XQ_LED_MARGIN_US 1000u

/* Something to send; the frame itself is built when it goes out, from the state at that time. */
typedef struct {
  uint8_t type;
  uint8_t a; /* SNAPSHOT reason, BUTTON side, ACK cmd */
  uint8_t b; /* BUTTON presses, ACK status */
  uint16_t echo;
  uint32_t t_ms;
} xq_intent;

/* Largest frame the board sends: INFO with a 32-byte id (+1 for the boot delimiter). */
#define XQ_BOARD_TX_MAX (XQ_WIRE_LEN(12 + XQ_BOARD_ID_MAX) + 1)

typedef struct {
  xq_config cfg;
  const xq_hal *hal;
  uint8_t id_len;
  uint16_t nbits;
  xq_debounce deb;
  uint8_t raw[XQ_RAW_BYTES];
  xq_button buttons[2];
  uint8_t presses[2];
  xq_rx rx;
  xq_intent queue[XQ_QUEUE_LEN];
  uint8_t q_head, q_len;
  uint8_t snapshots_queued;
  uint8_t change_pending;
  uint8_t booted;
  uint8_t need_delimiter;
  uint8_t stalled;
  uint16_t tx_seq;
  uint32_t scan_period_us;
  uint32_t next_scan_us;
  uint32_t scans;
  uint32_t now_ms;
  uint32_t last_scan_ms;
  uint32_t last_snapshot_ms;
  uint16_t rx_bad;
  uint16_t tx_deferred;
  /* The latched LED frame (its body, still in rx.buf): rendered to chain order and shown between
     two scans, then ACKed. */
  uint8_t led_pending; /* 0 none, 1 latched in this poll, 2 waiting for its slot */
  uint16_t led_echo;
  const uint8_t *led_rgb;
  uint8_t led_grb[XQ_LED_BYTES];
  uint8_t wire[XQ_BOARD_TX_MAX];
} xq_board;

void xq_board_init(xq_board *b, const xq_config *cfg, const xq_hal *hal, uint32_t now_us, uint32_t now_ms);
/* Does whatever is due and returns; never waits. Call it as often as possible. */
void xq_board_poll(xq_board *b, uint32_t now_us, uint32_t now_ms);

#ifdef __cplusplus
}
#endif
#endif
