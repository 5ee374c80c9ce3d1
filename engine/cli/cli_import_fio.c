/* cli_import_fio: `benchgrid import-fio JOBFILE [-o SCENARIO.yaml]
 * [--partial]`: the jobs of a fio job file as io steps (docs/import-fio.md).
 * Problems are printed as JOBFILE:LINE: MESSAGE; with any of them nothing is
 * written unless --partial, which turns them into comments. */
#include "cli_import_fio.h"

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fio_ini.h"
#include "fio_map.h"
#include "fio_yaml.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: benchgrid import-fio JOBFILE [-o SCENARIO.yaml] [--partial]\n\n"
	             "Convert a fio job file into a scenario: one io step per job (or per group of\n"
	             "identical jobs that fio runs together), fio's options mapped to the io step's\n"
	             "keys. Every option benchgrid does not support is reported with its line and no\n"
	             "scenario is written, unless --partial (then they become comments).\n"
	             "Without -o the scenario goes to standard output. See docs/import-fio.md.\n");
}

static void print_problems(const struct diag *d)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct diag_entry *e = &d->v[i];
		const char *lvl = e->level == DIAG_ERROR ? "" : "warning: ";
		if (e->pos.file && e->pos.line > 0)
			fprintf(stderr, "%s:%d: %s%s\n", e->pos.file, e->pos.line, lvl, e->msg);
		else if (e->pos.file)
			fprintf(stderr, "%s: %s%s\n", e->pos.file, lvl, e->msg);
		else
			fprintf(stderr, "benchgrid: %s%s\n", lvl, e->msg);
	}
}

/* Write to PATH.tmp, then rename: a failed write leaves no half scenario. */
static int write_out(const struct fio_scenario *sc, const char *path)
{
	if (!path)
		return fio_yaml_write(sc, stdout) || fflush(stdout) ? -1 : 0;
	char tmp[4200];
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "benchgrid: cannot create %s: %s\n", tmp, strerror(errno));
		return -1;
	}
	int rc = fio_yaml_write(sc, f);
	if (fclose(f) || rc || rename(tmp, path)) {
		fprintf(stderr, "benchgrid: cannot write %s: %s\n", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

static int import_main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"output", required_argument, NULL, 'o'},
	    {"partial", no_argument, NULL, 'p'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const char *out = NULL;
	bool partial = false;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		if (c == 'o')
			out = optarg;
		else if (c == 'p')
			partial = true;
		else if (c == 'h') {
			usage(stdout);
			return 0;
		} else {
			usage(stderr);
			return CLI_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	const char *job = argv[optind];
	struct diag d;
	diag_init(&d);
	struct fio_ini ini;
	struct fio_scenario sc;
	int rc = fio_ini_read(job, &ini, &d);
	bool mapped = rc == 0;
	int mrc = mapped ? fio_map(&ini, job, partial, &sc, &d) : -1;
	print_problems(&d);
	if (rc == 0 && mrc == 0)
		rc = write_out(&sc, out) ? CLI_EXIT_FAIL : 0;
	else
		rc = CLI_EXIT_USAGE;
	if (rc == CLI_EXIT_USAGE && d.nerrors)
		fprintf(stderr, "benchgrid: %zu problem%s in %s: no scenario written%s\n", d.nerrors,
		        d.nerrors == 1 ? "" : "s", job,
		        partial || !mapped ? "" : " (--partial writes them as comments)");
	if (mapped)
		fio_scenario_free(&sc);
	fio_ini_free(&ini);
	diag_free(&d);
	return rc;
}

const struct cli_command cli_import_fio = {"import-fio", "convert a fio job file into a scenario",
                                           import_main};
