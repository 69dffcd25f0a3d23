// xqboard firmware for the Arduino Mega 2560: 90 Hall sensors on a chain of 74HC165, two clock
// buttons, the protocol of ../PROTOCOL.md on Serial (115200 8N1). All logic is in ../core; this
// file only wires it to the board. Build: `make -C firmware-bridge firmware`.
#include <Arduino.h>
#include "hal_mega.h"

#ifndef XQ_BOARD_ID
#define XQ_BOARD_ID "xqb-mega"
#endif
#ifndef XQ_SENSING
#define XQ_SENSING XQ_SENSING_OCCUPANCY
#endif

static xq_board board;

void setup() {
  // Sensors are open-collector Hall switches (A3144 class) with pull-ups: a magnet reads 0.
  static const xq_config config = {
      XQ_BOARD_ID, XQ_SENSING, 1, {1, 0, 0}, XQ_DEFAULT_SCAN_HZ, XQ_DEFAULT_HEARTBEAT_MS, XQ_DEFAULT_DEBOUNCE,
  };
  hal_mega_begin();
  xq_board_init(&board, &config, &hal_mega, micros(), millis());
}

void loop() { xq_board_poll(&board, micros(), millis()); }
