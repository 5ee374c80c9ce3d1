/* spec_include: `include:` of scenario files (see spec_include.h). */
#include "spec_include.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safe_file.h"
#include "spec_load.h"
#include "spec_merge.h"

struct file_id {
	dev_t dev;
	ino_t ino;
};

struct includer {
	struct diag *d;
	struct spec_budget budget;
	struct file_id *seen; /* the distinct files read */
	size_t nseen;
	/* The files being read, outermost first: for cycles. */
	struct file_id stack[SPEC_MAX_INCLUDE_DEPTH + 1];
	const char *names[SPEC_MAX_INCLUDE_DEPTH + 1];
	int depth;
};

static bool same_file(struct file_id a, struct file_id b)
{
	return a.dev == b.dev && a.ino == b.ino;
}

/* Remember a file read; true when it was not read before. */
static bool first_read(struct includer *I, struct file_id id)
{
	for (size_t i = 0; i < I->nseen; i++)
		if (same_file(I->seen[i], id))
			return false;
	struct file_id *v = realloc(I->seen, (I->nseen + 1) * sizeof(*v));
	if (v) {
		I->seen = v;
		I->seen[I->nseen++] = id;
	}
	return true;
}

/* An error at `at` when file `id` is already being read: the chain. */
static bool is_cycle(struct includer *I, struct file_id id, const char *path, const struct src_pos *at)
{
	for (int i = 0; i < I->depth; i++) {
		if (!same_file(I->stack[i], id))
			continue;
		char chain[2048] = "";
		for (int j = i; j < I->depth; j++) {
			strncat(chain, I->names[j], sizeof(chain) - strlen(chain) - 1);
			strncat(chain, " -> ", sizeof(chain) - strlen(chain) - 1);
		}
		strncat(chain, path, sizeof(chain) - strlen(chain) - 1);
		diag_error(I->d, at, "include cycle: %s", chain);
		return true;
	}
	return false;
}

/* The path of `name` as written in a file at `parent`: relative to its folder. */
static char *include_path(const char *parent, const char *name)
{
	const char *slash = strrchr(parent, '/');
	char *out = NULL;
	if (name[0] == '/' || !slash)
		return strdup(name);
	if (asprintf(&out, "%.*s/%s", (int)(slash - parent), parent, name) < 0)
		return NULL;
	return out;
}

/* The names under `include:`: a text or a list of texts, as written. */
static int include_names(struct includer *I, const struct node *inc, const struct node ***names, size_t *n)
{
	*n = 0;
	*names = NULL;
	if (inc->kind == NODE_NULL)
		return 0;
	size_t count = inc->kind == NODE_SEQ ? inc->n : 1;
	*names = calloc(count ? count : 1, sizeof(**names));
	for (size_t i = 0; i < count; i++) {
		const struct node *v = inc->kind == NODE_SEQ ? inc->items[i] : inc;
		if (v->kind != NODE_SCALAR || v->tag || !v->text[0]) {
			diag_error(I->d, &v->pos,
			           "include: expected a file name or a list of file names (taken as "
			           "written, relative to this file), found %s",
			           v->kind != NODE_SCALAR ? node_kind_name(v->kind)
			           : v->tag               ? v->tag
			                                  : "an empty text");
			free(*names);
			*names = NULL;
			return -EINVAL;
		}
		(*names)[(*n)++] = v;
	}
	return 0;
}

static struct node *load_resolved(struct includer *I, const char *path, const char *file,
                                  const struct src_pos *at, bool *again);

/* One file of `include:`, with its own includes resolved; a file read
 * before is a copy, taken from the budget. NULL after an error. */
static struct node *load_include(struct includer *I, const char *parent, const struct node *name)
{
	char *path = include_path(parent, name->text);
	if (!path)
		return NULL;
	const char *file = diag_intern_included(path, &name->pos);
	bool again = false;
	struct node *child = load_resolved(I, path, file, &name->pos, &again);
	int depth;
	if (child && again && !spec_budget_take(&I->budget, spec_node_cost(child, &depth))) {
		diag_error(I->d, &name->pos,
		           "include '%s' goes over the limit of what aliases, merge keys and includes "
		           "may copy: %zu bytes in all (%d times the size of the files read, at least "
		           "%d MiB); is it an include bomb?",
		           name->text, I->budget.allowed, SPEC_ALIAS_FACTOR, SPEC_ALIAS_MIN >> 20);
		node_free(child);
		child = NULL;
	}
	free(path);
	return child;
}

/* Remove key i of map m. */
static void map_drop(struct node *m, size_t i)
{
	node_free(m->items[i]);
	free(m->keys[i]);
	size_t after = m->n - i - 1;
	memmove(&m->items[i], &m->items[i + 1], after * sizeof(*m->items));
	memmove(&m->keys[i], &m->keys[i + 1], after * sizeof(*m->keys));
	memmove(&m->kpos[i], &m->kpos[i + 1], after * sizeof(*m->kpos));
	m->n--;
}

/* Drop `include:` from root, reading each file it names and merging them,
 * then root, into one tree; returns it (root when nothing was included),
 * or NULL after an error (root is freed): an include that failed would
 * only make more errors of what it lacks. */
static struct node *resolve_includes(struct includer *I, const char *path, struct node *root)
{
	size_t at = root->n;
	for (size_t i = 0; i < root->n; i++)
		if (!strcmp(root->keys[i], "include"))
			at = i;
	if (at == root->n)
		return root;
	const struct node **names;
	size_t n;
	struct node *merged = NULL;
	bool ok = include_names(I, root->items[at], &names, &n) == 0;
	for (size_t i = 0; ok && i < n; i++) {
		struct node *child = load_include(I, path, names[i]);
		ok = child != NULL;
		if (child && merged)
			ok = spec_merge(merged, child, I->d) == 0;
		else if (child)
			merged = child;
	}
	free(names);
	map_drop(root, at);
	if (!ok) {
		node_free(root);
		node_free(merged);
		return NULL;
	}
	if (!merged)
		return root;
	if (spec_merge(merged, root, I->d) < 0) {
		node_free(merged);
		return NULL;
	}
	return merged;
}

/* Open an included file under safe_file's rules (no link, a regular file
 * of a real file system, readable by everyone): what a scenario includes
 * must not let it show a private file's lines, or the kernel's, in its
 * errors. The scenario itself is the user's: spec_open_text. */
static int open_included(struct includer *I, const char *path, const struct src_pos *at, struct stat *st)
{
	char err[PATH_MAX + 512];
	int fd = safe_file_open(path, 0, st, err, sizeof(err));
	if (fd < 0)
		diag_error(I->d, at, "included file: %s", err);
	return fd;
}

/* Read one file (the scenario when at has no line, else an included one)
 * and resolve its includes; *again tells that it was read before. The
 * file is opened once: what is checked is what is read. */
static struct node *load_resolved(struct includer *I, const char *path, const char *file,
                                  const struct src_pos *at, bool *again)
{
	bool included = at->line > 0;
	struct stat st;
	int fd = included ? open_included(I, path, at, &st) : spec_open_text(path, at, "scenario", &st, I->d);
	if (fd < 0)
		return NULL;
	struct file_id id = {st.st_dev, st.st_ino};
	if (is_cycle(I, id, path, at)) {
		close(fd);
		return NULL;
	}
	if (I->depth > SPEC_MAX_INCLUDE_DEPTH) { /* the scenario is level 0 */
		diag_error(I->d, at, "include: files are included more than %d levels deep",
		           SPEC_MAX_INCLUDE_DEPTH);
		close(fd);
		return NULL;
	}
	size_t len;
	char *text = spec_read_fd(fd, path, at, included ? "included file" : "scenario", &len, I->d);
	if (!text)
		return NULL;
	bool first = first_read(I, id);
	*again = !first;
	struct node *root = spec_load_text(file, text, len, &I->budget, first, I->d);
	free(text);
	if (!root || root->kind != NODE_MAP) {
		if (root && included) {
			diag_error(I->d, &root->pos,
			           "an included file must be a map of sections (vars:, postgres:, ...), "
			           "found %s",
			           node_kind_name(root->kind));
			node_free(root);
			return NULL;
		}
		return root;
	}
	I->stack[I->depth] = id;
	I->names[I->depth] = path;
	I->depth++;
	root = resolve_includes(I, path, root);
	I->depth--;
	return root;
}

struct node *spec_load_scenario(const char *path, struct diag *d)
{
	struct includer I = {.d = d};
	const char *file = diag_intern(path);
	struct src_pos at = {file, 0, 0};
	bool again;
	struct node *root = load_resolved(&I, path, file, &at, &again);
	free(I.seen);
	return root;
}
