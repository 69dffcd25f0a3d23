// Pin map of the xqboard Mega 2560 build (see ../WIRING.md). The four chain pins sit on port A
// and the two buttons on port E, so the simavr harness can find them by port and bit.
#ifndef XQBOARD_PINS_H
#define XQBOARD_PINS_H

#define XQ_PIN_PL 22 // PA0: 74HC165 /PL (parallel load, active low)
#define XQ_PIN_CP 23 // PA1: 74HC165 CP (clock, rising edge shifts)
#define XQ_PIN_CE 24 // PA2: 74HC165 /CE (clock enable, active low)
#define XQ_PIN_Q7 25 // PA3: Q7 of the first chip in the chain
#define XQ_PIN_BUTTON_RED 2   // PE4, to GND when pressed (internal pull-up)
#define XQ_PIN_BUTTON_BLACK 3 // PE5, to GND when pressed (internal pull-up)

#endif
