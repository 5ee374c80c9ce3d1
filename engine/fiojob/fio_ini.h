/* fio_ini: fio's job file format: an ini file of [sections], `key=value` or
 * `key` lines, ';' and '#' comments (whole lines, and after a value),
 * `include FILE` (relative to the including file, nested), and ${VAR}
 * expanded from the environment in values (an unset VAR is empty, as in
 * fio). Every option keeps the file and line it was written at. */
#ifndef BENCHGRID_FIO_INI_H
#define BENCHGRID_FIO_INI_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

struct fio_opt {
	char *key;          /* lower case, as fio matches option names */
	char *val;          /* NULL for a bare `key` */
	struct src_pos pos; /* file (interned) and line; col 1 */
};

struct fio_sec {
	char *name;
	bool global;
	struct src_pos pos; /* the [name] line */
	struct fio_opt *opt;
	size_t n, cap;
};

struct fio_ini {
	struct fio_sec *sec;
	size_t n, cap;
};

/* Read a job file. Problems go to d (file:line); returns 0 or -1. */
int fio_ini_read(const char *path, struct fio_ini *ini, struct diag *d);
/* The same from text in memory (`path` names it in positions). */
int fio_ini_read_text(const char *path, const char *text, struct fio_ini *ini, struct diag *d);
void fio_ini_free(struct fio_ini *ini);

#endif
