/* diag: diagnostics that point back into the scenario.
 *
 * Every problem is collected into a diag list instead of being fatal at once,
 * so one `benchgrid check` reports every error in a file. Each entry carries a
 * source position (file, 1-based line and column); diag_print() writes
 *   FILE:LINE:COL: error: MESSAGE
 *     the source line
 *        ^
 * Only main.c decides the exit status; modules just fill the list. */
#ifndef BENCHGRID_DIAG_H
#define BENCHGRID_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>

/* A position in a scenario file. `file` points into a string interned by
 * diag_intern() so positions can be copied freely and outlive the tree. */
struct src_pos {
	const char *file;
	int line; /* 1-based; 0 = no position */
	int col;  /* 1-based */
};

enum diag_level { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE };

struct diag_entry {
	enum diag_level level;
	struct src_pos pos;
	char *msg;
};

struct diag {
	struct diag_entry *v;
	size_t n, cap;
	size_t nerrors;
};

void diag_init(struct diag *d);
void diag_free(struct diag *d);

/* Append an entry; pos may be NULL for problems without a place. */
void diag_add(struct diag *d, enum diag_level lvl, const struct src_pos *pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void diag_vadd(struct diag *d, enum diag_level lvl, const struct src_pos *pos, const char *fmt, va_list ap);
#define diag_error(d, pos, ...) diag_add((d), DIAG_ERROR, (pos), __VA_ARGS__)
#define diag_warn(d, pos, ...)  diag_add((d), DIAG_WARNING, (pos), __VA_ARGS__)

/* Is there an error at exactly p already? A rule between values skips a
 * value whose own check failed, so one value gets one error. */
bool diag_error_at(const struct diag *d, const struct src_pos *p);

/* Move all entries of src to the end of dst (src is left empty). */
void diag_move(struct diag *dst, struct diag *src);

/* Print every entry with the source line and a caret. Source lines are
 * quoted only from texts registered with diag_register_source (scenarios);
 * a position in any other file prints no content of it. */
void diag_print(const struct diag *d, FILE *out);

/* Format one entry's message as "FILE:LINE:COL: error: MESSAGE" into buf. */
void diag_format_one(const struct diag_entry *e, char *buf, size_t len);

/* "file:line:col: " of p into buf, or "" when p has no position; returns
 * buf (for run-time messages about an option, outside a diag). */
const char *src_pos_prefix(const struct src_pos *p, char *buf, size_t len);

/* Intern a file name for use in src_pos (lives until program exit). */
const char *diag_intern(const char *file);

/* A file read because another one includes it: a new name (not the one
 * diag_intern gives, even for the same path) that remembers where it was
 * included from, so that diag_print follows each diagnostic in it with
 *   included from main.yaml:3:5
 * lines, one per level. The same file included twice gets two names. */
const char *diag_intern_included(const char *file, const struct src_pos *from);
/* Where the file named by `file` (that very pointer) was included from, or
 * NULL for a file nobody included. */
const struct src_pos *diag_included_from(const char *file);

/* Register the text of a scenario file: its lines are quoted under
 * diagnostics (the loader registers each scenario it reads). Register only
 * scenarios, never another file a scenario names (hooks_file, scripts): a
 * scenario run as root must not print, say, /etc/shadow's first line. */
void diag_register_source(const char *file, const char *text, size_t len);
/* Line `line` (1-based) of a registered text into buf (cut to len - 1
 * bytes); false when file was not registered or has no such line. The one
 * way to look at a file's line for a position: a Lua chunk named
 * "@/some/path" must not make benchgrid open that path. */
bool diag_source_line(const char *file, int line, char *buf, size_t len);

#endif
