// The xq_hal of the Mega 2560: 74HC165 chain on fast port I/O, buttons, Serial (UART0).
#ifndef XQBOARD_HAL_MEGA_H
#define XQBOARD_HAL_MEGA_H
#include "../core/xq_board.h"

void hal_mega_begin(void);
extern const xq_hal hal_mega;

#endif
