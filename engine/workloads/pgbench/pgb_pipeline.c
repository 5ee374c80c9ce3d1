/* pgb_pipeline: libpq pipeline mode for \startpipeline ... \endpipeline
 * (see pgb_pipeline.h). The script checks (pgb_script_meta.c) already
 * rejected nesting, a missing end, \gset inside and the simple protocol;
 * the run-time checks catch what \if blocks hide. */
#include "pgb_pipeline.h"

#include <stdio.h>
#include <libpq-fe.h>
#include "pgb_run_cfg.h"

static void pgbp_fail(struct pgbc_client *c, const struct pgb_script *sc, const struct pgb_cmd *cmd,
                      const char *msg, const char *detail)
{
	pgbc_fail(c->th->sh, "client %d: script %s line %d command %d (%s): %s%s%s", c->id, sc->name,
	          cmd->line, (int)(cmd - sc->cmd) + 1, cmd->text, msg, detail ? ": " : "",
	          detail ? detail : "");
}

int pgbp_start(struct pgbc_client *c, const struct pgb_script *sc, const struct pgb_cmd *cmd)
{
	if (c->in_pipe) {
		pgbp_fail(c, sc, cmd, "already in pipeline mode", NULL);
		return -1;
	}
	if (!PQenterPipelineMode(c->conn)) {
		pgbp_fail(c, sc, cmd, "cannot enter pipeline mode", PQerrorMessage(c->conn));
		return -1;
	}
	c->in_pipe = true;
	return 0;
}

int pgbp_end(struct pgbc_client *c, const struct pgb_script *sc, const struct pgb_cmd *cmd)
{
	if (!c->in_pipe) {
		pgbp_fail(c, sc, cmd, "not in pipeline mode", NULL);
		return -1;
	}
	if (!PQpipelineSync(c->conn)) {
		pgbp_fail(c, sc, cmd, "cannot send the pipeline's sync", PQerrorMessage(c->conn));
		return -1;
	}
	c->pipe_wait = true;
	c->state = CS_WAIT;
	return 1;
}

int pgbp_input(struct pgbc_client *c)
{
	const struct pgb_script *sc = &c->th->sh->cfg->prog->scripts[c->script];
	const struct pgb_cmd *cmd = &sc->cmd[c->cmd];
	int nulls = 0;

	if (!PQconsumeInput(c->conn)) {
		pgbp_fail(c, sc, cmd, "connection to the server lost", PQerrorMessage(c->conn));
		return -1;
	}
	/* results of each statement, a NULL after each, then the sync */
	while (!PQisBusy(c->conn)) {
		PGresult *r = PQgetResult(c->conn);

		if (!r) {
			if (++nulls > 1)
				return 0; /* between statements, waiting for more */
			continue;
		}
		nulls = 0;
		ExecStatusType st = PQresultStatus(r);

		if (st == PGRES_PIPELINE_SYNC) {
			PQclear(r);
			if (!PQexitPipelineMode(c->conn)) {
				pgbp_fail(c, sc, cmd, "cannot leave pipeline mode", PQerrorMessage(c->conn));
				return -1;
			}
			c->in_pipe = c->pipe_wait = false;
			return 1;
		}
		if (st == PGRES_FATAL_ERROR) {
			pgbp_fail(c, sc, cmd, "a statement of the pipeline failed", PQresultErrorMessage(r));
			PQclear(r);
			return -1;
		}
		PQclear(r);
	}
	return 0;
}
