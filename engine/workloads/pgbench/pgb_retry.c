/* pgb_retry: retries, failures by kind, late and skipped transactions, and
 * the calls into the logs (see pgb_retry.h). */
#include "pgb_retry.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "pgb_log.h"

void pgb_retry_thread_init(struct pgb_retry_thread *t, const struct pgb_fail_cfg *f, int idx,
                           struct pgb_rng *sample)
{
	memset(t, 0, sizeof(*t));
	t->log = f->logs && idx < f->nlogs ? &f->logs[idx] : NULL;
	if (t->log)
		t->log->sample = sample;
	t->on = pgb_fail_retries(f) || f->latency_limit_ns > 0 || f->verbose_errors || t->log;
}

void pgb_retry_txn_begin(struct pgb_retry_client *r, const struct pgb_rng *rng, int64_t t_start)
{
	r->rng_saved = *rng;
	r->t_start = t_start;
	r->tries = 1;
	r->estatus = PGB_TXN_OK;
}

void pgb_retry_note_error(struct pgb_retry_client *r, const struct pgb_fail_cfg *f, const PGresult *res,
                          int client, int cmd, int script)
{
	const char *st = PQresultErrorField(res, PG_DIAG_SQLSTATE);

	r->estatus = st && !strcmp(st, "40P01") ? PGB_TXN_DEADLOCK : PGB_TXN_SERIALIZATION;
	if (!f->verbose_errors)
		return;
	/* pgbench's pg_log_info line; libpq's message ends with its newline */
	const char *msg = PQresultErrorMessage(res);
	size_t n = strlen(msg);

	while (n && msg[n - 1] == '\n')
		n--;
	fprintf(f->err_log, "pgbench: client %d got an error in command %d (SQL) of script %d; %.*s\n",
	        client, cmd, script, (int)n, msg);
}

/* pgbench's line about a retry or a failure, with the try, the maximum and
 * the share of the latency limit used. */
static void pgb_retry_verbose(const struct pgb_retry_client *r, const struct pgb_fail_cfg *f, int client,
                              int64_t latency_ns, bool again)
{
	char max[32] = "", used[96] = "";

	if (f->max_tries > 0)
		snprintf(max, sizeof(max), "/%" PRId64, f->max_tries);
	if (f->latency_limit_ns)
		snprintf(used, sizeof(used), ", %.3f%% of the maximum time of tries was used",
		         100.0 * (double)(latency_ns / 1000) / (double)(f->latency_limit_ns / 1000));
	fprintf(f->err_log, "pgbench: client %d %s (try %" PRId64 "%s%s)\n", client,
	        again ? "repeats the transaction after the error" : "ends the failed transaction", r->tries,
	        max, used);
}

enum pgb_retry_verdict pgb_retry_decide(struct pgb_retry_client *r, struct pgb_retry_thread *t,
                                        const struct pgb_fail_cfg *f, int client, int64_t latency_ns,
                                        bool time_over)
{
	if (time_over) /* as pgbench: the client ends, the try is not counted */
		return PGB_RETRY_STOP;
	bool again = pgb_fail_retries(f) && (f->max_tries < 0 || r->tries < f->max_tries) &&
	             (!f->latency_limit_ns || latency_ns <= f->latency_limit_ns);

	if (f->verbose_errors)
		pgb_retry_verbose(r, f, client, latency_ns, again);
	if (again)
		return PGB_RETRY_AGAIN;
	if (r->estatus == PGB_TXN_DEADLOCK)
		t->fail_dl++;
	else
		t->fail_ser++;
	return PGB_RETRY_FAIL;
}

void pgb_retry_again(struct pgb_retry_client *r, struct pgb_rng *rng)
{
	r->tries++;
	*rng = r->rng_saved;
}

void pgb_retry_txn_end(struct pgb_retry_client *r, struct pgb_retry_thread *t, const struct pgb_fail_cfg *f,
                       const struct pgb_retry_end *e)
{
	int64_t lat = e->failed || e->skipped ? 0 : e->end_ns - e->sched_ns;

	if (e->skipped) {
		t->skipped++;
	} else {
		if (r->tries > 1) {
			t->retried++;
			t->retries += r->tries - 1;
		}
		if (f->latency_limit_ns && lat > f->latency_limit_ns)
			t->late++;
	}
	if (!t->log)
		return;
	struct pgb_log_txn x = {
	    .client = e->client,
	    .txn_no = e->txn_no,
	    .script = e->script,
	    .end_ns = e->end_ns,
	    .lat_ns = lat,
	    .lag_ns = !e->failed && !e->skipped && f->throttled ? r->t_start - e->sched_ns : 0,
	    .tries = e->skipped ? 1 : r->tries,
	    .status = e->skipped  ? PGB_TXN_SKIPPED
	              : e->failed ? (enum pgb_txn_status)r->estatus
	                          : PGB_TXN_OK,
	};

	pgb_log_txn(t->log, f, e->thread_start_ns, &x);
}

void pgb_retry_thread_end(struct pgb_retry_thread *t, const struct pgb_fail_cfg *f, int64_t thread_start_ns,
                          int64_t end_ns, struct pgb_fail_out *out)
{
	if (t->log)
		pgb_log_thread_end(t->log, f, thread_start_ns, end_ns);
	out->retried += t->retried;
	out->retries += t->retries;
	out->serialization_failures += t->fail_ser;
	out->deadlock_failures += t->fail_dl;
	out->late += t->late;
	out->skipped += t->skipped;
}
