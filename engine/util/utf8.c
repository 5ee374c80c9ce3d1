/* utf8: see utf8.h. */
#include "utf8.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static bool control_refused(unsigned char c, unsigned flags)
{
	if (!(flags & UTF8_NO_CONTROLS))
		return false;
	if (c == '\r')
		return flags & UTF8_NO_CR;
	return (c < 0x20 && c != '\t' && c != '\n') || c == 0x7f;
}

size_t utf8_char_len(const char *s, size_t n, unsigned flags)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len;
	uint32_t cp, min;
	if (u[0] >= 0x01 && u[0] < 0x80)
		return control_refused(u[0], flags) ? 0 : 1;
	if ((u[0] & 0xe0) == 0xc0)
		len = 2, cp = u[0] & 0x1f, min = 0x80;
	else if ((u[0] & 0xf0) == 0xe0)
		len = 3, cp = u[0] & 0x0f, min = 0x800;
	else if ((u[0] & 0xf8) == 0xf0)
		len = 4, cp = u[0] & 0x07, min = 0x10000;
	else
		return 0; /* NUL, a continuation byte or 0xf8..0xff */
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (u[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

bool utf8_is_clean(const char *s, size_t n, unsigned flags)
{
	for (size_t i = 0; i < n;) {
		size_t k = utf8_char_len(s + i, n - i, flags);
		if (!k)
			return false;
		i += k;
	}
	return true;
}

char *utf8_clean(const char *s, size_t n, unsigned flags, size_t *outlen)
{
	if (n > (SIZE_MAX - 1) / 3)
		return NULL;
	char *buf = malloc(n * 3 + 1); /* each replaced byte grows to 3 */
	if (!buf)
		return NULL;
	size_t o = 0;
	for (size_t i = 0; i < n;) {
		size_t k = utf8_char_len(s + i, n - i, flags);
		if (k) {
			memcpy(buf + o, s + i, k);
			o += k;
			i += k;
		} else {
			memcpy(buf + o, UTF8_REPLACEMENT, 3);
			o += 3;
			i++;
		}
	}
	buf[o] = '\0';
	if (outlen)
		*outlen = o;
	return buf;
}

void utf8_fput(FILE *f, const char *s, size_t n, unsigned flags)
{
	if (!n)
		return;
	size_t start = 0; /* the clean run not yet written */
	for (size_t i = 0; i < n;) {
		size_t k = utf8_char_len(s + i, n - i, flags);
		if (k) {
			i += k;
			continue;
		}
		fwrite(s + start, 1, i - start, f);
		fputs(UTF8_REPLACEMENT, f);
		start = ++i;
	}
	fwrite(s + start, 1, n - start, f);
}

size_t utf8_sync(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && i < 3 && ((unsigned char)s[i] & 0xc0) == 0x80)
		i++;
	return i;
}
