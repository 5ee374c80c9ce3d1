/* pgb_run_cfg: what a pgbench load is asked to do (struct pgb_run_cfg) and
 * what it gives back (struct pgb_run_out); see pgb_run.h. */
#ifndef BENCHGRID_PGB_RUN_CFG_H
#define BENCHGRID_PGB_RUN_CFG_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "hist.h"
#include "pgb_fail_opts.h"
#include "pgb_script.h"

enum pgb_protocol { PGB_PROTO_SIMPLE, PGB_PROTO_EXTENDED, PGB_PROTO_PREPARED };

struct pgb_run_cfg {
	const char *conninfo;
	const char *app_name;        /* application_name of every client connection */
	const struct pgb_prog *prog; /* finished */
	enum pgb_protocol protocol;
	int clients;          /* >= 1 */
	int threads;          /* 1..clients */
	double duration;      /* seconds; 0: run `transactions` per client */
	int64_t transactions; /* per client, when duration is 0 */
	double rate;          /* transactions per second over all clients; 0 = as fast as possible */
	bool connect_per_txn; /* a new connection for every transaction */
	double progress;      /* seconds between progress samples; 0 = none */
	int64_t scale;        /* value of :scale */
	bool per_statement;   /* time every command */
	uint64_t seed;
	volatile sig_atomic_t *stop; /* ends the run early (not an error) */
	double timeout;              /* seconds, 0 = none: ends the run with an error */
	/* debug(): one line (with its newline), from any client thread; NULL:
	 * stderr */
	void (*debug)(void *arg, const char *line);
	void *debug_arg;
	/* called from the calling thread every `progress` seconds */
	void (*on_progress)(void *arg, double t, double tps, double lat_ms);
	void *progress_arg;
	/* failures, retries, latency limit, logs (pgb_fail_opts.h) */
	struct pgb_fail_cfg fail;
	/* \shell, \setshell: as this user (run_as:) rather than benchgrid's */
	bool shell_as_user;
	uid_t shell_uid;
	gid_t shell_gid;
	const gid_t *shell_groups;
	size_t shell_ngroups;
};

struct pgb_run_out {
	struct hist lat;      /* transaction latencies (ns) */
	int64_t transactions; /* completed */
	int64_t failed;       /* ended by a serialization failure or deadlock */
	double elapsed;       /* seconds from the start barrier to the last client's end */
	double conn_time;     /* seconds spent connecting, summed over clients (after the start) */
	int64_t connections;  /* connections made in total */
	int ncmd;             /* commands over all scripts, in script order */
	double *cmd_ns;       /* per command: summed latency (ns) */
	int64_t *cmd_n;       /* per command: executions */
	/* several scripts: per script, in script order (NULL with one script) */
	struct hist *script_lat; /* latencies of its completed transactions */
	int64_t *script_rb;      /* of those, the ones that sent a ROLLBACK */
	bool stopped;            /* the stop flag ended the run */
	char error[4096];        /* non-empty when the run failed */
	/* retries, failures by kind, late and skipped (pgb_fail_opts.h) */
	struct pgb_fail_out fail;
};

#endif
