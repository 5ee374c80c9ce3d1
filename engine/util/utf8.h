/* utf8: arbitrary bytes as valid UTF-8 text, for every file benchgrid
 * writes (results.json, journal.jsonl, the CSVs, report.md) and for the
 * output of commands it keeps.
 *
 * A byte that does not start a valid character becomes U+FFFD (EF BF BD),
 * one per byte: a stray continuation byte, 0xC0, 0xC1, 0xF5..0xFF, a
 * sequence cut short, an overlong form, an encoded surrogate
 * (U+D800..U+DFFF, as CESU-8 writes them) and a code point above U+10FFFF.
 * NUL becomes U+FFFD too, so the text is a C string that ends where the
 * input ends. With UTF8_NO_CONTROLS the C0 control characters other than
 * TAB, LF and CR, and DEL, become U+FFFD as well (a terminal escape such as
 * ESC [31m shows as "\uFFFD[31m"); UTF8_NO_CR adds CR. */
#ifndef BENCHGRID_UTF8_H
#define BENCHGRID_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define UTF8_NO_CONTROLS 1u /* C0 controls but TAB, LF, CR, and DEL -> U+FFFD */
#define UTF8_NO_CR       2u /* CR -> U+FFFD too (with UTF8_NO_CONTROLS) */

/* The replacement character U+FFFD in UTF-8. */
#define UTF8_REPLACEMENT "\xef\xbf\xbd"

/* Length (1..4) of the character at s[0..n) when it is valid UTF-8, not NUL
 * and allowed by flags; 0 when it is to be replaced. n must be > 0. */
size_t utf8_char_len(const char *s, size_t n, unsigned flags);
/* Is s[0..n) already clean (utf8_clean would return the same bytes)? */
bool utf8_is_clean(const char *s, size_t n, unsigned flags);
/* A clean copy of s[0..n) (s may be NULL when n is 0): malloc'd,
 * NUL-terminated, its length in *outlen when outlen is not NULL. At most
 * 3 * n + 1 bytes. NULL when out of memory. */
char *utf8_clean(const char *s, size_t n, unsigned flags, size_t *outlen);
/* Write the clean form of s[0..n) to f, without a copy. */
void utf8_fput(FILE *f, const char *s, size_t n, unsigned flags);
/* How many bytes (0..3) at s[0..n) continue a character that began before
 * s: skipping them makes a tail cut at an arbitrary byte start at a
 * character. */
size_t utf8_sync(const char *s, size_t n);

#endif
