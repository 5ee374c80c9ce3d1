/* pgb_vacuum: see pgb_vacuum.h. */
#include "pgb_vacuum.h"

#include <string.h>
#include "clock.h"

static const char *const pgb_vacuum_sql[] = {
    "vacuum pgbench_branches",
    "vacuum pgbench_tellers",
    "truncate pgbench_history",
};

int pgb_vacuum(PGconn *c, struct step_result *res)
{
	double t0 = clock_mono();
	int failed = 0;

	for (size_t i = 0; i < sizeof(pgb_vacuum_sql) / sizeof(pgb_vacuum_sql[0]); i++) {
		PGresult *r = PQexec(c, pgb_vacuum_sql[i]);

		if (PQresultStatus(r) != PGRES_COMMAND_OK) {
			const char *msg = PQerrorMessage(c);
			size_t len = strlen(msg);

			while (len && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
				len--;
			result_info(res, "warning",
			            "pgbench: %s: %.*s (ignoring this error and continuing anyway, as "
			            "pgbench does; vacuum: false skips it)",
			            pgb_vacuum_sql[i], (int)len, msg);
			failed++;
		}
		PQclear(r);
	}
	if (failed)
		result_info(res, "pgbench.vacuum", "%d of 3 statements failed", failed);
	else
		result_info(res, "pgbench.vacuum", "done");
	result_info(res, "pgbench.vacuum_s", "%.3f", clock_mono() - t0);
	return failed;
}
