// Pin map of the xqboard Mega 2560 build (see ../WIRING.md). The four chain pins and the LED data
// pin sit on port A and the two buttons on port E, so the simavr harness can find them by port
// and bit.
#ifndef XQBOARD_PINS_H
#define XQBOARD_PINS_H

#define XQ_PIN_PL 22 // PA0: 74HC165 /PL (parallel load, active low)
#define XQ_PIN_CP 23 // PA1: 74HC165 CP (clock, rising edge shifts)
#define XQ_PIN_CE 24 // PA2: 74HC165 /CE (clock enable, active low)
#define XQ_PIN_Q7 25 // PA3: Q7 of the first chip in the chain
#define XQ_PIN_LED 26 // PA4: WS2812 data in of LED 0 (under a0); ws2812.h writes port A
#define XQ_LED_PORT_BIT 4
#define XQ_PIN_BUTTON_RED 2   // PE4, to GND when pressed (internal pull-up)
#define XQ_PIN_BUTTON_BLACK 3 // PE5, to GND when pressed (internal pull-up)

// Diode matrix build (XQ_MATRIX=1) instead of the chain: rows are ranks 0..9, driven low one at a
// time (the others high); columns are files a..i, inputs with pull-ups, read low through a closed
// switch and its diode. Columns A0..A7 = PF0..PF7 and A8 = PK0: read as two port reads.
#define XQ_MATRIX_ROW_PINS {30, 31, 32, 33, 34, 35, 36, 37, 38, 39} // PC7..PC0, PD7, PG2
#define XQ_MATRIX_COL_PINS {A0, A1, A2, A3, A4, A5, A6, A7, A8}     // PF0..PF7, PK0
#define XQ_MATRIX_SETTLE_US 20 // after a row goes low: the pull-ups charge the column wires

#endif
