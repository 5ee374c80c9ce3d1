/* tail: the last lines of a text or a file, for error messages (a server
 * log, a command's stderr). */
#ifndef BENCHGRID_TAIL_H
#define BENCHGRID_TAIL_H

#include <stddef.h>
#include <sys/types.h>

/* The last `max` bytes of text, starting at a line boundary when possible.
 * Points into text; "" when text is NULL. */
const char *tail_text(const char *text, size_t len, size_t max);

/* The last `lines` lines of the file written after offset `since` (0: the
 * whole file), reading at most `max_bytes` from its end; trailing newlines
 * dropped. Returns a malloc'd string, or NULL when the file cannot be read
 * or has nothing after `since`. */
char *tail_file(const char *path, off_t since, int lines, size_t max_bytes);

/* A copy of text with `prefix` before every line (to indent a log excerpt
 * under an error message). malloc'd; NULL when text is NULL. */
char *tail_indent(const char *text, const char *prefix);

#endif
