/* node: the scenario as a typed tree with positions.
 *
 * spec_load() turns YAML (via libyaml) into this tree. Every node remembers
 * where it came from (struct src_pos), so that errors found at check time or
 * at run time point to file:line:col of the scenario.
 *
 * Scalars keep their text as written; the consumer decides the type
 * (node_as_size, node_as_duration, ...), so `4k` can be a size in one place
 * and a PostgreSQL setting (text) in another. `quoted` tells whether the
 * scalar was quoted in YAML: quoted scalars are always strings in `plan`. */
#ifndef BENCHGRID_NODE_H
#define BENCHGRID_NODE_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include "diag.h"

enum node_kind { NODE_NULL, NODE_SCALAR, NODE_SEQ, NODE_MAP };

struct node {
	enum node_kind kind;
	struct src_pos pos;
	char *tag;            /* explicit YAML tag such as "!lua", or NULL */
	char *text;           /* NODE_SCALAR: the text as written ("" for NULL) */
	bool quoted;          /* scalar was single- or double-quoted or a block scalar */
	size_t n;             /* NODE_SEQ: items; NODE_MAP: pairs */
	size_t cap;           /* room in items (and keys, kpos) */
	struct node **items;  /* NODE_SEQ items; NODE_MAP values */
	char **keys;          /* NODE_MAP keys (n of them) */
	struct src_pos *kpos; /* NODE_MAP key positions */
};

/* Construction (used by the loader and by interpolation). */
struct node *node_new(enum node_kind kind, const struct src_pos *pos);
struct node *node_new_scalar(const char *text, const struct src_pos *pos);
void node_seq_push(struct node *seq, struct node *item);
void node_map_put(struct node *map, const char *key, const struct src_pos *kpos, struct node *val);
struct node *node_clone(const struct node *n);
void node_free(struct node *n);

/* Look-ups. node_get returns NULL when map is NULL, not a map, or lacks key. */
const struct node *node_get(const struct node *map, const char *key);
const struct src_pos *node_key_pos(const struct node *map, const char *key);
const char *node_kind_name(enum node_kind k);

/* Typed reads. Each returns 0 on success; on failure it adds an error at the
 * node's position to d (what was expected and what was found) and returns
 * -EINVAL. `what` names the option in messages, e.g. "io.bs". */
int node_as_string(const struct node *n, const char *what, const char **out, struct diag *d);
int node_as_bool(const struct node *n, const char *what, bool *out, struct diag *d);
int node_as_int(const struct node *n, const char *what, int64_t min, int64_t max, int64_t *out,
                struct diag *d);
int node_as_double(const struct node *n, const char *what, double *out, struct diag *d);
/* Sizes in bytes (binary units); must be > 0 unless allow_zero. */
int node_as_size(const struct node *n, const char *what, bool allow_zero, uint64_t *out, struct diag *d);
/* Durations in seconds (bare number = seconds); must be > 0 unless allow_zero. */
int node_as_duration(const struct node *n, const char *what, bool allow_zero, double *out, struct diag *d);
/* One of the NULL-terminated `names`; error lists the choices. */
int node_as_enum(const struct node *n, const char *what, const char *const *names, int *out, struct diag *d);

/* Report every key of `map` not in the NULL-terminated `known` list, with a
 * "did you mean" suggestion when a known key is close. `section` names the
 * map in messages ("io", "target"). Also errors when map is not a map.
 * Returns 0 when all keys are known. */
int node_check_keys(const struct node *map, const char *section, const char *const *known, struct diag *d);

/* Hash and equality of trees, ignoring positions. */
uint64_t node_hash(const struct node *n);
bool node_equal(const struct node *a, const struct node *b);

/* The closest of `cands` to `word` (edit distance <= 2 or a prefix), or NULL. */
const char *node_suggest(const char *word, const char *const *cands);

#endif
