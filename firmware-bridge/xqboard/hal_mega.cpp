// The xq_hal of the Mega 2560. The chain uses direct port access: a 90-bit scan with
// digitalWrite would take ~1 ms, with sbi/cbi it is a small fraction of that.
#include <Arduino.h>
#include "hal_mega.h"
#include "pins.h"
#include "ws2812.h"

// wiring.c's clock (C linkage); leds() adds the timer0 overflows it had to keep from its ISR.
extern "C" volatile unsigned long timer0_overflow_count, timer0_millis;

#ifndef XQ_MATRIX
#define XQ_MATRIX 0
#endif
#ifndef XQ_LEDS
#define XQ_LEDS 1
#endif

namespace {

#if !XQ_MATRIX
// The chain on port A with compile-time addresses: each step is one sbi/cbi/sbic instruction.
// These bits must match pins.h (D22..D25 = PA0..PA3 on the Mega 2560).
constexpr uint8_t PL_BIT = 0, CP_BIT = 1, CE_BIT = 2, Q7_BIT = 3;

void chain_load(void *) {
  PORTA &= (uint8_t)~_BV(CP_BIT);
  PORTA &= (uint8_t)~_BV(PL_BIT);
  PORTA |= _BV(PL_BIT);
}

void chain_enable(void *, uint8_t on) {
  if (on) PORTA &= (uint8_t)~_BV(CE_BIT);
  else PORTA |= _BV(CE_BIT);
}

uint8_t chain_shift(void *) {
  uint8_t q = (PINA & _BV(Q7_BIT)) ? 1 : 0;
  PORTA |= _BV(CP_BIT);
  PORTA &= (uint8_t)~_BV(CP_BIT);
  return q;
}

const xq_chain_pins chain = {nullptr, chain_load, chain_enable, chain_shift};

void read_raw(void *, uint8_t *raw, uint16_t nbits) { xq_chain_read(&chain, raw, nbits); }

void sensors_begin() {
  pinMode(XQ_PIN_PL, OUTPUT);
  pinMode(XQ_PIN_CP, OUTPUT);
  pinMode(XQ_PIN_CE, OUTPUT);
  pinMode(XQ_PIN_Q7, INPUT);
  digitalWrite(XQ_PIN_PL, HIGH);
  digitalWrite(XQ_PIN_CE, HIGH);
  digitalWrite(XQ_PIN_CP, LOW);
}
#else
// Rows sit on three ports (C, D, G): their port register and bit are looked up once.
constexpr uint8_t ROWS = 10, COLS = 9;
const uint8_t row_pins[ROWS] = XQ_MATRIX_ROW_PINS;
const uint8_t col_pins[COLS] = XQ_MATRIX_COL_PINS;
volatile uint8_t *row_port[ROWS];
uint8_t row_bit[ROWS];
uint16_t columns; // the selected row's columns, bit c = file c, 1 = low (switch closed)

void row(void *, uint8_t r, uint8_t active) {
  if (active) {
    *row_port[r] &= (uint8_t)~row_bit[r];
    delayMicroseconds(XQ_MATRIX_SETTLE_US);
    // Columns a..h are PF0..PF7 and i is PK0 (pins.h): two reads give all nine.
    columns = (uint16_t)~(PINF | ((uint16_t)(PINK & 1) << 8)) & 0x1FF;
  } else {
    *row_port[r] |= row_bit[r];
  }
}

uint8_t col(void *, uint8_t c) { return (uint8_t)((columns >> c) & 1); }

const xq_matrix_pins matrix = {nullptr, ROWS, COLS, row, col};

void read_raw(void *, uint8_t *raw, uint16_t nbits) { xq_matrix_read(&matrix, raw, nbits); }

void sensors_begin() {
  for (uint8_t r = 0; r < ROWS; r++) {
    row_port[r] = portOutputRegister(digitalPinToPort(row_pins[r]));
    row_bit[r] = digitalPinToBitMask(row_pins[r]);
    pinMode(row_pins[r], OUTPUT);
    digitalWrite(row_pins[r], HIGH); // inactive; the diodes block the high rows
  }
  for (uint8_t c = 0; c < COLS; c++) pinMode(col_pins[c], INPUT_PULLUP);
}
#endif

uint8_t button(void *, uint8_t side) {
  return digitalRead(side == 0 ? XQ_PIN_BUTTON_RED : XQ_PIN_BUTTON_BLACK) == LOW ? 1 : 0;
}

int16_t rx_byte(void *) { return (int16_t)Serial.read(); }

uint16_t tx_room(void *) {
  int n = Serial.availableForWrite();
  return n > 0 ? (uint16_t)n : 0;
}

void tx_write(void *, const uint8_t *data, uint16_t len) { Serial.write(data, len); }

#if XQ_LEDS
// While the LEDs are clocked out interrupts are off for ~3 ms. Two things would be lost and are
// done by hand between LEDs instead: received bytes (the UART holds two, ~35 arrive in 3 ms at
// 115200) go into Serial's own ring buffer as its ISR would put them, and timer0 overflows (one
// every 1.024 ms, the flag holds one) are counted and added to millis()/micros() afterwards.
struct SerialRing : HardwareSerial {
  // Pointers to Serial's protected members: a derived class may name them, and the pointers
  // apply to the Serial object itself. The ring is only touched with interrupts off.
  static void push(uint8_t c) {
    volatile rx_buffer_index_t HardwareSerial::*head = &SerialRing::_rx_buffer_head;
    volatile rx_buffer_index_t HardwareSerial::*tail = &SerialRing::_rx_buffer_tail;
    unsigned char(HardwareSerial::*buf)[SERIAL_RX_BUFFER_SIZE] = &SerialRing::_rx_buffer;
    rx_buffer_index_t h = Serial.*head;
    rx_buffer_index_t next = (rx_buffer_index_t)((unsigned)(h + 1) % SERIAL_RX_BUFFER_SIZE);
    if (next != Serial.*tail) { // full: dropped, as the ISR would
      (Serial.*buf)[h] = c;
      Serial.*head = next;
    }
  }
};

uint8_t millis_fract; // 1.024 ms per overflow: the 0.024 ms parts, in 1/125 ms as wiring.c counts

void leds(void *, const uint8_t *grb) {
  uint8_t overflows = 0;
  uint8_t sreg = SREG;
  cli();
  const uint8_t lo = (uint8_t)(PORTA & ~_BV(XQ_LED_PORT_BIT)), hi = (uint8_t)(lo | _BV(XQ_LED_PORT_BIT));
  for (uint8_t i = 0; i < XQ_LED_COUNT; i++, grb += 3) {
    ws2812_led(grb, hi, lo);
    if (UCSR0A & _BV(RXC0)) SerialRing::push(UDR0);
    if (TIFR0 & _BV(TOV0)) {
      TIFR0 = _BV(TOV0); // cleared by writing 1: the ISR will not count it again
      overflows++;
    }
  }
  // Bring wiring.c's clock up to date, as its TIMER0_OVF ISR would have (MILLIS_INC 1, FRACT_INC 3).
  timer0_overflow_count += overflows;
  unsigned long ms = overflows;
  millis_fract = (uint8_t)(millis_fract + 3u * overflows);
  while (millis_fract >= 125) millis_fract -= 125, ms++;
  timer0_millis += ms;
  SREG = sreg;
  // The chain latches after >= 50 us low (280 us on newer parts); the next show is milliseconds away.
}
#endif

} // namespace

void hal_mega_begin(void) {
  sensors_begin();
  pinMode(XQ_PIN_BUTTON_RED, INPUT_PULLUP);
  pinMode(XQ_PIN_BUTTON_BLACK, INPUT_PULLUP);
#if XQ_LEDS
  pinMode(XQ_PIN_LED, OUTPUT);
  digitalWrite(XQ_PIN_LED, LOW);
#endif
  Serial.begin(115200);
}

#if XQ_LEDS
const xq_hal hal_mega = {nullptr, read_raw, button, rx_byte, tx_room, tx_write, leds};
#else
// No LEDs on this build: LED_FRAME is answered with ACK status 3 (unsupported).
const xq_hal hal_mega = {nullptr, read_raw, button, rx_byte, tx_room, tx_write, nullptr};
#endif
