/* pgb_run: the load-driving engine of the pgbench step.
 *
 * `threads` worker threads each drive a share of `clients` connections. A
 * thread never blocks on one connection: every client is a small state
 * machine (pgb_client.c) and the thread waits on all its sockets and the
 * earliest sleep/schedule deadline at once with epoll. Threads connect their
 * clients, meet at a barrier, run, and hand back per-thread statistics that
 * are merged after join: a latency histogram (struct hist), counters and
 * per-command latency sums. The calling thread watches the stop flag and the
 * timeout and samples per-thread counters for progress reports. */
#ifndef BENCHGRID_PGB_RUN_H
#define BENCHGRID_PGB_RUN_H

#include "pgb_run_cfg.h"

/* Run the load. Returns 0, or a negative errno with out->error set (a
 * statement error, a lost connection, a timeout). out->cmd_* are allocated:
 * release them with pgb_run_out_free. */
int pgb_run(const struct pgb_run_cfg *cfg, struct pgb_run_out *out);
void pgb_run_out_free(struct pgb_run_out *out);

#endif
