/* step_one: the parts of one step's run that step_run.c and step_conc.c
 * share: read it (with the before_step hook), begin it (its result and the
 * progress line), run its workload (on the calling thread), and end it
 * (verdict, after_step hook, summary, into the cell's record). Inside
 * engine/run only. */
#ifndef BENCHGRID_STEP_ONE_H
#define BENCHGRID_STEP_ONE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "cell.h"
#include "results.h"
#include "run_env.h"

struct workload_ops;

/* How a cell (or a repetition) ended. */
enum { STEPS_OK = 0, STEPS_FAILED = 1, STEPS_INTERRUPTED = 2 };

/* The first error of a diag list as one line ("" when there is none). */
void step_run_first_error(const struct diag *d, char *buf, size_t len);

/* One step as the scenario gives it, with the before_step hook's changes. */
struct step {
	char name[128];
	bool record;
	bool server_stats; /* sample the server's activity (pg_activity.h) */
	double timeout;
	const struct workload_ops *ops;
	struct node *opts; /* a copy of the options, NULL without a workload */
};

/* Read step i of st into S (the before_step hook runs here: main thread). */
void step_read(struct run_env *E, const struct cell *c, const struct node *st, size_t i, struct step *S,
               struct diag *sd);
/* Read it, init res and sd, show its progress line, note its start. */
void step_begin(struct run_env *E, const struct cell *c, const struct node *st, size_t i, struct step *S,
                struct step_result *res, struct diag *sd);
/* Run the workload with the monitor and the server's sampler. own_stop
 * NULL: the sweep's step flag and SIGALRM timeout, the device models'
 * utilisation, the live line (the sequential path). Else: the step's own
 * flag, on a thread beside other steps (step_conc.h). */
int step_exec(struct run_env *E, const struct cell *c, const struct step *S, long rep, const char *cell_dir,
              struct step_result *res, struct diag *sd, volatile sig_atomic_t *own_stop);
/* Why the step failed, if it did, into res. */
void step_verdict(const struct step *S, const struct diag *sd, int rc_run, bool timed_out,
                  struct step_result *res);
/* Verdict, hooks, progress, record (frees S's options and sd). STEPS_*:
 * STEPS_INTERRUPTED when the sweep is stopping (res freed). */
int step_end(struct run_env *E, const struct cell *c, struct step *S, struct run_cell *rc, long rep,
             struct step_result *res, struct diag *sd, int rc_run, bool timed_out);
/* A short summary of a step's figures for its progress line (its headline
 * first): "iops=25800 lat_p99=1.234 ms mb_s=100.8". */
void step_summary(const struct step_result *r, char *buf, size_t len);
/* A step its when: skips, recorded as skipped. */
void step_skip(struct run_env *E, const struct node *st, size_t i, const char *why, struct run_cell *rc,
               long rep);

#endif
