/* fuzz_spec: the loader and the planner, as `benchgrid check` and `plan` run
 * them: YAML text -> spec (spec_open) -> cells (plan_build, which validates
 * each cell) -> the plan as JSON. The input is written to a file in a
 * private directory (spec_open reads a path; relative `hooks_file:` and
 * `require` look in that empty directory), followed by a top-level
 * `lua_budget: 50ms` line: an endless loop in a `!lua` value, a filter or
 * the hooks stops after 50 ms instead of the default 10 s per call, so that
 * libFuzzer's -timeout finds real hangs only. Inputs that set lua_budget
 * themselves are skipped. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "matrix.h"
#include "plan.h"
#include "spec.h"
#include "validators.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64], path[96];
static FILE *devnull;

static void remove_dir(void)
{
	unlink(path);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	validators_register();
	snprintf(dir, sizeof(dir), "/tmp/bg-fuzz-spec.XXXXXX");
	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/fuzz.yaml", dir);
	atexit(remove_dir);
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char budget[] = "\nlua_budget: 50ms\n";
	if (memmem(data, size, "lua_budget", 10))
		return 0;
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size ||
	    fwrite(budget, 1, sizeof(budget) - 1, f) != sizeof(budget) - 1 || fclose(f) != 0)
		abort();
	struct defines D = {0};
	struct diag d;
	struct cell *cells = NULL;
	size_t n = 0;
	diag_init(&d);
	struct spec *s = spec_open(path, &D, &d);
	if (s && s->root->kind == NODE_MAP)
		plan_build(s, &cells, &n, &d);
	/* Every message formats, with its position inside the input. */
	for (size_t i = 0; i < d.n; i++) {
		char one[2048];
		diag_format_one(&d.v[i], one, sizeof(one));
		if (d.v[i].pos.line < 0 || d.v[i].pos.col < 0)
			abort();
	}
	if (s && !d.nerrors)
		plan_print(s, cells, n, PLAN_JSON, devnull);
	matrix_free(cells, n);
	spec_free(s);
	diag_free(&d);
	return 0;
}
