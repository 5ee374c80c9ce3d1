/* cli_import_fio: `benchgrid import-fio JOBFILE [-o SCENARIO.yaml]
 * [--partial]`: the jobs of a fio job file as io steps (docs/import-fio.md).
 * Problems are printed as JOBFILE:LINE: MESSAGE; with any of them nothing is
 * written unless --partial, which turns them into comments. */
#include "cli_import_fio.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fio_ini.h"
#include "fio_map.h"
#include "fio_yaml.h"
#include "io_engine.h"
#include "matrix.h"
#include "plan.h"
#include "spec.h"

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

/* The scenario as text (malloc'd, NUL-terminated); NULL on a write error. */
static char *scenario_text(const struct fio_scenario *sc, size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);
	if (!f)
		return NULL;
	int rc = fio_yaml_write(sc, f);
	if (fclose(f) || rc) {
		free(text);
		return NULL;
	}
	return text;
}

/* Does the scenario pass `check`? It is checked from an anonymous file
 * (memfd), so nothing is written before it passes; check's errors are
 * printed. Import should never get here with a bad value (fio_map checks
 * the io step's ranges): this is the net under it. */
static bool passes_check(const char *text, size_t len, const char *job)
{
	int fd = memfd_create("import-fio", MFD_CLOEXEC);
	if (fd < 0 || write(fd, text, len) != (ssize_t)len) {
		fprintf(stderr, "benchgrid: cannot check the scenario made of %s: %s\n", job,
		        strerror(errno));
		if (fd >= 0)
			close(fd);
		return false;
	}
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	struct diag d;
	diag_init(&d);
	struct spec *s = spec_open(path, NULL, &d);
	struct cell *cells = NULL;
	size_t n = 0;
	if (s && s->root->kind == NODE_MAP)
		plan_build(s, &cells, &n, &d);
	bool ok = s && d.nerrors == 0;
	if (!ok) {
		fprintf(stderr,
		        "benchgrid: the scenario made of %s does not pass check (an import-fio bug): "
		        "no scenario written\n",
		        job);
		for (size_t i = 0; i < d.n; i++)
			if (d.v[i].level == DIAG_ERROR)
				fprintf(stderr, "  line %d: %s\n", d.v[i].pos.line, d.v[i].msg);
	}
	matrix_free(cells, n);
	spec_free(s);
	diag_free(&d);
	close(fd);
	return ok;
}

/* Write text to out through a fresh mkstemp file in out's folder, then
 * rename it over out: no half scenario, and no name (OUT.tmp) a planted
 * link could take. A link at out itself is refused. mode: of the file. */
static int write_file(const char *text, size_t len, const char *out, mode_t mode)
{
	struct stat st;
	if (lstat(out, &st) == 0 && !S_ISREG(st.st_mode)) {
		fprintf(stderr, "benchgrid: %s is %s: not written (name a new file or a regular one)\n", out,
		        S_ISLNK(st.st_mode) ? "a symbolic link" : "not a regular file");
		return -1;
	}
	const char *slash = strrchr(out, '/');
	char tmp[4200];
	snprintf(tmp, sizeof(tmp), "%.*s%s.%s.XXXXXX", slash ? (int)(slash - out) : 0, out, slash ? "/" : "",
	         slash ? slash + 1 : out);
	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "benchgrid: cannot create a file next to %s: %s\n", out, strerror(errno));
		return -1;
	}
	mode_t mask = umask(0);
	umask(mask);
	size_t off = 0;
	int rc = fchmod(fd, mode & ~mask);
	while (rc == 0 && off < len) {
		ssize_t w = write(fd, text + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			rc = -1;
		else
			off += (size_t)w;
	}
	if (rc || fsync(fd) || close(fd) || rename(tmp, out)) {
		fprintf(stderr, "benchgrid: cannot write %s: %s\n", out, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* May everyone read the job file (its mode)? Then so may its scenario. */
static bool job_is_public(const char *job)
{
	struct stat st;
	return stat(job, &st) == 0 && (st.st_mode & S_IROTH);
}

/* The scenario is checked, then written to standard output or to path:
 * 0644, or 0600 when the job file is not readable by everyone (--partial
 * copies its lines as comments). */
static int write_out(const struct fio_scenario *sc, const char *job, const char *path)
{
	size_t len;
	char *text = scenario_text(sc, &len);
	if (!text) {
		fprintf(stderr, "benchgrid: cannot write the scenario: out of memory\n");
		return -1;
	}
	int rc = -1;
	if (passes_check(text, len, job)) {
		if (!path)
			rc = fwrite(text, 1, len, stdout) != len || fflush(stdout) ? -1 : 0;
		else
			rc = write_file(text, len, path, job_is_public(job) ? 0644 : 0600);
	}
	free(text);
	return rc;
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
	int mrc = mapped ? fio_map(&ini, job, partial, io_engine_for_fio, &sc, &d) : -1;
	print_problems(&d);
	if (rc == 0 && mrc == 0)
		rc = write_out(&sc, job, out) ? CLI_EXIT_FAIL : 0;
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
