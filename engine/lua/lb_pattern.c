/* lb_pattern: Lua patterns that obey the time budget (see lb_pattern.h).
 *
 * A backtracking matcher: lm_match() walks the pattern item by item over
 * the subject and recurses only where it must choose (a quantifier, a
 * capture), so its depth follows the pattern, not the subject. */
#include "lb_pattern.h"

#include <ctype.h>
#include <lauxlib.h>
#include <stdbool.h>
#include <string.h>

#include "lb_state.h"

#define LM_MAXCAP   32   /* captures in one pattern, as in Lua */
#define LM_MAXDEPTH 200  /* nested choices; deeper is "pattern too complex" */
#define LM_CHECK    4096 /* steps between two looks at the clock */
#define LM_OPEN     (-1) /* a capture not closed yet */
#define LM_POSITION (-2) /* a position capture: () */

struct lm {
	lua_State *S;
	const char *s0, *se; /* the subject and its end */
	const char *pe;      /* the pattern's end */
	int depth, ncap;
	long left; /* steps before the next budget check */
	struct {
		const char *at;
		ptrdiff_t len; /* or LM_OPEN, LM_POSITION */
	} cap[LM_MAXCAP];
};

static void lm_init(struct lm *m, lua_State *S, const char *s, size_t ls, const char *p, size_t lp)
{
	m->S = S;
	m->s0 = s;
	m->se = s + ls;
	m->pe = p + lp;
	m->depth = m->ncap = 0;
	m->left = LM_CHECK;
	/* A call made once the budget is spent stops at once (the clock is
	 * read only after LM_CHECK steps: short calls stay cheap). */
	const struct lb *B = lb_of(S);
	if (B->running && (B->expired || B->stopped || (B->stop && *B->stop)))
		lb_budget_check(S);
}

static void lm_tick(struct lm *m, long cost)
{
	m->left -= cost;
	if (m->left <= 0) {
		m->left = LM_CHECK;
		lb_budget_check(m->S);
	}
}

/* Does character c belong to class %cl? (An upper-case class letter is the
 * complement; a character that names no class stands for itself.) */
static bool lm_class(int c, int cl)
{
	int r;
	switch (tolower(cl)) {
	case 'a': r = isalpha(c); break;
	case 'c': r = iscntrl(c); break;
	case 'd': r = isdigit(c); break;
	case 'g': r = isgraph(c); break;
	case 'l': r = islower(c); break;
	case 'p': r = ispunct(c); break;
	case 's': r = isspace(c); break;
	case 'u': r = isupper(c); break;
	case 'w': r = isalnum(c); break;
	case 'x': r = isxdigit(c); break;
	default: return cl == c;
	}
	return isupper(cl) ? !r : r != 0;
}

/* One past the single-character item that starts at p (p < pe). */
static const char *lm_item_end(struct lm *m, const char *p)
{
	char c = *p++;
	if (c == '%') {
		if (p >= m->pe)
			luaL_error(m->S, "malformed pattern (ends with '%%')");
		return p + 1;
	}
	if (c != '[')
		return p;
	if (p < m->pe && *p == '^')
		p++;
	/* The first character belongs to the set even when it is ']'. */
	do {
		if (p >= m->pe)
			luaL_error(m->S, "malformed pattern (missing ']')");
		if (*p++ == '%' && p < m->pe)
			p++;
	} while (p >= m->pe || *p != ']');
	return p + 1;
}

/* Does c belong to the set [...] from p (its '[') to close (its ']')? */
static bool lm_set(int c, const char *p, const char *close)
{
	bool in = true;
	if (*++p == '^') {
		in = false;
		p++;
	}
	for (; p < close; p++) {
		if (*p == '%') {
			p++;
			if (lm_class(c, (unsigned char)*p))
				return in;
		} else if (p + 2 < close && p[1] == '-') {
			if ((unsigned char)p[0] <= c && c <= (unsigned char)p[2])
				return in;
			p += 2;
		} else if ((unsigned char)*p == c) {
			return in;
		}
	}
	return !in;
}

/* Does the item p..ep match the character at s? */
static bool lm_single(const struct lm *m, const char *s, const char *p, const char *ep)
{
	if (s >= m->se)
		return false;
	int c = (unsigned char)*s;
	switch (*p) {
	case '.': return true;
	case '%': return lm_class(c, (unsigned char)p[1]);
	case '[': return lm_set(c, p, ep - 1);
	default: return (unsigned char)*p == c;
	}
}

static const char *lm_match(struct lm *m, const char *s, const char *p);

static const char *lm_open(struct lm *m, const char *s, const char *p, ptrdiff_t kind)
{
	if (m->ncap >= LM_MAXCAP)
		luaL_error(m->S, "too many captures");
	m->cap[m->ncap].at = s;
	m->cap[m->ncap].len = kind;
	m->ncap++;
	const char *r = lm_match(m, s, p);
	if (!r)
		m->ncap--;
	return r;
}

static const char *lm_close(struct lm *m, const char *s, const char *p)
{
	int l = m->ncap - 1;
	while (l >= 0 && m->cap[l].len != LM_OPEN)
		l--;
	if (l < 0)
		luaL_error(m->S, "invalid pattern capture");
	m->cap[l].len = s - m->cap[l].at;
	const char *r = lm_match(m, s, p);
	if (!r)
		m->cap[l].len = LM_OPEN;
	return r;
}

/* %bxy at s (p after "%b"): one past the balanced run, or NULL. */
static const char *lm_balance(struct lm *m, const char *s, const char *p)
{
	if (p + 1 >= m->pe)
		luaL_error(m->S, "malformed pattern (missing arguments to '%%b')");
	if (s >= m->se || *s != p[0])
		return NULL;
	long open = 1;
	while (++s < m->se) {
		lm_tick(m, 1);
		if (*s == p[1]) {
			if (--open == 0)
				return s + 1;
		} else if (*s == p[0]) {
			open++;
		}
	}
	return NULL;
}

/* %1-%9 at s: one past the repeated capture, or NULL. */
static const char *lm_backref(struct lm *m, const char *s, int digit)
{
	int l = digit - '1';
	if (l < 0 || l >= m->ncap || m->cap[l].len == LM_OPEN)
		luaL_error(m->S, "invalid capture index %%%d", l + 1);
	ptrdiff_t len = m->cap[l].len;
	if (len < 0 || m->se - s < len || memcmp(m->cap[l].at, s, (size_t)len))
		return NULL;
	lm_tick(m, (long)len);
	return s + len;
}

/* %f[set] at s (p at the '%'): the end of the item, or NULL. */
static const char *lm_frontier(struct lm *m, const char *s, const char *p)
{
	p += 2;
	if (p >= m->pe || *p != '[')
		luaL_error(m->S, "missing '[' after '%%f' in pattern");
	const char *ep = lm_item_end(m, p);
	int prev = s == m->s0 ? 0 : (unsigned char)s[-1];
	int cur = s < m->se ? (unsigned char)*s : 0;
	return !lm_set(prev, p, ep - 1) && lm_set(cur, p, ep - 1) ? ep : NULL;
}

/* Greedy: as many items p..ep from s as match, then give back. */
static const char *lm_max(struct lm *m, const char *s, const char *p, const char *ep)
{
	ptrdiff_t n = 0;
	while (lm_single(m, s + n, p, ep)) {
		n++;
		lm_tick(m, 1);
	}
	for (; n >= 0; n--) {
		const char *r = lm_match(m, s + n, ep + 1);
		if (r)
			return r;
	}
	return NULL;
}

/* Lazy: as few items p..ep from s as let the rest match. */
static const char *lm_min(struct lm *m, const char *s, const char *p, const char *ep)
{
	for (;;) {
		const char *r = lm_match(m, s, ep + 1);
		if (r)
			return r;
		if (!lm_single(m, s, p, ep))
			return NULL;
		s++;
	}
}

/* The special items at *pp: LM_FINAL (the result is *ps), LM_GO_ON (*ps
 * and *pp advanced past a %b, %f or back reference that matched) or
 * LM_SINGLE (a single-character item: nothing done). */
enum { LM_FINAL, LM_GO_ON, LM_SINGLE };

static int lm_special(struct lm *m, const char **ps, const char **pp)
{
	const char *s = *ps, *p = *pp;
	switch (*p) {
	case '(':
		if (p + 1 < m->pe && p[1] == ')')
			*ps = lm_open(m, s, p + 2, LM_POSITION);
		else
			*ps = lm_open(m, s, p + 1, LM_OPEN);
		return LM_FINAL;
	case ')': *ps = lm_close(m, s, p + 1); return LM_FINAL;
	case '$':
		if (p + 1 != m->pe)
			return LM_SINGLE;
		*ps = s == m->se ? s : NULL;
		return LM_FINAL;
	case '%':
		if (p + 1 >= m->pe)
			return LM_SINGLE;
		if (p[1] == 'b') {
			*ps = lm_balance(m, s, p + 2);
			*pp = p + 4;
		} else if (p[1] == 'f') {
			*pp = lm_frontier(m, s, p);
			if (!*pp)
				*ps = NULL;
		} else if (isdigit((unsigned char)p[1])) {
			*ps = lm_backref(m, s, (unsigned char)p[1]);
			*pp = p + 2;
		} else {
			return LM_SINGLE;
		}
		return *ps ? LM_GO_ON : LM_FINAL;
	default: return LM_SINGLE;
	}
}

/* Match pattern p (to pe) at s: one past the match, or NULL. */
static const char *lm_steps(struct lm *m, const char *s, const char *p)
{
	for (;;) {
		lm_tick(m, 1);
		if (p >= m->pe)
			return s;
		int k = lm_special(m, &s, &p);
		if (k == LM_FINAL)
			return s;
		if (k == LM_GO_ON)
			continue;
		const char *ep = lm_item_end(m, p), *r;
		char q = ep < m->pe ? *ep : 0;
		if (!lm_single(m, s, p, ep)) {
			if (q == '*' || q == '?' || q == '-') {
				p = ep + 1;
				continue;
			}
			return NULL;
		}
		switch (q) {
		case '?':
			r = lm_match(m, s + 1, ep + 1);
			if (r)
				return r;
			p = ep + 1;
			continue;
		case '+': return lm_max(m, s + 1, p, ep);
		case '*': return lm_max(m, s, p, ep);
		case '-': return lm_min(m, s, p, ep);
		default: s++; p = ep;
		}
	}
}

static const char *lm_match(struct lm *m, const char *s, const char *p)
{
	if (m->depth >= LM_MAXDEPTH)
		luaL_error(m->S, "pattern too complex");
	m->depth++;
	const char *r = lm_steps(m, s, p);
	m->depth--;
	return r;
}

/* Push capture i; with no captures, capture 0 is the whole match s..e. */
static void lm_push_cap(struct lm *m, int i, const char *s, const char *e)
{
	if (i >= m->ncap) {
		if (i != 0)
			luaL_error(m->S, "invalid capture index %%%d", i + 1);
		lua_pushlstring(m->S, s, (size_t)(e - s));
		return;
	}
	ptrdiff_t len = m->cap[i].len;
	if (len == LM_OPEN)
		luaL_error(m->S, "unfinished capture");
	if (len == LM_POSITION)
		lua_pushinteger(m->S, m->cap[i].at - m->s0 + 1);
	else
		lua_pushlstring(m->S, m->cap[i].at, (size_t)len);
}

/* Push the captures (the whole match when there are none and s is given). */
static int lm_push_caps(struct lm *m, const char *s, const char *e)
{
	int n = m->ncap == 0 && s ? 1 : m->ncap;
	luaL_checkstack(m->S, n, "too many captures");
	for (int i = 0; i < n; i++)
		lm_push_cap(m, i, s, e);
	return n;
}

/* Lua's rule for a start position: negative counts from the end, 0 is 1. */
static size_t lm_start(lua_Integer pos, size_t len)
{
	if (pos > 0)
		return (size_t)pos;
	if (pos == 0 || pos < -(lua_Integer)len)
		return 1;
	return len + (size_t)pos + 1;
}

static bool lm_has_specials(const char *p, size_t lp)
{
	for (size_t i = 0; i < lp; i++)
		if (p[i] && strchr("^$*+?.([%-", p[i]))
			return true;
	return false;
}

/* Plain search of p in s..s+ls. */
static const char *lm_plain(struct lm *m, const char *s, size_t ls, const char *p, size_t lp)
{
	if (lp == 0)
		return s;
	if (lp > ls)
		return NULL;
	const char *end = s + (ls - lp) + 1; /* candidates are s..end-1 */
	while (s < end) {
		const char *hit = memchr(s, *p, (size_t)(end - s));
		if (!hit)
			return NULL;
		lm_tick(m, (long)((hit - s) >> 6) + (long)lp);
		if (!memcmp(hit + 1, p + 1, lp - 1))
			return hit;
		s = hit + 1;
	}
	return NULL;
}

/* string.find (find true) and string.match. */
static int lm_find(lua_State *S, bool find)
{
	size_t ls, lp;
	const char *s = luaL_checklstring(S, 1, &ls);
	const char *p = luaL_checklstring(S, 2, &lp);
	size_t init = lm_start(luaL_optinteger(S, 3, 1), ls);
	if (init > ls + 1) {
		luaL_pushfail(S);
		return 1;
	}
	struct lm m;
	lm_init(&m, S, s, ls, p, lp);
	if (find && (lua_toboolean(S, 4) || !lm_has_specials(p, lp))) {
		const char *hit = lm_plain(&m, s + init - 1, ls - init + 1, p, lp);
		if (!hit) {
			luaL_pushfail(S);
			return 1;
		}
		lua_pushinteger(S, hit - s + 1);
		lua_pushinteger(S, (hit - s) + (lua_Integer)lp);
		return 2;
	}
	bool anchor = lp > 0 && *p == '^';
	if (anchor)
		p++;
	const char *at = s + init - 1;
	do {
		m.ncap = m.depth = 0;
		const char *e = lm_match(&m, at, p);
		if (e && find) {
			lua_pushinteger(S, at - s + 1);
			lua_pushinteger(S, e - s);
			return lm_push_caps(&m, NULL, NULL) + 2;
		}
		if (e)
			return lm_push_caps(&m, at, e);
	} while (at++ < m.se && !anchor);
	luaL_pushfail(S);
	return 1;
}

static int lm_str_find(lua_State *S)
{
	return lm_find(S, true);
}

static int lm_str_match(lua_State *S)
{
	return lm_find(S, false);
}

/* gmatch's iterator; upvalues: subject, pattern, offset of the next try,
 * end offset of the last match (-1: none). */
static int lm_gmatch_next(lua_State *S)
{
	size_t ls, lp;
	const char *s = lua_tolstring(S, lua_upvalueindex(1), &ls);
	const char *p = lua_tolstring(S, lua_upvalueindex(2), &lp);
	lua_Integer pos = lua_tointeger(S, lua_upvalueindex(3));
	lua_Integer last = lua_tointeger(S, lua_upvalueindex(4));
	struct lm m;
	lm_init(&m, S, s, ls, p, lp);
	for (; pos <= (lua_Integer)ls; pos++) {
		const char *at = s + pos;
		m.ncap = m.depth = 0;
		const char *e = lm_match(&m, at, p);
		if (e && e - s != last) {
			lua_pushinteger(S, e - s);
			lua_pushvalue(S, -1);
			lua_replace(S, lua_upvalueindex(3));
			lua_replace(S, lua_upvalueindex(4));
			return lm_push_caps(&m, at, e);
		}
	}
	lua_pushinteger(S, (lua_Integer)ls + 1);
	lua_replace(S, lua_upvalueindex(3));
	return 0;
}

static int lm_str_gmatch(lua_State *S)
{
	size_t ls;
	luaL_checklstring(S, 1, &ls);
	luaL_checkstring(S, 2);
	size_t init = lm_start(luaL_optinteger(S, 3, 1), ls);
	if (init > ls + 1) /* past the end: no match, not even an empty one */
		init = ls + 2;
	lua_settop(S, 2);
	lua_pushinteger(S, (lua_Integer)init - 1);
	lua_pushinteger(S, -1);
	lua_pushcclosure(S, lm_gmatch_next, 4);
	return 1;
}

/* gsub's replacement string (argument 3) for the match s..e. */
static void lm_add_string(struct lm *m, luaL_Buffer *b, const char *s, const char *e)
{
	lua_State *S = m->S;
	size_t lr;
	const char *r = lua_tolstring(S, 3, &lr), *re = r + lr;
	for (const char *pct; (pct = memchr(r, '%', (size_t)(re - r))); r = pct + 1) {
		luaL_addlstring(b, r, (size_t)(pct - r));
		pct++;
		if (pct < re && *pct == '%') {
			luaL_addchar(b, '%');
		} else if (pct < re && *pct == '0') {
			luaL_addlstring(b, s, (size_t)(e - s));
		} else if (pct < re && isdigit((unsigned char)*pct)) {
			lm_push_cap(m, *pct - '1', s, e);
			luaL_tolstring(S, -1, NULL);
			lua_remove(S, -2);
			luaL_addvalue(b);
		} else {
			luaL_error(S, "invalid use of '%%' in replacement string");
		}
	}
	luaL_addlstring(b, r, (size_t)(re - r));
}

/* Add the replacement of the match s..e; tr is the type of argument 3. */
static void lm_add_value(struct lm *m, luaL_Buffer *b, const char *s, const char *e, int tr)
{
	lua_State *S = m->S;
	if (tr == LUA_TFUNCTION) {
		lua_pushvalue(S, 3);
		int n = lm_push_caps(m, s, e);
		lua_call(S, n, 1);
	} else if (tr == LUA_TTABLE) {
		lm_push_cap(m, 0, s, e);
		lua_gettable(S, 3);
	} else {
		lm_add_string(m, b, s, e);
		return;
	}
	if (!lua_toboolean(S, -1)) { /* nil or false: keep the match */
		lua_pop(S, 1);
		luaL_addlstring(b, s, (size_t)(e - s));
	} else if (!lua_isstring(S, -1)) {
		luaL_error(S, "invalid replacement value (a %s)", luaL_typename(S, -1));
	} else {
		luaL_addvalue(b);
	}
}

static int lm_str_gsub(lua_State *S)
{
	size_t ls, lp;
	const char *s = luaL_checklstring(S, 1, &ls);
	const char *p = luaL_checklstring(S, 2, &lp);
	int tr = lua_type(S, 3);
	lua_Integer max = luaL_optinteger(S, 4, (lua_Integer)ls + 1);
	luaL_argexpected(S, tr == LUA_TNUMBER || tr == LUA_TSTRING || tr == LUA_TFUNCTION || tr == LUA_TTABLE,
	                 3, "string/function/table");
	struct lm m;
	lm_init(&m, S, s, ls, p, lp);
	bool anchor = lp > 0 && *p == '^';
	if (anchor)
		p++;
	luaL_Buffer b;
	luaL_buffinit(S, &b);
	const char *at = s, *last = NULL;
	lua_Integer n = 0;
	while (n < max) {
		m.ncap = m.depth = 0;
		const char *e = lm_match(&m, at, p);
		if (e && e != last) {
			n++;
			lm_add_value(&m, &b, at, e, tr);
			at = last = e;
		} else if (at < m.se) {
			luaL_addchar(&b, *at++);
		} else {
			break;
		}
		if (anchor)
			break;
	}
	luaL_addlstring(&b, at, (size_t)(m.se - at));
	luaL_pushresult(&b);
	lua_pushinteger(S, n);
	return 2;
}

void lb_pattern_open(lua_State *S)
{
	static const luaL_Reg fns[] = {{"find", lm_str_find},
	                               {"match", lm_str_match},
	                               {"gmatch", lm_str_gmatch},
	                               {"gsub", lm_str_gsub},
	                               {NULL, NULL}};
	lua_getglobal(S, "string");
	luaL_setfuncs(S, fns, 0);
	lua_pop(S, 1);
}
