/*
 * Fixed-width integers read from file bytes, whatever the host's byte
 * order or the pointer's alignment: every on-disk format reads its fields
 * through these.
 */
#ifndef PGW_BYTES_H
#define PGW_BYTES_H

#include <stdint.h>

static inline uint16_t pgw_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t pgw_le24(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
}

static inline uint32_t pgw_le32(const uint8_t *p)
{
	return pgw_le24(p) | (uint32_t)p[3] << 24;
}

static inline uint64_t pgw_le64(const uint8_t *p)
{
	return pgw_le32(p) | (uint64_t)pgw_le32(p + 4) << 32;
}

/* A little-endian field of `size` bytes: 2, 4 or 8 (ELF32/ELF64 and
 * kdump's 32-/64-bit layouts differ only in widths). */
static inline uint64_t pgw_le(const uint8_t *p, unsigned size)
{
	return size == 8 ? pgw_le64(p) : size == 4 ? pgw_le32(p) : pgw_le16(p);
}

static inline uint64_t pgw_be64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

#endif
