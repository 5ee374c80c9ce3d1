/* spec_load: parse YAML (libyaml) into nodes with positions and report every
 * syntax problem (tabs, duplicate keys, non-UTF-8, empty or missing files)
 * into the diag list. NULL when nothing could be loaded.
 *
 * Aliases and YAML merge keys (`<<: *base`, `<<: [*a, *b]`) are expanded
 * while loading, keeping the positions where the merged values were
 * written; keys starting with `x-` are dropped from every map (a place for
 * anchors). `include:` is spec_include.h's: it uses spec_load_text. */
#ifndef BENCHGRID_SPEC_LOAD_H
#define BENCHGRID_SPEC_LOAD_H

#include <stdbool.h>
#include <sys/stat.h>

#include "diag.h"
#include "node.h"

/* Limits of a scenario's YAML (docs/scenario.md, "Limits"): lists and maps
 * nested at most SPEC_MAX_DEPTH levels (aliases included); all aliases,
 * merge keys and repeated includes together may copy at most
 * SPEC_ALIAS_FACTOR times the size of the files read, at least
 * SPEC_ALIAS_MIN bytes, a copy counting its text and keys plus
 * SPEC_NODE_COST bytes per value. */
#define SPEC_MAX_DEPTH    100
#define SPEC_ALIAS_FACTOR 10
#define SPEC_ALIAS_MIN    (1 << 20)
#define SPEC_NODE_COST    32

/* What the files of one scenario (the file and its includes) may copy. */
struct spec_budget {
	size_t text;    /* bytes of the distinct files read */
	size_t used;    /* bytes copied so far */
	size_t allowed; /* SPEC_ALIAS_FACTOR x text, at least SPEC_ALIAS_MIN */
};

/* A file of text was read: the budget grows with it. */
void spec_budget_add_text(struct spec_budget *b, size_t n);
/* Take `bytes` from the budget: true when they fit (and are taken). */
bool spec_budget_take(struct spec_budget *b, size_t bytes);
/* What a copy of n costs; *depth receives its levels of lists and maps. */
size_t spec_node_cost(const struct node *n, int *depth);

struct node *spec_load_file(const char *path, struct diag *d);
struct node *spec_load_string(const char *name, const char *yaml, struct diag *d);

/* Open path once to read it as text (O_NONBLOCK: a FIFO does not block)
 * and fstat it into *st: the descriptor, or -1 with an error at `at` naming
 * it as `what` ("scenario", "included file") when it cannot be opened or is
 * not a regular file (a directory, /dev/zero, a FIFO). */
int spec_open_text(const char *path, const struct src_pos *at, const char *what, struct stat *st,
                   struct diag *d);
/* Read all of fd (and close it) as text (NUL-terminated; *len without the
 * NUL); NULL with an error at `at` when it cannot be read or holds a NUL
 * byte (path names the file in that error). */
char *spec_read_fd(int fd, const char *path, const struct src_pos *at, const char *what, size_t *len,
                   struct diag *d);
/* spec_open_text, then spec_read_fd. */
char *spec_read_text(const char *path, const struct src_pos *at, const char *what, size_t *len,
                     struct diag *d);
/* Parse text of `len` bytes as the file `file` (a name from diag_intern or
 * diag_intern_included: positions keep that pointer), taking what aliases
 * copy from b. The budget grows by the text (spec_budget_add_text) only
 * when `new_text`. */
struct node *spec_load_text(const char *file, const char *text, size_t len, struct spec_budget *b,
                            bool new_text, struct diag *d);

#endif
