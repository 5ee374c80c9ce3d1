/* io_pattern: the verify pattern of the io step (see io_pattern.h).
 *
 * Block layout: magic, offset, seed, checksum (4 x 8 bytes, little endian
 * as the machine writes it), then words derived from (seed, offset, index).
 * The checksum covers everything after the header, so a block that was torn,
 * stale, zeroed or written to the wrong place is caught. */
#include "io_pattern.h"

#include <errno.h>
#include <string.h>

#define IO_PATTERN_MAGIC 0x6267696f76657269ull /* "bgioveri" */

static inline uint64_t io_mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

static uint64_t io_checksum(const unsigned char *p, uint64_t len)
{
	uint64_t h = 0x243f6a8885a308d3ull ^ len, w;
	uint64_t i = 0;
	for (; i + 8 <= len; i += 8) {
		memcpy(&w, p + i, 8);
		h = (h ^ io_mix64(w + i)) * 0x100000001b3ull;
	}
	for (; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return io_mix64(h);
}

void io_pattern_fill(void *buf, uint64_t len, uint64_t off, uint64_t seed)
{
	unsigned char *p = buf;
	uint64_t base = io_mix64(seed ^ io_mix64(off + 0x9e3779b97f4a7c15ull));
	uint64_t i = 32;
	for (; i + 8 <= len; i += 8) {
		uint64_t w = io_mix64(base + i);
		memcpy(p + i, &w, 8);
	}
	for (; i < len; i++)
		p[i] = (unsigned char)(base >> (i % 8 * 8));
	uint64_t hdr[4] = {IO_PATTERN_MAGIC, off, seed, io_checksum(p + 32, len - 32)};
	memcpy(p, hdr, sizeof(hdr));
}

int io_pattern_check(const void *buf, uint64_t len, uint64_t off, uint64_t seed)
{
	const unsigned char *p = buf;
	uint64_t hdr[4];
	if (len < IO_PATTERN_MIN)
		return -EILSEQ;
	memcpy(hdr, p, sizeof(hdr));
	if (hdr[0] != IO_PATTERN_MAGIC || hdr[1] != off || hdr[2] != seed)
		return -EILSEQ;
	return hdr[3] == io_checksum(p + 32, len - 32) ? 0 : -EILSEQ;
}
