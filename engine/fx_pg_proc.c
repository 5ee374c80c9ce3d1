/* fx_pg_proc: the system side of the managed PostgreSQL server.
 *
 * Finds the server binaries, resolves the server user, creates the data,
 * WAL, tablespace and socket directories owned by that user, runs initdb,
 * postgres and pg_ctl as that user (fork, setgroups/setgid/setuid in the
 * child, execve with an argv: never a shell), watches the postmaster (our
 * child, in its own session so a terminal's Ctrl-C does not reach it) and
 * stops it with pg_ctl stop -m fast. A postmaster killed with SIGKILL leaves
 * its backends behind; they are found by their working directory (every
 * server process chdir()s into the data directory) and killed. */
#include "fx_pg_int.h"
#include "fx_pg.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <glob.h>
#include <grp.h>
#include <limits.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <libpq-fe.h>

#include "state.h"

extern char **environ;

#define FXPG_START_TIMEOUT_MS 300000
#define FXPG_TAIL_LINES       20

struct fx_pg *fxpg_new(void)
{
	struct fx_pg *pg = calloc(1, sizeof(*pg));
	pg->token_pg = pg->token_sock = -1;
	return pg;
}

/* ---- spawning ----------------------------------------------------------- */

/* Environment for the server's programs: ours without PG* variables (they
 * would redirect pg_ctl or initdb) and with C messages, which we parse. */
static char **fxpg_env(void)
{
	size_t n = 0;
	while (environ[n])
		n++;
	char **e = calloc(n + 2, sizeof(char *));
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (strncmp(environ[i], "PG", 2) == 0 || strncmp(environ[i], "LC_ALL=", 7) == 0 ||
		    strncmp(environ[i], "LC_MESSAGES=", 12) == 0)
			continue;
		e[k++] = strdup(environ[i]);
	}
	e[k++] = strdup("LC_MESSAGES=C");
	return e;
}

/* fork + exec argv (argv[0] a path, or a bare name searched in PATH) with
 * stdout and stderr on out_fd, stdin on /dev/null, as the server user when
 * as_server. new_session puts it in its own session. Returns the pid. */
static pid_t fxpg_spawn(const struct fx_pg *pg, char *const argv[], int out_fd, bool as_server,
                        bool new_session)
{
	char **envp = pg->envp ? pg->envp : environ;
	int nul = open("/dev/null", O_RDONLY | O_CLOEXEC);
	pid_t pid = fork();
	if (pid != 0) {
		if (nul >= 0)
			close(nul);
		return pid < 0 ? -errno : pid;
	}
	/* child: only async-signal-safe calls from here on */
	if (nul >= 0)
		dup2(nul, 0);
	if (out_fd >= 0) {
		dup2(out_fd, 1);
		dup2(out_fd, 2);
	}
	if (close_range(3, ~0U, 0) != 0)
		for (int fd = 3; fd < 1024; fd++)
			close(fd);
	if (new_session)
		setsid();
	signal(SIGPIPE, SIG_DFL);
	sigset_t all;
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	if (as_server && pg->switch_user) {
		if (setgroups(pg->ngroups, pg->groups) || setgid(pg->gid) || setuid(pg->uid))
			_exit(126);
	}
	if (chdir("/"))
		_exit(126);
	if (strchr(argv[0], '/'))
		execve(argv[0], argv, envp);
	else
		execvpe(argv[0], argv, envp);
	_exit(127);
}

static int fxpg_wait(pid_t pid)
{
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Run and wait; output appended to out_fd. Exit status, or <0. */
static int fxpg_run(const struct fx_pg *pg, char *const argv[], int out_fd, bool as_server)
{
	pid_t pid = fxpg_spawn(pg, argv, out_fd, as_server, false);
	return pid < 0 ? pid : fxpg_wait(pid);
}

/* Run and capture the first len-1 bytes of its output. */
static int fxpg_capture(const struct fx_pg *pg, char *const argv[], bool as_server, char *buf, size_t len)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC))
		return -errno;
	pid_t pid = fxpg_spawn(pg, argv, p[1], as_server, false);
	close(p[1]);
	size_t got = 0;
	ssize_t r;
	char sink[512];
	while ((r = read(p[0], got + 1 < len ? buf + got : sink,
	                 got + 1 < len ? len - 1 - got : sizeof(sink))) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		if (got + 1 < len)
			got += r;
	}
	buf[got] = 0;
	close(p[0]);
	return pid < 0 ? pid : fxpg_wait(pid);
}

/* ---- binaries ------------------------------------------------------------ */

static bool fxpg_has_server(const char *dir)
{
	static const char *const progs[] = {"initdb", "postgres", "pg_ctl"};
	char p[PATH_MAX];
	for (int i = 0; i < 3; i++) {
		if (snprintf(p, sizeof(p), "%s/%s", dir, progs[i]) >= (int)sizeof(p) || access(p, X_OK))
			return false;
	}
	return true;
}

static int fxpg_ver_cmp(const void *a, const void *b)
{
	/* /usr/lib/postgresql/<ver>/bin: newest first */
	const char *x = *(char *const *)a + strlen("/usr/lib/postgresql/");
	const char *y = *(char *const *)b + strlen("/usr/lib/postgresql/");
	double vx = atof(x), vy = atof(y);
	return vx < vy ? 1 : vx > vy ? -1 : 0;
}

int fxpg_find_bin_dir(const struct fx_pg *prev, const struct fxpg_cfg *c, char *out, size_t len,
                      struct diag *d)
{
	if (c->bin_dir) {
		if (!fxpg_has_server(c->bin_dir)) {
			diag_error(d, &c->bin_pos, "postgres.bin_dir: no initdb, postgres and pg_ctl in %s",
			           c->bin_dir);
			return -ENOENT;
		}
		snprintf(out, len, "%s", c->bin_dir);
		return 0;
	}
	if (prev && !prev->external && !prev->cfg.bin_dir && prev->bin_dir) {
		snprintf(out, len, "%s", prev->bin_dir);
		return 0;
	}
	struct fx_pg tmp = {0};
	char buf[PATH_MAX];
	char *argv[] = {"pg_config", "--bindir", NULL};
	if (fxpg_capture(&tmp, argv, false, buf, sizeof(buf)) == 0) {
		buf[strcspn(buf, "\n")] = 0;
		if (buf[0] && fxpg_has_server(buf)) {
			snprintf(out, len, "%s", buf);
			return 0;
		}
	}
	glob_t g;
	int found = -1;
	if (glob("/usr/lib/postgresql/*/bin", GLOB_ONLYDIR, NULL, &g) == 0) {
		qsort(g.gl_pathv, g.gl_pathc, sizeof(char *), fxpg_ver_cmp);
		for (size_t i = 0; i < g.gl_pathc && found < 0; i++)
			if (fxpg_has_server(g.gl_pathv[i])) {
				snprintf(out, len, "%s", g.gl_pathv[i]);
				found = 0;
			}
		globfree(&g);
	}
	if (found)
		diag_error(d, &c->pos,
		           "postgres: no PostgreSQL server binaries found (pg_config --bindir, "
		           "/usr/lib/postgresql/*/bin); install the server or set postgres.bin_dir");
	return found ? -ENOENT : 0;
}

/* ---- directories ----------------------------------------------------------- */

static int fxpg_rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

/* Remove a tree without following symlinks or crossing mount points. */
static void fxpg_rm_tree(const char *path)
{
	nftw(path, fxpg_rm_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

/* Create dir (mode 0700) owned by the server user. A leftover dir of a
 * killed run is emptied first when `clear`. */
static int fxpg_mkdir_owned(struct fx_pg *pg, const char *path, bool clear, const struct src_pos *pos,
                            struct diag *d)
{
	if (clear) {
		struct stat st;
		if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
			fxpg_rm_tree(path);
	}
	if (mkdir(path, 0700) && errno != EEXIST) {
		int e = errno;
		diag_error(d, pos, "postgres: cannot create %s: %s", path, strerror(e));
		return -e;
	}
	if ((pg->switch_user && chown(path, pg->uid, pg->gid)) || chmod(path, 0700)) {
		int e = errno;
		diag_error(d, pos, "postgres: cannot give %s to the server user: %s", path, strerror(e));
		return -e;
	}
	return 0;
}

/* Can the server user search every directory above path? PostgreSQL only
 * says "Permission denied" on the data directory; say which one. */
static int fxpg_reachable(const struct fx_pg *pg, const char *path, const struct src_pos *pos, struct diag *d)
{
	if (!pg->switch_user)
		return 0;
	char *p = strdup(path);
	int rc = 0;
	for (char *slash = strchr(p + 1, '/'); slash && !rc; slash = strchr(slash + 1, '/')) {
		*slash = 0;
		struct stat st;
		if (stat(p, &st) == 0) {
			bool in_group = st.st_gid == pg->gid;
			for (int i = 0; i < pg->ngroups; i++)
				in_group |= st.st_gid == pg->groups[i];
			mode_t need = st.st_uid == pg->uid ? S_IXUSR : in_group ? S_IXGRP : S_IXOTH;
			if (!(st.st_mode & need)) {
				diag_error(
				    d, pos,
				    "postgres: the server user (uid %d) cannot enter %s (mode %04o, owner "
				    "uid %d), "
				    "so it cannot reach %s; allow it (chmod o+x) or use another directory",
				    (int)pg->uid, p, (int)(st.st_mode & 07777), (int)st.st_uid, path);
				rc = -EACCES;
			}
		}
		*slash = '/';
	}
	free(p);
	return rc;
}

/* ---- user ----------------------------------------------------------------------- */

static int fxpg_user(struct fx_pg *pg, const struct fxpg_cfg *c, struct diag *d)
{
	const struct src_pos *pos = c->run_as ? &c->run_as_pos : &c->pos;
	if (geteuid() != 0) {
		struct passwd *me = getpwuid(geteuid());
		if (c->run_as && (!me || strcmp(me->pw_name, c->run_as) != 0)) {
			diag_error(
			    d, pos,
			    "postgres.run_as: running the server as '%s' needs benchgrid to run as root "
			    "(it runs as '%s'); drop run_as to use the current user",
			    c->run_as, me ? me->pw_name : "?");
			return -EPERM;
		}
		pg->switch_user = false;
		pg->uid = geteuid();
		pg->gid = getegid();
		return 0;
	}
	const char *name = c->run_as ? c->run_as : "postgres";
	struct passwd *pw = getpwnam(name);
	if (!pw) {
		diag_error(
		    d, pos,
		    "postgres: PostgreSQL refuses to run as root and there is no user '%s' to run it as; "
		    "create that user or set postgres.run_as to an existing non-root user",
		    name);
		return -ENOENT;
	}
	if (pw->pw_uid == 0) {
		diag_error(d, pos, "postgres.run_as: '%s' is root; PostgreSQL refuses to run as root", name);
		return -EPERM;
	}
	pg->switch_user = true;
	pg->uid = pw->pw_uid;
	pg->gid = pw->pw_gid;
	int n = 32;
	pg->groups = calloc(n, sizeof(gid_t));
	if (getgrouplist(name, pw->pw_gid, pg->groups, &n) < 0) {
		pg->groups = realloc(pg->groups, n * sizeof(gid_t));
		getgrouplist(name, pw->pw_gid, pg->groups, &n);
	}
	pg->ngroups = n;
	return 0;
}

/* ---- setup: directories, initdb ------------------------------------------------ */

static char *fxpg_conn_quote(const char *s)
{
	size_t n = strlen(s);
	char *q = malloc(2 * n + 3), *o = q;
	*o++ = '\'';
	for (; *s; s++) {
		if (*s == '\'' || *s == '\\')
			*o++ = '\\';
		*o++ = *s;
	}
	*o++ = '\'';
	*o = 0;
	return q;
}

static int fxpg_free_port(void)
{
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t l = sizeof(a);
	int port = 0;
	if (s >= 0 && bind(s, (struct sockaddr *)&a, sizeof(a)) == 0 &&
	    getsockname(s, (struct sockaddr *)&a, &l) == 0)
		port = ntohs(a.sin_port);
	if (s >= 0)
		close(s);
	return port ? port : 54320 + getpid() % 1000;
}

/* Is a postmaster running on datadir (its postmaster.pid names a live pid)? */
static bool fxpg_dir_in_use(const char *datadir)
{
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s/postmaster.pid", datadir);
	FILE *f = fopen(p, "r");
	if (!f)
		return false;
	long pid = 0;
	bool live = fscanf(f, "%ld", &pid) == 1 && pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
	fclose(f);
	return live;
}

static char *fxpg_superuser(const struct fxpg_cfg *c)
{
	for (size_t i = 0; i < c->ninitdb; i++) {
		const char *o = c->initdb_opts[i];
		if (strncmp(o, "--username=", 11) == 0)
			return strdup(o + 11);
		if (strncmp(o, "-U", 2) == 0 && o[2])
			return strdup(o + 2);
		if ((strcmp(o, "-U") == 0 || strcmp(o, "--username") == 0) && i + 1 < c->ninitdb)
			return strdup(c->initdb_opts[i + 1]);
	}
	return strdup("postgres");
}

int fxpg_setup(struct fx_pg *pg, const struct fxpg_cfg *c, const char *bin_dir, const char *data_parent,
               const char *cell_dir, struct step_result *facts, struct diag *d)
{
	int rc;
	if ((rc = fxpg_user(pg, c, d)))
		return rc;
	pg->envp = fxpg_env();
	pg->bin_dir = strdup(bin_dir);
	pg->data_parent = strdup(data_parent);
	pg->datadir = fxpg_printf("%s/pgdata", data_parent);
	pg->logfile = fxpg_printf("%s/postgres.log", cell_dir ? cell_dir : data_parent);
	pg->superuser = fxpg_superuser(c);

	/* version of the binaries */
	char *postgres = fxpg_printf("%s/postgres", bin_dir), buf[256] = "";
	char *vargv[] = {postgres, "-V", NULL};
	rc = fxpg_capture(pg, vargv, true, buf, sizeof(buf));
	free(postgres);
	buf[strcspn(buf, "\n")] = 0;
	const char *v = strstr(buf, "(PostgreSQL) ");
	if (rc != 0 || !v) {
		diag_error(d, c->bin_dir ? &c->bin_pos : &c->pos, "postgres: %s/postgres -V failed (%s)",
		           bin_dir, buf[0] ? buf : "no output");
		return -ENOEXEC;
	}
	pg->version = strndup(v + 13, strcspn(v + 13, " "));

	/* data directory: a leftover of a killed run is removed, a live one is not touched */
	struct stat st;
	char *pv = fxpg_printf("%s/PG_VERSION", pg->datadir);
	bool exists = stat(pg->datadir, &st) == 0, is_pg = access(pv, F_OK) == 0;
	free(pv);
	if (exists && fxpg_dir_in_use(pg->datadir)) {
		diag_error(d, &c->pos, "postgres: a server is running on %s (an earlier run?); stop it first",
		           pg->datadir);
		return -EBUSY;
	}
	if (exists && is_pg) {
		result_info(facts, "warning", "postgres: removed the left-over data directory %s",
		            pg->datadir);
		fxpg_rm_tree(pg->datadir);
	} else if (exists && rmdir(pg->datadir) && errno != ENOENT) {
		diag_error(d, &c->pos, "postgres: %s exists and is not an empty or PostgreSQL data directory",
		           pg->datadir);
		return -EEXIST;
	}
	/* socket directory: short path for the 107-byte socket name limit */
	char tmpl[] = "/tmp/benchgrid-pg-XXXXXX";
	if (!mkdtemp(tmpl)) {
		rc = -errno;
		diag_error(d, &c->pos, "postgres: cannot create a socket directory in /tmp: %s",
		           strerror(-rc));
		return rc;
	}
	pg->sockdir = strdup(tmpl);
	pg->made_sockdir = true;
	pg->token_sock = state_push("rmdir", pg->sockdir, NULL);
	if ((rc = fxpg_mkdir_owned(pg, pg->sockdir, false, &c->pos, d)))
		return rc;
	if ((rc = fxpg_reachable(pg, pg->datadir, &c->pos, d)) ||
	    (rc = fxpg_mkdir_owned(pg, pg->datadir, false, &c->pos, d)))
		return rc;
	pg->made_datadir = true;
	char *pg_ctl = fxpg_printf("%s/pg_ctl", bin_dir);
	pg->token_pg = state_push("pg-stop", pg->datadir, pg_ctl);
	free(pg_ctl);
	if (c->wal_path) {
		if ((rc = fxpg_reachable(pg, c->wal_path, &c->wal_pos, d)) ||
		    (rc = fxpg_mkdir_owned(pg, c->wal_path, true, &c->wal_pos, d)))
			return rc;
		pg->waldir = strdup(c->wal_path);
	}
	pg->made_ts = calloc(c->nts + 1, sizeof(char *));
	for (size_t i = 0; i < c->nts; i++) {
		if ((rc = fxpg_reachable(pg, c->ts[i].path, &c->ts[i].pos, d)) ||
		    (rc = fxpg_mkdir_owned(pg, c->ts[i].path, true, &c->ts[i].pos, d)))
			return rc;
		pg->made_ts[pg->nmade_ts++] = strdup(c->ts[i].path);
	}

	/* initdb, its output kept next to the server log */
	char *ilog = fxpg_printf("%s/initdb.log", cell_dir ? cell_dir : data_parent);
	int fd = open(ilog, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		rc = -errno;
		diag_error(d, &c->pos, "postgres: cannot create %s: %s", ilog, strerror(-rc));
		free(ilog);
		return rc;
	}
	char *initdb = fxpg_printf("%s/initdb", bin_dir);
	char *uopt = fxpg_printf("--username=%s", pg->superuser);
	size_t na = 0;
	char **argv = calloc(12 + c->ninitdb, sizeof(char *));
	argv[na++] = initdb;
	argv[na++] = "-D";
	argv[na++] = pg->datadir;
	if (c->wal_path) {
		argv[na++] = "-X";
		argv[na++] = c->wal_path;
	}
	argv[na++] = uopt;
	argv[na++] = "--auth=trust";
	argv[na++] = "--encoding=UTF8";
	argv[na++] = "--locale=C";
	for (size_t i = 0; i < c->ninitdb; i++)
		argv[na++] = c->initdb_opts[i];
	double t = fxpg_now();
	rc = fxpg_run(pg, argv, fd, true);
	double took = fxpg_now() - t;
	close(fd);
	free(argv);
	free(initdb);
	free(uopt);
	if (rc != 0) {
		char *tail = fxpg_tail(ilog, 0, FXPG_TAIL_LINES);
		diag_error(d, &c->pos, "postgres: initdb failed (exit status %d); last lines of %s:\n%s", rc,
		           ilog, tail ? tail : "(empty)");
		free(tail);
		free(ilog);
		return -EIO;
	}
	free(ilog);
	result_metric(facts, "pg_initdb_s", took, "s");

	/* our settings live in benchgrid.conf, included last */
	char *conf = fxpg_printf("%s/postgresql.conf", pg->datadir);
	FILE *f = fopen(conf, "a");
	if (!f || fprintf(f, "\n# added by benchgrid\ninclude 'benchgrid.conf'\n") < 0 || fclose(f)) {
		rc = -errno;
		diag_error(d, &c->pos, "postgres: cannot append to %s: %s", conf, strerror(-rc));
		free(conf);
		return rc ? rc : -EIO;
	}
	free(conf);

	fxpg_set_port(pg, c->port ? c->port : fxpg_free_port());
	return 0;
}

void fxpg_set_port(struct fx_pg *pg, int port)
{
	pg->port = port;
	char *qh = fxpg_conn_quote(pg->sockdir), *qu = fxpg_conn_quote(pg->superuser);
	free(pg->conninfo);
	pg->conninfo = fxpg_printf("host=%s port=%d dbname=postgres user=%s", qh, pg->port, qu);
	free(qh);
	free(qu);
}

/* ---- start, stop, watch ---------------------------------------------------------- */

char *fxpg_tail(const char *path, off_t since, int lines)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	off_t end = lseek(fd, 0, SEEK_END);
	off_t from = end - since > 16384 ? end - 16384 : since;
	char *buf = calloc(1, 16385);
	ssize_t n = pread(fd, buf, 16384, from);
	close(fd);
	if (n <= 0) {
		free(buf);
		return NULL;
	}
	buf[n] = 0;
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = 0;
	char *p = buf + n;
	int seen = 0;
	while (p > buf && seen < lines) {
		p--;
		if (*p == '\n')
			seen++;
	}
	if (*p == '\n')
		p++;
	/* indent each line for the error message */
	size_t cnt = 1;
	for (char *q = p; *q; q++)
		cnt += *q == '\n';
	char *out = malloc(strlen(p) + 2 * cnt + 1), *o = out;
	*o++ = ' ';
	*o++ = ' ';
	for (char *q = p; *q; q++) {
		*o++ = *q;
		if (*q == '\n') {
			*o++ = ' ';
			*o++ = ' ';
		}
	}
	*o = 0;
	free(buf);
	return out;
}

/* postmaster.pid says "ready" (line 8, PostgreSQL >= 10), or has no status
 * line: then only PQping can tell. Pinging a starting server logs a FATAL
 * line per attempt, which would bury the interesting lines of the log. */
static bool fxpg_pidfile_ready(const char *datadir)
{
	char p[PATH_MAX], line[256];
	snprintf(p, sizeof(p), "%s/postmaster.pid", datadir);
	FILE *f = fopen(p, "r");
	if (!f)
		return false;
	int n = 0;
	bool ready = false, has_status = false;
	while (fgets(line, sizeof(line), f))
		if (++n == 8) {
			has_status = true;
			ready = strncmp(line, "ready", 5) == 0;
		}
	fclose(f);
	return has_status ? ready : n >= 6;
}

int fxpg_start(struct fx_pg *pg, const struct fxpg_cfg *c, struct step_result *facts, struct diag *d)
{
	int fd = open(pg->logfile, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0) {
		int e = errno;
		diag_error(d, &c->pos, "postgres: cannot open the server log %s: %s", pg->logfile,
		           strerror(e));
		return -e;
	}
	off_t log_start = lseek(fd, 0, SEEK_END);
	/* the socket directory may have been removed (benchgrid cleanup) */
	if (access(pg->sockdir, F_OK) && fxpg_mkdir_owned(pg, pg->sockdir, false, &c->pos, d)) {
		close(fd);
		return -EIO;
	}
	char *postgres = fxpg_printf("%s/postgres", pg->bin_dir);
	char *argv[] = {postgres, "-D", pg->datadir, NULL};
	double t = fxpg_now();
	pid_t pid = fxpg_spawn(pg, argv, fd, true, true);
	close(fd);
	free(postgres);
	if (pid < 0) {
		diag_error(d, &c->pos, "postgres: cannot start the server: %s", strerror(-pid));
		return pid;
	}
	pg->pid = pid;
	int status = -1;
	for (int waited = 0;; waited += 5) {
		if (fxpg_pidfile_ready(pg->datadir) && PQping(pg->conninfo) == PQPING_OK)
			break;
		int st;
		if (waitpid(pid, &st, WNOHANG) == pid) {
			status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
			pg->pid = 0;
			break;
		}
		if (waited >= FXPG_START_TIMEOUT_MS) {
			fxpg_stop_server(pg, d);
			status = -2;
			break;
		}
		fxpg_sleep_ms(5);
	}
	if (status != -1) {
		char *tail = fxpg_tail(pg->logfile, log_start, FXPG_TAIL_LINES);
		/* only this start's lines help to blame a setting */
		char *mine = NULL;
		FILE *f = fopen(pg->logfile, "r");
		if (f && fseeko(f, log_start, SEEK_SET) == 0) {
			mine = calloc(1, 65537);
			size_t n = fread(mine, 1, 65536, f);
			mine[n] = 0;
		}
		if (f)
			fclose(f);
		const struct src_pos *pos = fxpg_blame(c, mine);
		if (status == -2)
			diag_error(d, pos,
			           "postgres: the server did not accept connections within %d s; last lines "
			           "of %s:\n%s",
			           FXPG_START_TIMEOUT_MS / 1000, pg->logfile, tail ? tail : "  (empty)");
		else
			diag_error(
			    d, pos,
			    "postgres: the server did not start (exit status %d); last lines of %s:\n%s",
			    status, pg->logfile, tail ? tail : "  (empty)");
		free(mine);
		free(tail);
		fxpg_kill_orphans(pg);
		return -EIO;
	}
	result_metric(facts, "pg_start_s", fxpg_now() - t, "s");
	return 0;
}

void fxpg_kill_orphans(struct fx_pg *pg)
{
	char real[PATH_MAX];
	if (!pg->datadir || !realpath(pg->datadir, real))
		return;
	for (int round = 0; round < 50; round++) {
		DIR *dir = opendir("/proc");
		if (!dir)
			return;
		int found = 0;
		struct dirent *e;
		while ((e = readdir(dir))) {
			char *end;
			long pid = strtol(e->d_name, &end, 10);
			if (*end || pid <= 1 || pid == getpid())
				continue;
			char link[64], cwd[PATH_MAX];
			snprintf(link, sizeof(link), "/proc/%ld/cwd", pid);
			ssize_t n = readlink(link, cwd, sizeof(cwd) - 1);
			if (n <= 0)
				continue;
			cwd[n] = 0;
			if (strcmp(cwd, real) != 0)
				continue;
			found++;
			kill((pid_t)pid, SIGKILL);
			if (pid == pg->pid) {
				fxpg_wait(pg->pid);
				pg->pid = 0;
			}
		}
		closedir(dir);
		if (!found)
			return;
		fxpg_sleep_ms(10); /* let them go before looking again */
	}
}

int fxpg_stop_server(struct fx_pg *pg, struct diag *d)
{
	int rc = 0;
	if (pg->pid > 0 && fx_pg_alive(pg)) {
		int fd = open(pg->logfile, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		char *pg_ctl = fxpg_printf("%s/pg_ctl", pg->bin_dir);
		char *argv[] = {pg_ctl, "stop", "-D", pg->datadir, "-m", "fast",
		                "-w",   "-t",   "60", "-s",        NULL};
		int st = fxpg_run(pg, argv, fd, true);
		free(pg_ctl);
		if (fd >= 0)
			close(fd);
		if (st != 0) {
			/* pg_ctl could not do it: immediate shutdown, then kill */
			kill(pg->pid, SIGQUIT);
			for (int i = 0; i < 500 && fx_pg_alive(pg); i++)
				fxpg_sleep_ms(10);
			if (d)
				diag_warn(d, NULL,
				          "postgres: pg_ctl stop failed (status %d); the server was killed",
				          st);
			rc = -EIO;
		}
		if (pg->pid > 0)
			fxpg_wait(pg->pid); /* reap: pg_ctl waited until it was gone */
		pg->pid = 0;
	} else if (pg->pid > 0) {
		pg->pid = 0;
	}
	fxpg_kill_orphans(pg);
	return rc;
}

int fx_pg_alive(const struct fx_pg *cpg)
{
	if (!cpg)
		return 0;
	struct fx_pg *pg = (struct fx_pg *)cpg; /* reaping a dead child updates pid */
	if (pg->external)
		return PQping(pg->conninfo) == PQPING_OK;
	if (pg->pid <= 0)
		return 0;
	int st;
	pid_t r = waitpid(pg->pid, &st, WNOHANG);
	if (r == 0)
		return 1;
	if (r == pg->pid) {
		pg->pid = 0;
		return 0;
	}
	/* reaped by someone else: ask the kernel */
	if (kill(pg->pid, 0) == 0)
		return 1;
	pg->pid = 0;
	return 0;
}

void fx_pg_stop(struct fx_pg *pg)
{
	if (!pg)
		return;
	if (!pg->external) {
		fxpg_stop_server(pg, NULL);
		if (pg->made_datadir)
			fxpg_rm_tree(pg->datadir);
		if (pg->waldir)
			fxpg_rm_tree(pg->waldir);
		for (size_t i = 0; i < pg->nmade_ts; i++)
			fxpg_rm_tree(pg->made_ts[i]);
		if (pg->token_pg > 0)
			state_done(pg->token_pg);
		if (pg->made_sockdir) {
			fxpg_rm_tree(pg->sockdir);
			if (pg->token_sock > 0)
				state_done(pg->token_sock);
		}
	}
	for (size_t i = 0; i < pg->nmade_ts; i++)
		free(pg->made_ts[i]);
	free(pg->made_ts);
	if (pg->envp)
		for (char **e = pg->envp; *e; e++)
			free(*e);
	free(pg->envp);
	free(pg->groups);
	free(pg->conninfo);
	free(pg->bin_dir);
	free(pg->version);
	free(pg->data_parent);
	free(pg->datadir);
	free(pg->sockdir);
	free(pg->logfile);
	free(pg->superuser);
	free(pg->waldir);
	free(pg->loaded_init.tablespace);
	fxpg_cfg_free(&pg->cfg);
	free(pg);
}
