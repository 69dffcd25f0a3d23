// WS2812 (NeoPixel) bit timing at 16 MHz, cycle-counted: 20 cycles (1.25 us) a bit, a 0 high for
// 6 cycles (375 ns), a 1 high for 13 (812 ns). The data pin is a whole-port `out` of precomputed
// values (one cycle, so both bit paths have equal length); the caller keeps interrupts off so
// nothing else writes the port meanwhile.
#ifndef XQBOARD_WS2812_H
#define XQBOARD_WS2812_H
#include <avr/io.h>
#include <stdint.h>

#if F_CPU != 16000000L
#error "ws2812_led() is cycle-counted for 16 MHz"
#endif

// One LED: 3 bytes from `p`, most significant bit first. `hi`/`lo`: the port with the data pin
// set/clear. Returns with the line low; the caller may take a few microseconds before the next
// LED (the low time of the last bit stretches; a WS2812 latches only after >= 50 us low).
// Cycle counts in the comments are at the end of each instruction, from the rising edge.
static inline __attribute__((always_inline)) void ws2812_led(const uint8_t *p, uint8_t hi, uint8_t lo) {
  uint8_t byte, bits, nbytes, nxt;
  asm volatile(
      "ld   %[byte], %a[p]+   \n\t"
      "ldi  %[bits], 8        \n\t"
      "ldi  %[nbytes], 3      \n\t"
      "mov  %[nxt], %[lo]     \n\t"
      "1:                     \n\t"
      "out  %[port], %[hi]    \n\t" //  0  rising edge
      "sbrc %[byte], 7        \n\t" //     a 1: stay high at 6
      "mov  %[nxt], %[hi]     \n\t" //  2
      "lsl  %[byte]           \n\t" //  3
      "dec  %[bits]           \n\t" //  4
      "nop                    \n\t" //  5
      "out  %[port], %[nxt]   \n\t" //  6  a 0 falls
      "mov  %[nxt], %[lo]     \n\t" //  7
      "breq 2f                \n\t" //  8  (9 when the byte is done)
      "nop \n\t nop \n\t nop \n\t nop \n\t" // 12
      "out  %[port], %[lo]    \n\t" // 13  a 1 falls
      "nop \n\t nop \n\t nop \n\t nop \n\t" // 17
      "rjmp 1b                \n\t" // 19  -> next rising edge at 20
      "2:                     \n\t" //  9
      "ldi  %[bits], 8        \n\t" // 10
      "nop \n\t nop           \n\t" // 12
      "out  %[port], %[lo]    \n\t" // 13  a 1 falls
      "dec  %[nbytes]         \n\t" // 14
      "breq 3f                \n\t" // 15
      "ld   %[byte], %a[p]+   \n\t" // 17
      "rjmp 1b                \n\t" // 19  -> next rising edge at 20
      "3:                     \n\t"
      : [byte] "=&r"(byte), [bits] "=&d"(bits), [nbytes] "=&d"(nbytes), [nxt] "=&r"(nxt), [p] "+e"(p)
      : [port] "I"(_SFR_IO_ADDR(PORTA)), [hi] "r"(hi), [lo] "r"(lo));
}

#endif
