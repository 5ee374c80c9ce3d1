/* store: the results history, one database of every finished run.
 *
 * A store is an embedded SQLite file (the default,
 * ~/.local/share/benchgrid/results.db) or a PostgreSQL database named by a
 * postgresql:// (or postgres://) URL. Both hold the same schema (runs,
 * cells, params, steps, metrics, samples, facts, environment,
 * schema_version; docs/results.md), created and migrated by store_open. A
 * run is keyed by its run id (a hash of the scenario, its start time and
 * host), so storing it again adds nothing. */
#ifndef BENCHGRID_STORE_H
#define BENCHGRID_STORE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "run_cells.h"

struct store;

/* The store named by spec: NULL or "" means $BENCHGRID_STORE, else the
 * default file under $XDG_DATA_HOME (or ~/.local/share)/benchgrid. Written
 * into buf; returns buf, or NULL when the store is switched off
 * (BENCHGRID_STORE=none) or no home is known (why in buf). */
const char *store_resolve(const char *spec, char *buf, size_t len);
bool store_is_url(const char *spec);

/* Open the store named by spec (already resolved). Writable opens create
 * the file (and its missing parent directories, mode 0700) and migrate the
 * schema; read-only opens never create a file or a table (-ENOENT when
 * there is none). 0, or a negative errno with why in err. */
int store_open(const char *spec, bool readonly, struct store **out, char *err, size_t errlen);
void store_close(struct store *s);

/* A run's id (run_id in run_cells.h). */
void store_run_id(const struct run *r, char out[17]);

/* Record a finished run: r as read from results.json (root, the parsed
 * file, for what the model does not keep: the cells' setup_seconds), and
 * its directory. One transaction: 0 stored, 1 already stored (nothing
 * written), negative with why in err. */
int store_put_run(struct store *s, const struct run *r, const json_t *root, const char *run_dir, char *err,
                  size_t errlen);
/* Read DIR/results.json and store it as above. A run that did not finish
 * (interrupted) is refused with -EAGAIN. */
int store_put_dir(struct store *s, const char *dir, char *err, size_t errlen);

#endif
