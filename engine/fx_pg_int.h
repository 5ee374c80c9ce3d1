/* fx_pg_int: what fx_pg.c (section, reuse decision, settings) and
 * fx_pg_proc.c (binaries, user, directories, processes) share. Not for
 * other modules: use fx_pg.h. */
#ifndef BENCHGRID_FX_PG_INT_H
#define BENCHGRID_FX_PG_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "diag.h"
#include "node.h"
#include "result.h"

struct fxpg_setting {
	char *name;  /* lower case */
	char *value; /* text as PostgreSQL reads it */
	struct src_pos pos, kpos;
};

struct fxpg_ts {
	char *name;
	char *where; /* target name or absolute path, as written */
	char *path;  /* the location directory (resolved at prepare) */
	struct src_pos pos;
};

struct fxpg_init {
	bool on;
	int scale, fillfactor, partitions;
	bool unlogged, server_side, foreign_keys, partition_hash;
	char *tablespace;
	struct src_pos pos, ts_pos;
};

/* The parsed `postgres:` section. */
struct fxpg_cfg {
	struct src_pos pos;
	char *bin_dir;
	struct src_pos bin_pos;
	char *run_as;
	struct src_pos run_as_pos;
	struct fxpg_setting *set;
	size_t nset;
	char *wal_dir, *wal_path; /* as written; resolved location */
	struct src_pos wal_pos;
	struct fxpg_ts *ts;
	size_t nts;
	struct fxpg_init init;
	bool fresh;
	char **initdb_opts;
	size_t ninitdb;
	char *external;
	struct src_pos ext_pos;
	int port; /* 0 = a free one */
};

struct fx_pg {
	struct fxpg_cfg cfg; /* the configuration in force */
	bool external;
	char *conninfo;
	char *bin_dir, *version;
	char *data_parent, *datadir, *sockdir, *logfile;
	char *superuser;
	int port;
	/* the server user */
	bool switch_user;
	uid_t uid;
	gid_t gid;
	gid_t *groups;
	int ngroups;
	char **envp;              /* environment for the server's programs */
	pid_t pid;                /* postmaster (our child), 0 when not running */
	int token_pg, token_sock; /* state journal entries */
	bool made_datadir, made_sockdir;
	char *waldir;   /* WAL location we created, or NULL */
	char **made_ts; /* tablespace locations we created */
	size_t nmade_ts;
	bool conf_unknown; /* a failed cell wrote its configuration: restart next time */
	bool loaded;       /* pgbench data of loaded_init is in the cluster */
	struct fxpg_init loaded_init;
};

int fxpg_cfg_parse(const struct node *sec, struct fxpg_cfg *c, struct diag *d);
void fxpg_cfg_free(struct fxpg_cfg *c);
const struct src_pos *fxpg_blame(const struct fxpg_cfg *c, const char *log);
int fxpg_setting_matches(const char *want, const char *vartype, const char *unit, const char *setting);

double fxpg_now(void);
void fxpg_sleep_ms(int ms);
char *fxpg_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

struct fx_pg *fxpg_new(void);
/* Server binaries: bin_dir, else the previous server's, else pg_config
 * --bindir, else /usr/lib/postgresql/<newest>/bin. */
int fxpg_find_bin_dir(const struct fx_pg *prev, const struct fxpg_cfg *c, char *out, size_t len,
                      struct diag *d);
/* User, version, directories, journal, initdb, port, conninfo. */
int fxpg_setup(struct fx_pg *pg, const struct fxpg_cfg *c, const char *bin_dir, const char *data_parent,
               const char *cell_dir, struct step_result *facts, struct diag *d);
/* Set the port and the connection string that goes with it. */
void fxpg_set_port(struct fx_pg *pg, int port);
/* Start the postmaster and wait until it accepts connections. */
int fxpg_start(struct fx_pg *pg, const struct fxpg_cfg *c, struct step_result *facts, struct diag *d);
/* pg_ctl stop -m fast; falls back to signals. */
int fxpg_stop_server(struct fx_pg *pg, struct diag *d);
/* SIGKILL every process whose working directory is the data directory. */
void fxpg_kill_orphans(struct fx_pg *pg);
/* The last `lines` lines of a file after offset `since`, indented (malloc'd), or NULL. */
char *fxpg_tail(const char *path, off_t since, int lines);

#endif
