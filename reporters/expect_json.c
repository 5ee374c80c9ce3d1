/* expect_json: expect.json (see expect_json.h). */
#include "expect_json.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "expect.h"
#include "jsonio.h"
#include "rep_file.h"

static const char *const check_names[] = {"absolute", "ratio", "order"};

json_t *expect_json_rows(const struct run *r, const struct expect_result *res)
{
	json_t *arr = json_array();
	for (size_t i = 0; arr && i < res->n; i++) {
		const struct expect_row *row = &res->rows[i];
		json_t *o = json_object();
		jsonio_set(o, "n", json_integer((json_int_t)row->entry + 1));
		jsonio_set(o, "role", jsonio_str(expect_role_name(row->role)));
		jsonio_set(o, "kind", jsonio_str(expect_row_is_shape(row) ? "shape" : "absolute"));
		jsonio_set(o, "check", jsonio_str(check_names[row->kind]));
		jsonio_set(o, "ref", jsonio_str(row->ref));
		jsonio_set(o, "cell",
		           row->cell >= 0 ? json_integer((json_int_t)r->cells[row->cell].index)
		                          : json_null());
		jsonio_set(o, "status", jsonio_str(expect_status_name(row->status)));
		/* the row's own note, unless it only repeats the entry's */
		bool own = row->note && (!row->claim || strcmp(row->note, row->claim) != 0);
		jsonio_set(o, "reason", own ? jsonio_str(row->note) : json_null());
		jsonio_set(o, "measured", jsonio_num(row->measured));
		jsonio_set(o, "published", jsonio_num(row->expected));
		jsonio_set(o, "lo", jsonio_num(row->lower));
		jsonio_set(o, "hi", jsonio_num(row->upper));
		jsonio_set(o, "strict", json_boolean(row->strict));
		jsonio_set(o, "note", jsonio_str(row->claim));
		jsonio_push(arr, o);
	}
	return arr;
}

static int ej_end(struct rep_ctx *cx, bool ok)
{
	const struct node *ex = cx->run->expect_cfg;
	if (!ok || !ex || ex->kind == NODE_NULL)
		return 0;
	struct expect_result res;
	struct diag quiet; /* report.md reports a bad entry */
	diag_init(&quiet);
	int erc = expect_evaluate(ex, cx->run, cx->sum, &res, &quiet);
	diag_free(&quiet);
	if (erc == -ENOMEM) {
		expect_result_free(&res);
		return erc;
	}
	json_t *arr = expect_json_rows(cx->run, &res);
	expect_result_free(&res);
	if (!arr)
		return -ENOMEM;
	struct rep_file rf;
	int rc = rep_file_open(&rf, cx->outdir, "expect.json", cx->d);
	if (rc == 0) {
		rc = jsonio_dump(arr, rf.f, true);
		if (rc == 0)
			rc = rep_file_commit(&rf, cx->d);
		else
			rep_file_abort(&rf);
	}
	json_decref(arr);
	return rc;
}

const struct reporter_ops rep_expect_json_ops = {
    .name = "expect-json",
    .file = "expect.json",
    .end = ej_end,
};
