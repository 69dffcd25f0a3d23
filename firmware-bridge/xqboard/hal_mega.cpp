// The xq_hal of the Mega 2560. The chain uses direct port access: a 90-bit scan with
// digitalWrite would take ~1 ms, with sbi/cbi it is a small fraction of that.
#include <Arduino.h>
#include "hal_mega.h"
#include "pins.h"

namespace {

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

uint8_t button(void *, uint8_t side) {
  return digitalRead(side == 0 ? XQ_PIN_BUTTON_RED : XQ_PIN_BUTTON_BLACK) == LOW ? 1 : 0;
}

int16_t rx_byte(void *) { return (int16_t)Serial.read(); }

uint16_t tx_room(void *) {
  int n = Serial.availableForWrite();
  return n > 0 ? (uint16_t)n : 0;
}

void tx_write(void *, const uint8_t *data, uint16_t len) { Serial.write(data, len); }

} // namespace

void hal_mega_begin(void) {
  pinMode(XQ_PIN_PL, OUTPUT);
  pinMode(XQ_PIN_CP, OUTPUT);
  pinMode(XQ_PIN_CE, OUTPUT);
  pinMode(XQ_PIN_Q7, INPUT);
  pinMode(XQ_PIN_BUTTON_RED, INPUT_PULLUP);
  pinMode(XQ_PIN_BUTTON_BLACK, INPUT_PULLUP);
  digitalWrite(XQ_PIN_PL, HIGH);
  digitalWrite(XQ_PIN_CE, HIGH);
  digitalWrite(XQ_PIN_CP, LOW);
  Serial.begin(115200);
}

// No LEDs on this build: LED_FRAME is answered with ACK status 3 (unsupported).
const xq_hal hal_mega = {nullptr, read_raw, button, rx_byte, tx_room, tx_write, nullptr};
