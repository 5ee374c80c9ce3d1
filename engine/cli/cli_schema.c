/* cli_schema: `benchgrid schema`: the JSON Schema (draft 2020-12) of the
 * scenario language, or with --markdown docs/options.md, both from the
 * option tables of the sections (base/opt_table.h). */
#include "cli_schema.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_schema_md.h"
#include "cli_schema_tables.h"
#include "results_write.h"
#include "units.h"

/* What a value written as `${...}` or `!lua` looks like to a validator: a
 * string with a reference, or a Lua expression (editors see a `!lua`
 * value as its text): one with a parenthesis, a quote, or an operator
 * between spaces (`fs == 'xfs' and 4 or 8`), which no enum name, number or
 * size has. */
#define DEFERRED_PATTERN "\\$\\{|[()'\"]|\\s(==|~=|<=|>=|<|>|and|or|\\.\\.|[-+*/%^])\\s|^\\s*not\\s"
#define SIZE_PATTERN     "^\\s*\\+?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)\\s*([kKmMgGtTpP]([iI]?[bB])?|[bB])?\\s*$"
#define DURATION_PATTERN                                                                                     \
	"^\\s*\\+?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)\\s*([sS]([eE][cC])?|[nNuUmM][sS]|[mM]([iI][nN])?|[hH]|[dD]" \
	")?\\s*$"

static json_t *deferred(void)
{
	return json_pack("{s:s, s:s}", "type", "string", "pattern", DEFERRED_PATTERN);
}

static json_t *or_deferred(json_t *base)
{
	return json_pack("{s:[o,o]}", "anyOf", base, deferred());
}

/* An enum's names, and the numbers and booleans YAML reads some of them as. */
static json_t *enum_schema(const char *const *values)
{
	json_t *list = json_array();
	for (size_t i = 0; values && values[i]; i++) {
		int64_t iv;
		json_array_append_new(list, json_string(values[i]));
		if (units_is_int(values[i], &iv))
			json_array_append_new(list, json_integer(iv));
		else if (!strcmp(values[i], "true") || !strcmp(values[i], "false"))
			json_array_append_new(list, json_boolean(values[i][0] == 't'));
	}
	return json_pack("{s:o}", "enum", list);
}

/* "MIN..MAX" or "MIN.." as minimum and maximum. */
static json_t *with_range(json_t *s, const char *range)
{
	const char *dots = range ? strstr(range, "..") : NULL;
	int64_t v;
	char lo[32];
	if (!dots || (size_t)(dots - range) >= sizeof(lo))
		return s;
	snprintf(lo, sizeof(lo), "%.*s", (int)(dots - range), range);
	if (units_is_int(lo, &v))
		json_object_set_new(s, "minimum", json_integer(v));
	if (units_is_int(dots + 2, &v))
		json_object_set_new(s, "maximum", json_integer(v));
	return s;
}

static json_t *scalar_schema(const struct opt_desc *o)
{
	switch (o->type) {
	case OPT_STRING: return json_pack("{s:[s,s,s]}", "type", "string", "number", "boolean");
	case OPT_BOOL:
		return or_deferred(json_pack("{s:[{s:s},{s:[s,s,s,s,s,s,s,s,i,i]}]}", "anyOf", "type",
		                             "boolean", "enum", "true", "false", "yes", "no", "on", "off",
		                             "1", "0", 1, 0));
	case OPT_INT: return or_deferred(with_range(json_pack("{s:s}", "type", "integer"), o->range));
	case OPT_NUMBER: return or_deferred(with_range(json_pack("{s:s}", "type", "number"), o->range));
	case OPT_SIZE:
		return or_deferred(json_pack("{s:[{s:s,s:i},{s:s,s:s}]}", "anyOf", "type", "integer",
		                             "minimum", 0, "type", "string", "pattern", SIZE_PATTERN));
	case OPT_DURATION:
		return or_deferred(json_pack("{s:[{s:s,s:i},{s:s,s:s}]}", "anyOf", "type", "number",
		                             "minimum", 0, "type", "string", "pattern", DURATION_PATTERN));
	case OPT_ENUM: return or_deferred(enum_schema(o->values));
	default: return json_object();
	}
}

static json_t *ref_to(const char *name)
{
	char buf[160];
	if (!cli_schema_table(name))
		return json_pack("{s:s}", "type", "object");
	snprintf(buf, sizeof(buf), "#/$defs/%s", name);
	return json_pack("{s:s}", "$ref", buf);
}

static bool is_enum_value(const struct opt_desc *o)
{
	for (size_t i = 0; o->values && o->values[i]; i++)
		if (!strcmp(o->values[i], o->def))
			return true;
	return false;
}

/* The default as JSON, or NULL when it is not a literal of the row's type
 * ("a free one", "the mkfs default"): editors insert a schema's default,
 * so it must be valid; the prose stays in docs/options.md. */
static json_t *default_value(const struct opt_desc *o)
{
	int64_t iv;
	double dv;
	uint64_t sz;
	char err[128];
	switch (o->type) {
	case OPT_INT: return units_is_int(o->def, &iv) ? json_integer(iv) : NULL;
	case OPT_NUMBER: return units_is_number(o->def, &dv) ? json_real(dv) : NULL;
	case OPT_BOOL:
		if (!strcmp(o->def, "true") || !strcmp(o->def, "false"))
			return json_boolean(o->def[0] == 't');
		return NULL;
	case OPT_SIZE:
		if (units_is_int(o->def, &iv) && iv >= 0)
			return json_integer(iv);
		return units_parse_size(o->def, &sz, err, sizeof(err)) == 0 ? json_string(o->def) : NULL;
	case OPT_DURATION:
		if (units_is_number(o->def, &dv) && dv >= 0)
			return json_real(dv);
		return units_parse_duration(o->def, &dv, err, sizeof(err)) == 0 ? json_string(o->def) : NULL;
	case OPT_ENUM: return is_enum_value(o) ? json_string(o->def) : NULL;
	case OPT_MAP: return !strcmp(o->def, "{}") ? json_object() : NULL;
	case OPT_LIST: return !strcmp(o->def, "[]") ? json_array() : NULL;
	default: /* a string: a literal has no space ("the file name" is prose) */
		return strchr(o->def, ' ') ? NULL : json_string(o->def);
	}
}

static json_t *row_schema(const struct opt_desc *o)
{
	json_t *s;
	if (o->schema) {
		json_error_t err;
		s = json_loads(o->schema, 0, &err);
		if (!s) {
			fprintf(stderr, "benchgrid: internal: the schema of option '%s' is not JSON: %s\n",
			        o->name, err.text);
			abort();
		}
		if (o->type != OPT_MAP && o->type != OPT_LIST)
			s = or_deferred(s);
	} else if (o->type == OPT_MAP && o->ref && (o->flags & OPT_MAP_OF)) {
		s = json_pack("{s:s, s:o}", "type", "object", "additionalProperties", ref_to(o->ref));
	} else if (o->type == OPT_MAP && o->ref && (o->flags & OPT_OR_STRING)) {
		s = json_pack("{s:[{s:s},o]}", "anyOf", "type", "string", ref_to(o->ref));
	} else if (o->type == OPT_MAP) {
		s = o->ref ? ref_to(o->ref) : json_pack("{s:s}", "type", "object");
	} else if (o->type == OPT_LIST && o->ref && (o->flags & OPT_OR_LIST)) {
		s = json_pack("{s:[o,{s:s,s:o}]}", "anyOf", ref_to(o->ref), "type", "array", "items",
		              ref_to(o->ref));
	} else if (o->type == OPT_LIST) {
		s = json_pack("{s:s, s:o}", "type", "array", "items",
		              o->ref ? ref_to(o->ref) : json_pack("{s:s}", "type", "string"));
		if (o->flags & OPT_REQUIRED) /* a required list has something in it */
			json_object_set_new(s, "minItems", json_integer(1));
	} else {
		s = scalar_schema(o);
		if (o->flags & OPT_OR_LIST)
			s = json_pack("{s:[o,{s:s,s:O}]}", "anyOf", s, "type", "array", "items", s);
	}
	char desc[512];
	snprintf(desc, sizeof(desc), "%s%s%s%s", o->doc, o->unit ? " [" : "", o->unit ? o->unit : "",
	         o->unit ? "]" : "");
	json_object_set_new(s, "description", json_string(desc));
	json_object_set_new(s, "x-type", json_string(opt_type_name(o->type)));
	if (o->unit)
		json_object_set_new(s, "x-unit", json_string(o->unit));
	json_t *def = o->def ? default_value(o) : NULL;
	if (def)
		json_object_set_new(s, "default", def);
	return s;
}

/* The items of an open table's other keys. */
static json_t *open_items(const struct opt_table *t, json_t *obj)
{
	if (!strcmp(t->name, "expect")) { /* step.metric: [value, lower, upper], [value, tol], {min, max} */
		json_t *bounds = json_pack("{s:s, s:{s:{s:s}, s:{s:s}}, s:i, s:b}", "type", "object",
		                           "properties", "min", "type", "number", "max", "type", "number",
		                           "minProperties", 1, "additionalProperties", 0);
		json_object_set_new(json_object_get(obj, "patternProperties"), "\\.",
		                    json_pack("{s:[{s:s, s:i, s:i}, o]}", "anyOf", "type", "array",
		                              "minItems", 2, "maxItems", 3, bounds));
		return json_false();
	}
	if (!strcmp(t->name, "matrix"))
		return json_pack("{s:s, s:i, s:s}", "type", "array", "minItems", 1, "description",
		                 "an axis: the values of a parameter");
	return json_pack("{s:[s,s,s,s]}", "type", "string", "number", "boolean", "null");
}

/* A step has exactly one workload: the rows of the step table that link to
 * a workload's table. */
static void one_workload(const struct opt_table *t, json_t *obj)
{
	json_t *one = json_array();
	for (size_t i = 0; i < t->n; i++)
		if (t->rows[i].ref)
			json_array_append_new(one, json_pack("{s:[s]}", "required", t->rows[i].name));
	json_object_set_new(obj, "oneOf", one);
}

static json_t *table_schema(const struct opt_table *t)
{
	json_t *props = json_object(), *req = json_array();
	for (size_t i = 0; i < t->n; i++) {
		json_object_set_new(props, t->rows[i].name, row_schema(&t->rows[i]));
		if (t->rows[i].flags & OPT_REQUIRED)
			json_array_append_new(req, json_string(t->rows[i].name));
	}
	json_t *obj =
	    json_pack("{s:s, s:s, s:o, s:{s:{}}}", "type", "object", "description",
	              t->doc && *t->doc ? t->doc : t->title, "properties", props, "patternProperties", "^x-");
	json_object_set_new(obj, "additionalProperties", t->open ? open_items(t, obj) : json_false());
	if (json_array_size(req))
		json_object_set_new(obj, "required", req);
	else
		json_decref(req);
	if (!strcmp(t->name, "step"))
		one_workload(t, obj);
	return obj;
}

static json_t *whole_schema(void)
{
	const struct opt_table *const *all = cli_schema_tables();
	json_t *root = table_schema(all[0]);
	json_t *defs = json_object();
	for (size_t i = 1; all[i]; i++)
		json_object_set_new(defs, all[i]->name, table_schema(all[i]));
	json_object_set_new(root, "$schema", json_string("https://json-schema.org/draft/2020-12/schema"));
	json_object_set_new(root, "$id", json_string("https://benchgrid.invalid/benchgrid.schema.json"));
	json_object_set_new(root, "title", json_string("benchgrid scenario"));
	json_object_set_new(root, "$defs", defs);
	return root;
}

static void schema_usage(FILE *out)
{
	fprintf(out, "usage: benchgrid schema [--markdown] [-o FILE]\n\n"
	             "Print the JSON Schema (draft 2020-12) of the scenario language, made from the\n"
	             "option tables the loader checks scenarios with; docs/benchgrid.schema.json is\n"
	             "its output. Editors validate and complete scenarios with it (docs/editors.md).\n"
	             "--markdown prints the option reference instead (docs/options.md); -o writes\n"
	             "FILE instead of standard output.\n");
}

static int write_schema(FILE *out, bool markdown)
{
	if (markdown)
		return cli_schema_markdown(out);
	json_t *root = whole_schema();
	int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
	json_decref(root);
	if (rc < 0 || fputc('\n', out) == EOF || fflush(out) == EOF)
		return -1;
	return 0;
}

/* -o FILE: a temporary file in FILE's directory renamed over it, so a
 * failed write leaves the old file whole; FILE being a symlink is refused
 * (nothing follows a link it did not create, nor replaces one). 0 or a
 * negative errno. */
static int write_schema_file(const char *path, bool markdown)
{
	const char *base;
	int dirfd = results_open_dir_of(path, &base);
	if (dirfd < 0)
		return -errno;
	struct stat st;
	int rc = 0;
	if (fstatat(dirfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
		rc = -ELOOP;
	struct results_file rf;
	if (rc == 0)
		rc = results_file_open(&rf, dirfd, base);
	if (rc == 0) {
		if (write_schema(rf.f, markdown) < 0) {
			results_file_abort(&rf);
			rc = -EIO;
		} else {
			rc = results_file_commit(&rf);
		}
	}
	close(dirfd);
	return rc;
}

static int schema_main(int argc, char **argv)
{
	bool markdown = false;
	const char *file = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			schema_usage(stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--markdown")) {
			markdown = true;
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			file = argv[++i];
		} else {
			schema_usage(stderr);
			return CLI_EXIT_USAGE;
		}
	}
	if (!file) {
		if (write_schema(stdout, markdown) < 0) {
			fprintf(stderr, "benchgrid schema: could not write the output\n");
			return CLI_EXIT_FAIL;
		}
		return 0;
	}
	int rc = write_schema_file(file, markdown);
	if (rc == -ELOOP)
		fprintf(stderr,
		        "benchgrid schema: %s is a symbolic link; not written through (remove it first)\n",
		        file);
	else if (rc < 0)
		fprintf(stderr, "benchgrid schema: cannot write %s: %s\n", file, strerror(-rc));
	return rc < 0 ? CLI_EXIT_FAIL : 0;
}

const struct cli_command cli_schema = {
    "schema", "print the JSON Schema of scenarios (or the option reference)", schema_main};
