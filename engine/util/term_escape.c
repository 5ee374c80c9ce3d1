/* term_escape: see term_escape.h. */
#include "term_escape.h"

#include <string.h>

#include "utf8.h"

/* The visible form of the character at s[0..n): its length in *used, the
 * text in out (NUL-terminated); 0 when it passes as it is. */
static size_t escape_at(const char *s, size_t n, unsigned flags, char out[8], size_t *used)
{
	unsigned char c = (unsigned char)s[0];
	size_t len = utf8_char_len(s, n, 0);
	*used = len ? len : 1;
	if (len == 0) { /* not valid UTF-8 (or NUL) */
		snprintf(out, 8, "\\x%02x", c);
		return strlen(out);
	}
	if (len == 2 && c == 0xc2 && (unsigned char)s[1] <= 0x9f) { /* C1 control */
		snprintf(out, 8, "\\u%04x", (unsigned char)s[1]);
		return strlen(out);
	}
	if (len > 1 || (c >= 0x20 && c != 0x7f))
		return 0;
	if ((c == '\n' || c == '\t') && (flags & TERM_KEEP_LINES))
		return 0;
	static const char named[] = {'\a', 'a', '\b', 'b', '\033', 'e', '\r', 'r',
	                             '\f', 'f', '\v', 'v', '\t',   't', '\n', 'n'};
	for (size_t i = 0; i < sizeof(named); i += 2)
		if (c == (unsigned char)named[i]) {
			out[0] = '\\';
			out[1] = named[i + 1];
			out[2] = '\0';
			return 2;
		}
	snprintf(out, 8, "\\x%02x", c);
	return strlen(out);
}

void term_fput(FILE *f, const char *s, unsigned flags)
{
	size_t n = s ? strlen(s) : 0, start = 0;
	for (size_t i = 0; i < n;) {
		char esc[8];
		size_t used, k = escape_at(s + i, n - i, flags, esc, &used);
		if (k) {
			fwrite(s + start, 1, i - start, f);
			fputs(esc, f);
			start = i + used;
		}
		i += used;
	}
	fwrite(s + start, 1, n - start, f);
}

const char *term_escape(char *buf, size_t len, const char *s, unsigned flags)
{
	size_t n = s ? strlen(s) : 0, k = 0;
	for (size_t i = 0; i < n;) {
		char esc[8];
		size_t used, e = escape_at(s + i, n - i, flags, esc, &used);
		const char *piece = e ? esc : s + i;
		size_t plen = e ? e : used;
		if (k + plen >= len)
			break;
		memcpy(buf + k, piece, plen);
		k += plen;
		i += used;
	}
	buf[k] = '\0';
	return buf;
}
