/* term_escape: text from a scenario, a shard folder or a command made safe
 * to print on a terminal. A control character could otherwise move the
 * cursor, clear the screen (ESC [2J), set the window title (ESC ]0;...BEL),
 * rewrite a line (CR, backspace) or hide a message. Each is shown as a
 * visible C-style escape instead: \e \a \b \r \f \v \t \n, \xNN for the
 * other C0 bytes, DEL and bytes that are not valid UTF-8, \u00NN for the C1
 * controls U+0080..U+009F (8-bit CSI and OSC). Backslashes are left as
 * they are. Valid UTF-8 text passes unchanged. */
#ifndef BENCHGRID_TERM_ESCAPE_H
#define BENCHGRID_TERM_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/* LF and TAB pass as they are (a multi-line message); without it they are
 * escaped too (a one-line label). */
#define TERM_KEEP_LINES 1u

/* Write s (NULL: nothing) to f, escaped. */
void term_fput(FILE *f, const char *s, unsigned flags);
/* s escaped into buf, cut at a whole character or escape when it does not
 * fit; returns buf. len must be > 0. */
const char *term_escape(char *buf, size_t len, const char *s, unsigned flags);
/* term_escape into a local array, one line: printf("%s", TERM_ESC(b, s)). */
#define TERM_ESC(buf, s) term_escape((buf), sizeof(buf), (s), 0)

#endif
