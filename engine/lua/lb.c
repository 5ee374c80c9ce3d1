/* lb: the Lua state's life cycle and the loading of hooks (see lb.h).
 *
 * Hooks blocks are compiled with leading newlines so that Lua's line
 * numbers are the YAML file's. */
#include "lb.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lb_sandbox.h"
#include "lb_state.h"

#define LB_MEM_LIMIT ((size_t)512 << 20)

struct lb *lb_new(const char *scenario_file, double budget_s, struct diag *d)
{
	struct lb *B = calloc(1, sizeof(*B));
	if (!B) {
		diag_error(d, NULL, "out of memory");
		return NULL;
	}
	B->file = strdup(scenario_file ? scenario_file : "(scenario)");
	const char *slash = scenario_file ? strrchr(scenario_file, '/') : NULL;
	B->dir = slash ? strndup(scenario_file, slash == scenario_file ? 1 : (size_t)(slash - scenario_file))
	               : strdup(".");
	/* The scenario's name until lb_setup() gives the real one: the file's
	 * base name without its extension. */
	const char *base = slash ? slash + 1 : B->file;
	const char *dot = strrchr(base, '.');
	B->name = dot && dot != base ? strndup(base, (size_t)(dot - base)) : strdup(base);
	B->budget = budget_s > 0 ? budget_s : LB_DEFAULT_BUDGET;
	B->mem_limit = LB_MEM_LIMIT;
	B->S = lua_newstate(lb_alloc, B);
	if (!B->S || !B->file || !B->dir || !B->name) {
		diag_error(d, NULL, "cannot create the Lua state: out of memory");
		lb_free(B);
		return NULL;
	}
	*(struct lb **)lua_getextraspace(B->S) = B;
	lb_sandbox_open(B);
	return B;
}

void lb_free(struct lb *B)
{
	if (!B)
		return;
	if (B->S)
		lua_close(B->S);
	free(B->file);
	free(B->dir);
	free(B->err_trace);
	free(B->skip_reason);
	free(B->name);
	free(B);
}

void lb_set_budget(struct lb *B, double budget_s)
{
	if (budget_s > 0)
		B->budget = budget_s;
}

void lb_set_stop(struct lb *B, volatile sig_atomic_t *flag)
{
	B->stop = flag;
}

void lb_set_log(struct lb *B, lb_log_fn fn, void *ud)
{
	B->log = fn;
	B->log_ud = ud;
}

/* Compile and run a user chunk named after `file` whose line 1 is the file's
 * line `first`. */
static int lb_run_chunk(struct lb *B, const char *file, int first, const char *src, size_t len,
                        const char *what, const struct src_pos *at, struct diag *d)
{
	lua_State *S = B->S;
	size_t pad = first > 1 ? (size_t)first - 1 : 0;
	char *text = malloc(pad + len + 1);
	if (!text) {
		diag_error(d, at, "out of memory");
		return -ENOMEM;
	}
	memset(text, '\n', pad);
	memcpy(text + pad, src, len);
	text[pad + len] = 0;
	char cname[1024];
	snprintf(cname, sizeof(cname), "@%s", file);
	int rc = luaL_loadbufferx(S, text, pad + len, cname, "t");
	free(text);
	if (rc != LUA_OK) {
		/* Syntax errors carry "file:LINE:" in the message. */
		const char *msg = lua_tostring(S, -1);
		struct src_pos p = at ? *at : (struct src_pos){0};
		const char *q = msg ? lb_strip_where(msg) : "";
		if (msg && q != msg) {
			const char *colon = q - 2;
			while (colon > msg && colon[-1] >= '0' && colon[-1] <= '9')
				colon--;
			p.file = diag_intern(file);
			p.line = atoi(colon);
			/* "near <eof>" is reported on the line after the last. */
			int last = first;
			for (size_t i = 0; i + 1 < len; i++)
				last += src[i] == '\n';
			if (p.line > last)
				p.line = last;
			p.col = lb_line_indent(file, p.line, NULL, 0);
		}
		/* A hooks_file may be any file (run as root: /etc/shadow): show none
		 * of its content, not even the token Lua quotes ("near 'x'"). */
		const char *near = strcmp(what, "hooks_file") == 0 ? strstr(q, " near ") : NULL;
		diag_error(d, &p, "%s: Lua syntax error: %.*s%s", what,
		           near ? (int)(near - q) : (int)strlen(q), q,
		           near ? " (the file's text is not shown: it is not a scenario)" : "");
		lua_pop(S, 1);
		return -EINVAL;
	}
	return lb_pcall(B, 0, 0, what, at, d);
}

/* The YAML line of a hooks scalar's first content line: its position is the
 * `|` indicator for a block scalar, whose content starts on the next line. */
static int lb_block_first_line(const struct node *n)
{
	char c;
	lb_line_indent(n->pos.file, n->pos.line, &c, n->pos.col);
	if (c == '|' || c == '>')
		return n->pos.line + 1;
	if (c == 0 && strchr(n->text, '\n')) /* source not readable: a block if multi-line */
		return n->pos.line + 1;
	return n->pos.line;
}

int lb_load_hooks(struct lb *B, const struct node *hooks, const char *hooks_file, const struct src_pos *at,
                  struct diag *d)
{
	int rc = 0;
	if (hooks_file && *hooks_file) {
		char path[4096];
		if (hooks_file[0] == '/')
			snprintf(path, sizeof(path), "%s", hooks_file);
		else
			snprintf(path, sizeof(path), "%s/%s", B->dir, hooks_file);
		size_t len;
		char err[sizeof(path) + 512];
		char *src = lb_read_file(path, &len, err, sizeof(err));
		if (!src) {
			int e = errno ? errno : EIO;
			diag_error(d, at, "hooks_file: %s", err);
			return -e;
		}
		/* not registered with diag: only scenario lines are quoted */
		rc = lb_run_chunk(B, path, 1, src, len, "hooks_file", at, d);
		free(src);
		if (rc < 0)
			return rc;
	}
	if (hooks && hooks->kind != NODE_NULL) {
		if (hooks->kind != NODE_SCALAR) {
			diag_error(d, &hooks->pos,
			           "hooks: expected Lua code (a literal block: `hooks: |`), found %s",
			           node_kind_name(hooks->kind));
			return -EINVAL;
		}
		const char *file = hooks->pos.file ? hooks->pos.file : B->file;
		rc = lb_run_chunk(B, file, lb_block_first_line(hooks), hooks->text, strlen(hooks->text),
		                  "hooks", &hooks->pos, d);
	}
	return rc;
}

bool lb_has_hook(struct lb *B, const char *name)
{
	lua_State *S = B->S;
	lua_pushglobaltable(S);
	lua_pushstring(S, name);
	bool fn = lua_rawget(S, -2) == LUA_TFUNCTION;
	lua_pop(S, 2);
	return fn;
}

int lb_run_string(struct lb *B, const char *name, const char *src, struct diag *d)
{
	struct src_pos at = {diag_intern(name), 1, 1};
	return lb_run_chunk(B, name, 1, src, strlen(src), "lua", &at, d);
}
