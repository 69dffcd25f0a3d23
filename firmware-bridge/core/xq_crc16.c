#include "xq_crc16.h"

/* Bitwise on purpose: no 512-byte table in the Mega's RAM, and frames are short. */
uint16_t xq_crc16_byte(uint16_t crc, uint8_t byte) {
  uint8_t i;
  crc ^= (uint16_t)((uint16_t)byte << 8);
  for (i = 0; i < 8; i++) {
    if (crc & 0x8000u) crc = (uint16_t)((crc << 1) ^ 0x1021u);
    else crc = (uint16_t)(crc << 1);
  }
  return crc;
}

uint16_t xq_crc16(uint16_t crc, const uint8_t *data, uint16_t len) {
  uint16_t i;
  for (i = 0; i < len; i++) crc = xq_crc16_byte(crc, data[i]);
  return crc;
}
