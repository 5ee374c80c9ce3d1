/* cli_store: `benchgrid store DIR...` and the run's record in the history. */
#include "cli_store.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"

const char *cli_store_shown(const char *spec)
{
	return store_is_url(spec) ? "the PostgreSQL store" : spec;
}

int cli_store_record(const struct cli_store_opt *o, const char *dir, bool quiet)
{
	const char *env = getenv("BENCHGRID_STORE");
	if (o->off || (!o->spec && env && !strcmp(env, "none")))
		return 0;
	char spec[4096], err[1024];
	if (!store_resolve(o->spec, spec, sizeof(spec))) {
		fprintf(stderr, "benchgrid: results not stored: %s\n", spec);
		return -1;
	}
	struct store *s;
	int rc = store_open(spec, false, &s, err, sizeof(err));
	if (rc == 0) {
		rc = store_put_dir(s, dir, err, sizeof(err));
		store_close(s);
	}
	if (rc < 0) {
		fprintf(stderr, "benchgrid: results not stored: %s\n", err);
		return -1;
	}
	if (!quiet)
		fprintf(stderr, "%s in the results history (%s)\n", rc == 1 ? "already recorded" : "recorded",
		        cli_store_shown(spec));
	return 0;
}

static void store_usage(FILE *out)
{
	fprintf(out, "usage: benchgrid store [--store PATH|URL] DIR...\n\n"
	             "Record finished runs (each DIR's results.json) in the results history, as\n"
	             "`benchgrid run` does at the end of every run. A run already recorded is\n"
	             "left as it is.\n\n"
	             "  --store PATH|URL   an SQLite file, or a PostgreSQL database as\n"
	             "                     postgresql://user@host/db (default $BENCHGRID_STORE,\n"
	             "                     else ~/.local/share/benchgrid/results.db)\n\n"
	             "Exit status: 0 every run recorded (or already there); 1 a run could not be\n"
	             "read or recorded; 2 bad arguments.\n");
}

static int store_main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"store", required_argument, NULL, 's'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const char *opt_spec = NULL;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 's': opt_spec = optarg; break;
		case 'h': store_usage(stdout); return 0;
		default: store_usage(stderr); return CLI_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		store_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	char spec[4096], err[1024];
	if (!store_resolve(opt_spec, spec, sizeof(spec))) {
		fprintf(stderr, "benchgrid store: %s\n", spec);
		return CLI_EXIT_USAGE;
	}
	struct store *s;
	if (store_open(spec, false, &s, err, sizeof(err)) < 0) {
		fprintf(stderr, "benchgrid store: %s\n", err);
		return CLI_EXIT_FAIL;
	}
	int rc = 0;
	for (int i = optind; i < argc; i++) {
		int r = store_put_dir(s, argv[i], err, sizeof(err));
		if (r < 0) {
			fprintf(stderr, "benchgrid store: %s\n", err);
			rc = CLI_EXIT_FAIL;
		} else {
			printf("%s: %s\n", argv[i], r == 1 ? "already recorded" : "recorded");
		}
	}
	store_close(s);
	return rc;
}

const struct cli_command cli_store = {"store", "record finished runs in the results history", store_main};
