/* pgb_expr: the expression parser of pgbench scripts (see pgb_expr.h):
 * a tokenizer after pgbench's exprscan.l and a precedence-climbing parser
 * that builds the same trees as its exprparse.y. */
#include "pgb_expr.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum pgbs_tok {
	T_END,
	T_INT,
	T_MAXINT, /* 9223372036854775808: only valid after a unary minus */
	T_DBL,
	T_VAR,
	T_IDENT,
	T_OP, /* an operator or punctuation; its text in tok.s */
	T_AND,
	T_OR,
	T_NOT,
	T_IS,
	T_ISNULL,
	T_NOTNULL,
	T_NULL,
	T_TRUE,
	T_FALSE,
	T_CASE,
	T_WHEN,
	T_THEN,
	T_ELSE,
	T_ENDKW,
	T_BAD,
};

static const struct {
	const char *w;
	enum pgbs_tok t;
} pgbs_keywords[] = {
    {"and", T_AND},         {"or", T_OR},     {"not", T_NOT},   {"is", T_IS},       {"isnull", T_ISNULL},
    {"notnull", T_NOTNULL}, {"null", T_NULL}, {"true", T_TRUE}, {"false", T_FALSE}, {"case", T_CASE},
    {"when", T_WHEN},       {"then", T_THEN}, {"else", T_ELSE}, {"end", T_ENDKW},
};

struct pgbs_token {
	enum pgbs_tok t;
	const char *s; /* where it starts */
	size_t len;
	int64_t i;
	double d;
};

struct pgbs_parser {
	pgb_var_slot_fn slot;
	void *slot_ctx;
	const char *s;      /* the expression text */
	const char *p;      /* cursor: just after tok */
	struct src_pos pos; /* position of s[0] */
	struct diag *d;
	struct pgbs_token tok; /* the current token */
	int nops;              /* binary operators so far: a chain 1+1+...+1 is a tree as
	                        * deep as it is long, which evaluation recurses over */
	int depth;             /* nesting of pgbs_expr, bounded: the stack is */
	bool failed;
};

static void pgbs_err(struct pgbs_parser *ps, const char *at, const char *fmt, const char *more)
{
	if (ps->failed)
		return;
	struct src_pos pos = ps->pos;
	char msg[600];

	snprintf(msg, sizeof(msg), fmt, more);
	pos.col += (int)(at - ps->s);
	diag_error(ps->d, &pos, "pgbench script: %s", msg);
	ps->failed = true;
}

static bool pgbs_alpha(char c)
{
	return isalpha((unsigned char)c) || c == '_' || (unsigned char)c >= 0x80;
}

static bool pgbs_alnum(char c)
{
	return pgbs_alpha(c) || isdigit((unsigned char)c);
}

/* A number: {digit}+ is an int, with '.' or an exponent a double. */
static void pgbs_lex_number(struct pgbs_parser *ps, struct pgbs_token *t)
{
	const char *q = t->s;
	bool dbl = false;

	while (isdigit((unsigned char)*q))
		q++;
	if (*q == '.') {
		dbl = true;
		for (q++; isdigit((unsigned char)*q); q++)
			;
	}
	if ((*q == 'e' || *q == 'E') && (isdigit((unsigned char)q[1]) ||
	                                 ((q[1] == '+' || q[1] == '-') && isdigit((unsigned char)q[2])))) {
		dbl = true;
		for (q += 2; isdigit((unsigned char)*q); q++)
			;
	}
	t->len = (size_t)(q - t->s);
	char buf[400];

	if (t->len >= sizeof(buf)) {
		pgbs_err(ps, t->s, "%s constant too long", dbl ? "double" : "bigint");
		t->t = T_BAD;
		return;
	}
	memcpy(buf, t->s, t->len);
	buf[t->len] = '\0';
	errno = 0;
	if (dbl) {
		t->t = T_DBL;
		t->d = strtod(buf, NULL);
		if (errno)
			pgbs_err(ps, t->s, "double constant overflow (%s)", buf);
		return;
	}
	if (!strcmp(buf, "9223372036854775808")) {
		t->t = T_MAXINT;
		return;
	}
	t->t = T_INT;
	t->i = strtoll(buf, NULL, 10);
	if (errno)
		pgbs_err(ps, t->s, "bigint constant overflow (%s)", buf);
}

static const char *const pgbs_ops2[] = {"<<", ">>", "<=", ">=", "<>", "!="};

/* The next token into ps->tok. */
static void pgbs_next(struct pgbs_parser *ps)
{
	struct pgbs_token *t = &ps->tok;
	const char *q = ps->p;

	while (*q && strchr(" \t\r\f\v\n", *q))
		q++;
	*t = (struct pgbs_token){.t = T_END, .s = q, .len = 0};
	if (!*q) {
		ps->p = q;
		return;
	}
	if (isdigit((unsigned char)*q) || (*q == '.' && isdigit((unsigned char)q[1]))) {
		pgbs_lex_number(ps, t);
	} else if (*q == ':' && pgbs_alnum(q[1])) {
		for (t->len = 1; pgbs_alnum(q[t->len]); t->len++)
			;
		t->t = T_VAR;
	} else if (pgbs_alpha(*q)) {
		for (t->len = 1; pgbs_alnum(q[t->len]); t->len++)
			;
		t->t = T_IDENT;
		for (size_t k = 0; k < sizeof(pgbs_keywords) / sizeof(pgbs_keywords[0]); k++)
			if (strlen(pgbs_keywords[k].w) == t->len &&
			    !strncasecmp(q, pgbs_keywords[k].w, t->len))
				t->t = pgbs_keywords[k].t;
	} else {
		t->t = T_OP;
		t->len = 1;
		for (size_t k = 0; k < sizeof(pgbs_ops2) / sizeof(pgbs_ops2[0]); k++)
			if (!strncmp(q, pgbs_ops2[k], 2))
				t->len = 2;
		if (t->len == 1 && !strchr("+-*/%()<>=,&|#~", *q)) {
			char c[8];

			snprintf(c, sizeof(c), isprint((unsigned char)*q) ? "%c" : "\\x%02x",
			         (unsigned char)*q);
			pgbs_err(ps, q, "unexpected character (%s)", c);
			t->t = T_BAD;
		}
	}
	ps->p = q + (t->len ? t->len : 1);
}

static bool pgbs_isop(const struct pgbs_parser *ps, const char *op)
{
	return ps->tok.t == T_OP && ps->tok.len == strlen(op) && !strncmp(ps->tok.s, op, ps->tok.len);
}

void pgb_expr_free(struct pgb_expr *e)
{
	if (!e)
		return;
	for (int i = 0; i < e->nargs; i++)
		pgb_expr_free(e->arg[i]);
	free(e->arg);
	free(e->name);
	free(e);
}

static struct pgb_expr *pgbs_node(enum pgb_expr_op op, int nargs)
{
	struct pgb_expr *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->op = op;
	if (nargs) {
		e->arg = calloc(nargs, sizeof(*e->arg));
		if (!e->arg) {
			free(e);
			return NULL;
		}
	}
	e->nargs = nargs;
	return e;
}

/* A node over operands a (and b); frees them when out of memory or when
 * one is missing. */
static struct pgb_expr *pgbs_make(enum pgb_expr_op op, struct pgb_expr *a, struct pgb_expr *b)
{
	int n = b ? 2 : 1;
	struct pgb_expr *e;

	if (!a || (n == 2 && !b) || !(e = pgbs_node(op, n))) {
		pgb_expr_free(a);
		pgb_expr_free(b);
		return NULL;
	}
	e->arg[0] = a;
	if (b)
		e->arg[1] = b;
	return e;
}

static struct pgb_expr *pgbs_const(enum pgb_expr_op op, int64_t i)
{
	struct pgb_expr *e = pgbs_node(op, 0);

	if (e) {
		e->i = i;
		e->b = i != 0;
	}
	return e;
}

static struct pgb_expr *pgbs_var_node(struct pgbs_parser *ps, const char *name, size_t len)
{
	int slot = ps->slot(ps->slot_ctx, name, len);
	struct pgb_expr *e;

	if (slot < 0 || !(e = pgbs_node(E_VAR, 0)))
		return NULL;
	e->var = slot;
	if (!(e->name = strndup(name, len))) {
		free(e);
		return NULL;
	}
	return e;
}

/* Binding powers, from pgbench's precedence declarations. */
enum { P_OR = 1, P_AND, P_NOT, P_IS, P_CMP, P_BIT, P_ADD, P_MUL, P_UNARY };

static struct pgb_expr *pgbs_expr(struct pgbs_parser *ps, int minprec);

static const struct {
	const char *name;
	enum pgb_expr_func f;
	int min, max; /* argument count; max -1 = any */
	bool seeded;  /* a missing last argument is :default_seed */
	bool is_mod;  /* mod(a, b) is the % operator */
} pgbs_funcs[] = {
    {"abs", F_ABS, 1, 1, false, false},
    {"least", F_LEAST, 1, -1, false, false},
    {"greatest", F_GREATEST, 1, -1, false, false},
    {"debug", F_DEBUG, 1, 1, false, false},
    {"pi", F_PI, 0, 0, false, false},
    {"sqrt", F_SQRT, 1, 1, false, false},
    {"ln", F_LN, 1, 1, false, false},
    {"exp", F_EXPF, 1, 1, false, false},
    {"int", F_INT, 1, 1, false, false},
    {"double", F_DOUBLE, 1, 1, false, false},
    {"random", F_RANDOM, 2, 2, false, false},
    {"random_gaussian", F_GAUSS, 3, 3, false, false},
    {"random_exponential", F_EXP, 3, 3, false, false},
    {"random_zipfian", F_ZIPF, 3, 3, false, false},
    {"pow", F_POW, 2, 2, false, false},
    {"power", F_POW, 2, 2, false, false},
    {"mod", F_ABS, 2, 2, false, true},
    {"hash", F_HASH_MURMUR2, 1, 2, true, false},
    {"hash_murmur2", F_HASH_MURMUR2, 1, 2, true, false},
    {"hash_fnv1a", F_HASH_FNV1A, 1, 2, true, false},
    {"permute", F_PERMUTE, 2, 3, true, false},
    /* YCSB's (docs/steps/ycsb-like.md) */
    {"random_ycsb_zipfian", F_YCSB_ZIPF, 2, 2, false, false},
    {"random_ycsb_latest", F_YCSB_LATEST, 2, 2, false, false},
    {"ycsb_hash", F_YCSB_HASH, 1, 1, false, false},
    {"ycsb_insert_next", F_YCSB_INS_NEXT, 1, 1, false, false},
    {"ycsb_insert_last", F_YCSB_INS_LAST, 1, 1, false, false},
};

#define PGBS_MAX_ARGS 256

/* "function NAME takes N arguments, got M" at the name. */
static void pgbs_arity_err(struct pgbs_parser *ps, const char *at, int fi, int n)
{
	char msg[160];
	int min = pgbs_funcs[fi].min, max = pgbs_funcs[fi].max;

	if (max < 0)
		snprintf(msg, sizeof(msg), "function %s takes at least %d argument%s, got %d",
		         pgbs_funcs[fi].name, min, min == 1 ? "" : "s", n);
	else if (min == max)
		snprintf(msg, sizeof(msg), "function %s takes %d argument%s, got %d", pgbs_funcs[fi].name,
		         min, min == 1 ? "" : "s", n);
	else
		snprintf(msg, sizeof(msg), "function %s takes %d or %d arguments, got %d",
		         pgbs_funcs[fi].name, min, max, n);
	pgbs_err(ps, at, "%s", msg);
}

/* The arguments of a call after its '(' (the current token); the number
 * parsed, or -1 after an error. ps->tok is left on the ')'. */
static int pgbs_args(struct pgbs_parser *ps, struct pgb_expr **args)
{
	int n = 0;

	if (pgbs_isop(ps, ")"))
		return 0;
	if (pgbs_isop(ps, ",")) /* pgbench's grammar takes one leading comma: f(, a) */
		pgbs_next(ps);
	for (;;) {
		if (n == PGBS_MAX_ARGS) {
			pgbs_err(ps, ps->tok.s, "%s", "too many function arguments");
			break;
		}
		if (!(args[n] = pgbs_expr(ps, 0)))
			break;
		n++;
		if (pgbs_isop(ps, ")"))
			return n;
		if (!pgbs_isop(ps, ",")) {
			pgbs_err(ps, ps->tok.s, "%s", "syntax error: expected ',' or ')'");
			break;
		}
		pgbs_next(ps);
	}
	for (int i = 0; i < n; i++)
		pgb_expr_free(args[i]);
	return -1;
}

/* name(args...): ps->tok is the name. */
static struct pgb_expr *pgbs_call(struct pgbs_parser *ps)
{
	const char *at = ps->tok.s;
	size_t len = ps->tok.len, fi;
	char name[64];

	snprintf(name, sizeof(name), "%.*s", (int)(len > 60 ? 60 : len), at);
	for (fi = 0; fi < sizeof(pgbs_funcs) / sizeof(pgbs_funcs[0]); fi++)
		if (!strcasecmp(pgbs_funcs[fi].name, name) && len < 60)
			break;
	pgbs_next(ps);
	if (!pgbs_isop(ps, "(")) {
		pgbs_err(ps, fi < sizeof(pgbs_funcs) / sizeof(pgbs_funcs[0]) ? ps->tok.s : at,
		         fi < sizeof(pgbs_funcs) / sizeof(pgbs_funcs[0])
		             ? "syntax error: expected '(' after %s"
		             : "unknown function '%s'",
		         name);
		return NULL;
	}
	if (fi == sizeof(pgbs_funcs) / sizeof(pgbs_funcs[0])) {
		pgbs_err(ps, at, "unknown function '%s'", name);
		return NULL;
	}
	pgbs_next(ps);
	struct pgb_expr *args[PGBS_MAX_ARGS + 1], *e;
	int n = pgbs_args(ps, args);

	if (n < 0)
		return NULL;
	pgbs_next(ps);
	if (n < pgbs_funcs[fi].min || (pgbs_funcs[fi].max >= 0 && n > pgbs_funcs[fi].max)) {
		pgbs_arity_err(ps, at, (int)fi, n);
		for (int i = 0; i < n; i++)
			pgb_expr_free(args[i]);
		return NULL;
	}
	if (pgbs_funcs[fi].seeded && n < pgbs_funcs[fi].max) {
		if (!(args[n] = pgbs_var_node(ps, "default_seed", 12)))
			goto oom;
		args[n++]->b = true; /* falls back to the run's seed when unset */
	}
	if (pgbs_funcs[fi].is_mod)
		return pgbs_make(E_MOD, args[0], args[1]);
	if (!(e = pgbs_node(E_FUNC, n)))
		goto oom;
	e->func = pgbs_funcs[fi].f;
	if (n)
		memcpy(e->arg, args, n * sizeof(*args));
	return e;
oom:
	for (int i = 0; i < n; i++)
		pgb_expr_free(args[i]);
	return NULL;
}

/* CASE WHEN c THEN v [WHEN ...] [ELSE e] END: ps->tok is CASE. */
static struct pgb_expr *pgbs_case(struct pgbs_parser *ps)
{
	struct pgb_expr *args[PGBS_MAX_ARGS + 1], *e = NULL;
	int n = 0;

	pgbs_next(ps);
	while (ps->tok.t == T_WHEN && n + 2 < PGBS_MAX_ARGS) {
		pgbs_next(ps);
		if (!(args[n++] = pgbs_expr(ps, 0)))
			goto fail;
		if (ps->tok.t != T_THEN) {
			pgbs_err(ps, ps->tok.s, "%s", "syntax error: expected THEN");
			goto fail;
		}
		pgbs_next(ps);
		if (!(args[n++] = pgbs_expr(ps, 0)))
			goto fail;
	}
	if (n == 0) {
		pgbs_err(ps, ps->tok.s, "%s", "syntax error: expected WHEN");
		goto fail;
	}
	if (ps->tok.t == T_ELSE) {
		pgbs_next(ps);
		if (!(args[n++] = pgbs_expr(ps, 0)))
			goto fail;
	} else if (!(args[n++] = pgbs_const(E_NULL, 0))) {
		goto fail;
	}
	if (ps->tok.t != T_ENDKW) {
		pgbs_err(ps, ps->tok.s, "%s", "syntax error: expected END");
		goto fail;
	}
	pgbs_next(ps);
	if (!(e = pgbs_node(E_CASE, n)))
		goto fail;
	memcpy(e->arg, args, n * sizeof(*args));
	return e;
fail:
	for (int i = 0; i < n; i++)
		pgb_expr_free(args[i]);
	return NULL;
}

static struct pgb_expr *pgbs_paren(struct pgbs_parser *ps)
{
	pgbs_next(ps);
	struct pgb_expr *e = pgbs_expr(ps, 0);

	if (!e)
		return NULL;
	if (!pgbs_isop(ps, ")")) {
		pgbs_err(ps, ps->tok.s, "%s", "syntax error: expected ')'");
		pgb_expr_free(e);
		return NULL;
	}
	pgbs_next(ps);
	return e;
}

/* A constant token: the node, and the next token read. */
static struct pgb_expr *pgbs_constant(struct pgbs_parser *ps)
{
	struct pgb_expr *e;

	switch (ps->tok.t) {
	case T_INT: e = pgbs_const(E_INT, ps->tok.i); break;
	case T_DBL:
		if ((e = pgbs_node(E_DBL, 0)))
			e->d = ps->tok.d;
		break;
	case T_TRUE: e = pgbs_const(E_BOOL, 1); break;
	case T_FALSE: e = pgbs_const(E_BOOL, 0); break;
	case T_NULL: e = pgbs_const(E_NULL, 0); break;
	default: e = pgbs_var_node(ps, ps->tok.s + 1, ps->tok.len - 1); break;
	}
	pgbs_next(ps);
	return e;
}

/* A prefix operator's operand or a primary. */
static struct pgb_expr *pgbs_prefix(struct pgbs_parser *ps)
{
	struct pgb_expr *e;

	switch (ps->tok.t) {
	case T_INT:
	case T_DBL:
	case T_TRUE:
	case T_FALSE:
	case T_NULL:
	case T_VAR: return pgbs_constant(ps);
	case T_IDENT: return pgbs_call(ps);
	case T_CASE: return pgbs_case(ps);
	case T_NOT: pgbs_next(ps); return pgbs_make(E_NOT, pgbs_expr(ps, P_NOT), NULL);
	case T_OP: break;
	case T_MAXINT:
		pgbs_err(ps, ps->tok.s, "%s",
		         "bigint constant overflow (9223372036854775808 is only valid after a unary minus)");
		return NULL;
	default:
		pgbs_err(ps, ps->tok.s, "%s",
		         ps->tok.t == T_END ? "expression expected" : "syntax error in expression");
		return NULL;
	}
	if (pgbs_isop(ps, "(")) {
		return pgbs_paren(ps);
	} else if (pgbs_isop(ps, "+")) {
		pgbs_next(ps);
		return pgbs_expr(ps, P_UNARY);
	} else if (pgbs_isop(ps, "~")) {
		pgbs_next(ps);
		return pgbs_make(E_BITXOR, pgbs_const(E_INT, -1), pgbs_expr(ps, P_BIT + 1));
	} else if (pgbs_isop(ps, "-")) {
		pgbs_next(ps);
		if (ps->tok.t == T_MAXINT) {
			pgbs_next(ps);
			return pgbs_const(E_INT, INT64_MIN);
		}
		if (!(e = pgbs_expr(ps, P_UNARY)))
			return NULL;
		if (e->op == E_INT && e->i != INT64_MIN) { /* 0 - constant, folded */
			e->i = -e->i;
			return e;
		}
		return pgbs_make(E_NEG, e, NULL);
	}
	pgbs_err(ps, ps->tok.s, "%s", "syntax error in expression");
	return NULL;
}

static const struct {
	const char *op;
	enum pgb_expr_op e;
	int prec;
	bool swap; /* a > b is b < a */
} pgbs_binops[] = {
    {"+", E_ADD, P_ADD, false},     {"-", E_SUB, P_ADD, false},     {"*", E_MUL, P_MUL, false},
    {"/", E_DIV, P_MUL, false},     {"%", E_MOD, P_MUL, false},     {"<", E_LT, P_CMP, false},
    {"<=", E_LE, P_CMP, false},     {">", E_LT, P_CMP, true},       {">=", E_LE, P_CMP, true},
    {"=", E_EQ, P_CMP, false},      {"<>", E_NE, P_CMP, false},     {"!=", E_NE, P_CMP, false},
    {"&", E_BITAND, P_BIT, false},  {"|", E_BITOR, P_BIT, false},   {"#", E_BITXOR, P_BIT, false},
    {"<<", E_LSHIFT, P_BIT, false}, {">>", E_RSHIFT, P_BIT, false},
};

/* The binary operator at the current token, or -1. */
static int pgbs_binop(const struct pgbs_parser *ps)
{
	if (ps->tok.t == T_AND || ps->tok.t == T_OR)
		return -2;
	if (ps->tok.t != T_OP)
		return -1;
	for (size_t k = 0; k < sizeof(pgbs_binops) / sizeof(pgbs_binops[0]); k++)
		if (pgbs_isop(ps, pgbs_binops[k].op))
			return (int)k;
	return -1;
}

/* IS [NOT] NULL|TRUE|FALSE, ISNULL, NOTNULL after left. */
static struct pgb_expr *pgbs_postfix(struct pgbs_parser *ps, struct pgb_expr *left)
{
	bool neg = ps->tok.t == T_NOTNULL;
	struct pgb_expr *rhs;

	if (ps->tok.t == T_IS) {
		pgbs_next(ps);
		if (ps->tok.t == T_NOT) {
			neg = true;
			pgbs_next(ps);
		}
		if (ps->tok.t != T_NULL && ps->tok.t != T_TRUE && ps->tok.t != T_FALSE) {
			pgbs_err(ps, ps->tok.s, "%s", "syntax error: expected NULL, TRUE or FALSE after IS");
			pgb_expr_free(left);
			return NULL;
		}
		rhs = ps->tok.t == T_NULL ? pgbs_const(E_NULL, 0) : pgbs_const(E_BOOL, ps->tok.t == T_TRUE);
	} else {
		rhs = pgbs_const(E_NULL, 0);
	}
	pgbs_next(ps);
	struct pgb_expr *e = pgbs_make(E_IS, left, rhs);

	return neg ? pgbs_make(E_NOT, e, NULL) : e;
}

/* An expression whose operators bind at least as tightly as minprec
 * (precedence climbing); ps->tok is its first token, and is left on the
 * first token after it. */
static struct pgb_expr *pgbs_expr(struct pgbs_parser *ps, int minprec)
{
	if (ps->depth >= 500) {
		pgbs_err(ps, ps->tok.s, "%s", "expression nested too deeply");
		return NULL;
	}
	ps->depth++;
	struct pgb_expr *left = pgbs_prefix(ps);
	bool after_cmp = false; /* comparisons do not chain */

	while (left) {
		enum pgbs_tok t = ps->tok.t;

		if (t == T_IS || t == T_ISNULL || t == T_NOTNULL) {
			if (P_IS < minprec)
				break;
			left = pgbs_postfix(ps, left);
			after_cmp = false;
			continue;
		}
		int k = pgbs_binop(ps);

		if (k == -1)
			break;
		int prec = k == -2 ? (t == T_AND ? P_AND : P_OR) : pgbs_binops[k].prec;

		if (prec < minprec)
			break;
		if (prec == P_CMP && after_cmp) {
			pgbs_err(ps, ps->tok.s, "%s", "syntax error: comparisons do not chain");
			pgb_expr_free(left);
			return NULL;
		}
		if (++ps->nops > 4000) {
			pgbs_err(ps, ps->tok.s, "%s", "expression too long (over 4000 operators)");
			pgb_expr_free(left);
			return NULL;
		}
		pgbs_next(ps);
		struct pgb_expr *right = pgbs_expr(ps, prec + 1);

		if (k == -2)
			left = pgbs_make(t == T_AND ? E_AND : E_OR, left, right);
		else if (pgbs_binops[k].swap)
			left = pgbs_make(pgbs_binops[k].e, right, left);
		else
			left = pgbs_make(pgbs_binops[k].e, left, right);
		after_cmp = prec == P_CMP;
	}
	ps->depth--;
	return left;
}

struct pgb_expr *pgb_expr_parse(const char *s, const struct src_pos *pos, pgb_var_slot_fn slot,
                                void *slot_ctx, struct diag *d)
{
	struct pgbs_parser ps = {.slot = slot, .slot_ctx = slot_ctx, .s = s, .p = s, .pos = *pos, .d = d};

	pgbs_next(&ps);
	if (ps.tok.t == T_END) {
		pgbs_err(&ps, ps.tok.s, "%s", "expression expected");
		return NULL;
	}
	struct pgb_expr *e = pgbs_expr(&ps, 0);

	if (e && (ps.failed || ps.tok.t != T_END)) {
		pgbs_err(&ps, ps.tok.s, "%s", "syntax error in expression");
		pgb_expr_free(e);
		return NULL;
	}
	if (!e && !ps.failed)
		pgbs_err(&ps, ps.p, "%s", "out of memory");
	return e;
}
