/* rep_md_noise: report.md's "Repetitions" and "Noise" sections.
 *
 *   ## Repetitions  with `repeat: {min, max, until}`: per cell, how many
 *                   repetitions ran and why they stopped (converged, or max
 *                   reached with the widest interval still above the goal),
 *                   from the facts repeat.runs, repeat.stopped, repeat.ci_pct
 *   ## Noise        every step during which the machine was busy with
 *                   something else, from the noise.* info the runner's
 *                   monitor recorded (engine/run/noise.h); a step is
 *                   flagged when
 *                     - other processes used more than NOISE_FOREIGN_PCT of
 *                       all CPUs' time,
 *                     - CPU steal was above NOISE_STEAL_PCT,
 *                     - memory pressure (PSI some avg10) was above
 *                       NOISE_PSI_PCT,
 *                     - the 1-minute load average at the step's start was
 *                       above the number of CPUs (NOISE_LOAD_PER_CPU each).
 * Nothing is written when there is nothing to say. */
#ifndef BENCHGRID_REP_MD_NOISE_H
#define BENCHGRID_REP_MD_NOISE_H

#include "rep_md_doc.h"

#define NOISE_FOREIGN_PCT  10.0
#define NOISE_STEAL_PCT    5.0
#define NOISE_PSI_PCT      10.0
#define NOISE_LOAD_PER_CPU 1.0

void rep_md_noise(struct rep_ctx *cx, struct md *m);

/* Why step r was noisy, "" when it was not (or recorded nothing). */
void rep_md_noise_reasons(const struct step_result *r, char *buf, size_t len);

#endif
