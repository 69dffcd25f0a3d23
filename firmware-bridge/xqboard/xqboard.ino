// xqboard firmware for the Arduino Mega 2560: 90 Hall sensors on a chain of 74HC165 (or reed
// switches in a diode matrix, XQ_MATRIX=1), two clock buttons, 90 WS2812 LEDs, the protocol of
// ../PROTOCOL.md on Serial (115200 8N1). All logic is in ../core; this file only wires it to the
// board. Build: `make -C firmware-bridge firmware` (options in the Makefile and ../README.md).
#include <Arduino.h>
#include "hal_mega.h"

#ifndef XQ_BOARD_ID
#define XQ_BOARD_ID "xqb-mega"
#endif
#ifndef XQ_SENSING
#define XQ_SENSING XQ_SENSING_OCCUPANCY
#endif
#ifndef XQ_MATRIX
#define XQ_MATRIX 0
#endif
#ifndef XQ_LED_SERPENTINE
#define XQ_LED_SERPENTINE 1
#endif
#ifndef XQ_LED_BRIGHTNESS
#define XQ_LED_BRIGHTNESS 128
#endif
#if XQ_MATRIX && XQ_SENSING != XQ_SENSING_OCCUPANCY
#error "the diode matrix reads occupancy only (one switch per point)"
#endif
#if XQ_LED_BRIGHTNESS < 0 || XQ_LED_BRIGHTNESS > 255
#error "XQ_LED_BRIGHTNESS is 0..255"
#endif

static xq_board board;

void setup() {
  // Hall switches (A3144 class) with pull-ups read 0 under a magnet; the matrix HAL already
  // reports a closed switch as 1.
  static const xq_config config = {
      XQ_BOARD_ID, XQ_SENSING, XQ_MATRIX ? 0 : 1, {1, 1, 0}, XQ_DEFAULT_SCAN_HZ, XQ_DEFAULT_HEARTBEAT_MS,
      XQ_DEFAULT_DEBOUNCE, XQ_LED_SERPENTINE, XQ_LED_BRIGHTNESS,
  };
  hal_mega_begin();
  // A reset (the DTR pulse when the controller opens the port) leaves the LEDs showing what they
  // showed: clear them until the controller sends a frame. The latch is still all zeros here.
  if (hal_mega.leds) hal_mega.leds(hal_mega.ctx, board.led_grb);
  xq_board_init(&board, &config, &hal_mega, micros(), millis());
}

void loop() { xq_board_poll(&board, micros(), millis()); }
