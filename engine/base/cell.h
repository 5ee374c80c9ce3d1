/* cell: one point of the expanded matrix, and what a step runs with. */
#ifndef BENCHGRID_CELL_H
#define BENCHGRID_CELL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "node.h"

struct cell {
	size_t index;        /* position in the expansion (after filter), 0-based */
	char id[13];         /* 12 hex chars: hash of the parameters, stable */
	struct node *params; /* NODE_MAP: parameter name -> scalar as written */
	/* Hashes of the cell's interpolated target(s) and postgres sections:
	 * cells with equal keys share a filesystem / cluster, so the runner
	 * orders them together (set by plan_build). */
	uint64_t fs_key, pg_key;
	/* A target of the cell has `fresh: per-cell`: it shares no filesystem,
	 * whatever fs_key (which still orders it with its like). */
	bool fresh_fs;
	/* The cell's steps as its own tree names them, and which its `when:`
	 * skips (set by plan_build, for plan's output; the run decides again);
	 * NULL and 0 when plan_build did not set them. Freed by cell_steps_free. */
	struct cell_step *steps;
	size_t nsteps;
};

struct cell_step {
	char *name;
	bool skipped;
};

/* Free c's steps (and set them to NULL, 0). */
void cell_steps_free(struct cell *c);
/* Does c set up its filesystem anew after prev (NULL: c runs first)? */
bool cell_new_fs(const struct cell *prev, const struct cell *c);
/* A copy of from's steps into to (which has none); -ENOMEM. */
int cell_steps_copy(struct cell *to, const struct cell *from);
/* "name=value name=value" of c's parameters, "(single cell)" when it has
 * none, cut to len: for people (the terminal's lines, the journal). */
void cell_label(const struct cell *c, char *buf, size_t len);

struct lb; /* lua/lb.h */

/* Everything a workload may use while it runs one step of one cell. */
struct step_ctx {
	const struct cell *cell;
	const char *target_dir; /* directory where the cell's files live */
	/* a raw device target (kind: device, fs: none), for io's file: "@device",
	 * or NULL; device_refuse: why writing to it is refused, NULL if allowed */
	const char *device, *device_refuse;
	const char *cell_dir; /* OUTDIR/cells/<id>: logs and artefacts */
	/* cell_dir opened by the run (never through a link, owner and mode
	 * checked: run/outdir.h); write files into it with model's
	 * results_file_write(cell_dirfd, NAME, ...). 0 or less: none (a workload
	 * then opens cell_dir itself with O_DIRECTORY|O_NOFOLLOW). */
	int cell_dirfd;
	/* What the cell's fixtures offer, by the names a scenario reads them
	 * with in ${...} (docs/scenario.md: target.path, pg.conninfo, pg.log),
	 * a map of NAME: scalar, or NULL. A workload asks for what it needs by
	 * name (step_ctx_name), so that this layer names none of them. */
	const struct node *names;
	/* The scenario's Lua state (its hooks' functions), for a workload that
	 * calls Lua (exec's parse:); NULL: the scenario has no hooks. Opaque
	 * here: lua/lb.h. */
	struct lb *lua;
	const char *step_name;
	/* the step runs beside others (a parallel group, a background step, or
	 * a foreground step beside one): what a workload shares by default
	 * between steps run one after another (io's default file) it makes
	 * its own */
	bool overlaps;
	/* the repetition this run of the step belongs to: 0..nrep-1, or
	 * negative for the warm-ups (-warmup..-1); files a step writes into
	 * cell_dir are named by step_file_name() so that repetitions keep theirs */
	long rep, nrep;
	const char *scenario_dir;    /* folder of the scenario file */
	double timeout;              /* seconds, 0 = none */
	volatile sig_atomic_t *stop; /* set on SIGINT/SIGTERM: end the step early */
	int verbose;                 /* print progress lines on stderr when > 0 */
	/* Optional: report a live figure (unit, value), e.g. ("MB/s", 512.0),
	 * for the progress line; may be NULL. Call it at most a few times a
	 * second, never per I/O. */
	void (*progress)(void *ud, const char *unit, double value);
	void *progress_ud;
};

/* The run-time name `name` of cx (step_ctx.names), e.g. "pg.conninfo" for
 * the cell's server, or NULL when the cell has none. */
const char *step_ctx_name(const struct step_ctx *cx, const char *name);

/* The name of a file the step writes into its cell's folder: "STEP.EXT",
 * the step's name with characters other than [A-Za-z0-9._-] replaced by '_'
 * ("step" when it has none), and ".repN" (from 1) before the extension when
 * the cell runs more than one repetition, ".warmupN" for a warm-up run.
 * The extension always fits; the name is cut to len. */
void step_file_name(const struct step_ctx *cx, const char *ext, char *name, size_t len);
/* The same name without ".EXT" ("STEP" or "STEP.repN"), for a step that
 * writes several files of one stem (STEM.log.0, STEM.log.1, ...); cut to
 * len - reserve bytes, so that reserve bytes of suffix always fit. */
void step_file_stem(const struct step_ctx *cx, char *stem, size_t len, size_t reserve);

#endif
