/* CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, xorout 0. CRC("123456789") = 0x29B1. */
#ifndef XQ_CRC16_H
#define XQ_CRC16_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

#define XQ_CRC16_INIT 0xFFFFu

uint16_t xq_crc16_byte(uint16_t crc, uint8_t byte);
uint16_t xq_crc16(uint16_t crc, const uint8_t *data, uint16_t len);

#ifdef __cplusplus
}
#endif
#endif
