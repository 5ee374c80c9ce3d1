/* io_pattern: the verify pattern of the io step. */
#ifndef BENCHGRID_IO_PATTERN_H
#define BENCHGRID_IO_PATTERN_H

#include <stdint.h>

/* The verify pattern. A block at file offset `off` holds a 32-byte header
 * (magic, offset, seed, checksum of the rest) followed by words derived from
 * (seed, offset); so the content of an offset is the same however often it
 * is written. len >= IO_PATTERN_MIN. */
#define IO_PATTERN_MIN 64
void io_pattern_fill(void *buf, uint64_t len, uint64_t off, uint64_t seed);
/* 0 when the block is intact, -EILSEQ otherwise. */
int io_pattern_check(const void *buf, uint64_t len, uint64_t off, uint64_t seed);

#endif
