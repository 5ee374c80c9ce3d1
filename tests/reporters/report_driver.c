/* report_driver: crafted runs for the report integration checks.
 *
 *   report_driver fixture DIR [SCALE [DROP]]  write the fixture run
 *                                      (tests/lib/report_fixture.h) as
 *                                      DIR/results.json, every metric times
 *                                      SCALE (default 1), without cell DROP
 *   report_driver report DIR           rebuild every report from DIR/results.json
 *   report_driver compare A B          Markdown comparison (--all) on stdout
 *   report_driver expect DIR           exit 1 when a strict expectation fails
 * Exit 0 on success, 1 on failure (diagnostics on stderr), 2 on usage. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_fixture.h"
#include "compare.h"
#include "expect.h"
#include "rep.h"

static int finish(struct diag *d, int rc)
{
	diag_print(d, stderr);
	diag_free(d);
	return rc < 0 ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct diag d;
	struct run r;
	char path[4096];
	int rc;

	diag_init(&d);
	if (argc >= 3 && strcmp(argv[1], "fixture") == 0) {
		double scale = argc > 3 ? strtod(argv[3], NULL) : 1.0;
		fixture_build(&r);
		for (size_t i = 0; i < r.ncells; i++)
			for (size_t k = 0; k < r.cells[i].nreps; k++)
				for (size_t s = 0; s < r.cells[i].reps[k].nsteps; s++) {
					struct step_result *sr = &r.cells[i].reps[k].steps[s];
					for (size_t m = 0; m < sr->nm; m++)
						sr->m[m].value *= scale;
				}
		if (argc > 4) {
			size_t drop = (size_t)atoi(argv[4]);
			run_cell_free(&r.cells[drop]);
			memmove(&r.cells[drop], &r.cells[drop + 1],
			        (r.ncells - drop - 1) * sizeof(r.cells[0]));
			r.ncells--;
		}
		snprintf(path, sizeof(path), "%s/results.json", argv[2]);
		rc = results_write_json(&r, path, &d);
		run_free(&r);
		return finish(&d, rc);
	}
	if (argc == 3 && (strcmp(argv[1], "report") == 0 || strcmp(argv[1], "expect") == 0)) {
		snprintf(path, sizeof(path), "%s/results.json", argv[2]);
		rc = results_read_json(&r, path, &d);
		if (rc == 0 && argv[1][0] == 'r') {
			rc = rep_write_all(&r, argv[2], &d);
		} else if (rc == 0) {
			struct expect_result er;
			rc = expect_evaluate(r.expect_cfg, &r, NULL, &er, &d);
			printf("strict failures: %zu\n", er.nstrict);
			if (rc == 0 && er.nstrict)
				rc = -1;
			expect_result_free(&er);
		}
		run_free(&r);
		return finish(&d, rc);
	}
	if (argc == 4 && strcmp(argv[1], "compare") == 0) {
		struct compare_opts o;
		compare_opts_init(&o);
		o.all = true; /* every metric, as `benchgrid compare --all` */
		return finish(&d, rep_compare_runs(argv[2], argv[3], &o, stdout, &d, NULL));
	}
	fprintf(stderr, "usage: report_driver fixture DIR [SCALE] | report DIR | compare A B | expect DIR\n");
	diag_free(&d);
	return 2;
}
