/* interrupt: SIGINT, SIGTERM and SIGHUP end the running step early and stop
 * the sweep (a running Lua call too: lb_set_stop), and the run tears down and
 * exits 130; a second one exits at once (status 130), leaving what the
 * teardown has not undone to `benchgrid cleanup`. A step's timeout (SIGALRM)
 * ends only that step. Workloads poll
 * the flag interrupt_step_flag() gives them (struct step_ctx.stop). */
#ifndef BENCHGRID_INTERRUPT_H
#define BENCHGRID_INTERRUPT_H

#include <signal.h>
#include <stdbool.h>

/* Install the handlers (and ignore SIGPIPE) for the whole run. */
void interrupt_install(void);
/* Has a signal asked the sweep to stop? */
bool interrupt_requested(void);
/* A step starts: its flag is set now if the sweep is stopping, and by a
 * signal or the timeout later. secs 0: no timeout. */
void interrupt_step_begin(double secs);
/* The step ended: no timeout any more. */
void interrupt_step_end(void);
/* Did the step's timeout (and not a signal) end it? */
bool interrupt_step_timed_out(void);
/* The flag a signal sets for the whole run (never cleared): non-zero when
 * the sweep must stop. For the Lua bridge (lb_set_stop). */
volatile sig_atomic_t *interrupt_stop_flag(void);
/* The flag the running step polls: non-zero when it must end. */
volatile sig_atomic_t *interrupt_step_flag(void);

#endif
