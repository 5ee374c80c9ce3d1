/* fuzz_pgbench: the pgbench script parser (engine/workloads/pgbench/
 * pgb_script.c): SQL with :variables, \set expressions, \sleep, comments and
 * continuation lines. The input is split at the first NUL byte into two
 * scripts of one program, so that variables shared between scripts are
 * resolved too; the first byte's low bit says whether positions are a
 * script file's or an inline YAML scalar's. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "pgb_script.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	bool is_file = data[0] & 1;
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = 0;
	text[size] = 0;
	size_t first = strlen(text);
	const char *second = first < size - 1 ? text + first + 1 : NULL;

	struct src_pos pos = {diag_intern("script.sql"), is_file ? 1 : 12, is_file ? 1 : 9};
	struct pgb_prog p;
	struct diag d;
	pgb_prog_init(&p);
	diag_init(&d);
	int rc = pgb_prog_add(&p, "one", text, 1, &pos, is_file, &d);
	if (rc == 0 && second)
		rc = pgb_prog_add(&p, "two", second, 2, &pos, is_file, &d);
	if (rc == 0)
		(void)pgb_prog_finish(&p, &d);
	for (size_t i = 0; i < d.n; i++) {
		char one[2048];
		diag_format_one(&d.v[i], one, sizeof(one));
	}
	pgb_prog_free(&p);
	diag_free(&d);
	free(text);
	return 0;
}
