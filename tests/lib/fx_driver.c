/* fx_driver: a small program that drives the target fixture, the knobs and
 * the state journal the way the runner does, for the integration tests
 * (the fs_lib.sh scripts: tests/fixtures/fs, undo, ...).
 *
 *   fx_driver check FILE                       validate target/sysctl/queue
 *   fx_driver setup FILE WORKDIR [--yes] [--hold]
 *       set up FILE's `target:`, apply its `sysctl:` / `queue:`, print
 *       path=, blockdev= and every fact as key=value; with --hold, print
 *       READY and wait for SIGINT/SIGTERM; then restore and tear down.
 *   fx_driver cleanup                          undo what the journal lists
 *   fx_driver safe DEV                         device safety rules
 * The journal is $BENCHGRID_STATE (state_default_path). Exit status: 0 ok,
 * 1 refused or failed, 2 usage. */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blkdev.h"
#include "diag.h"
#include "facts.h"
#include "fx_fs.h"
#include "knobs.h"
#include "node.h"
#include "result.h"
#include "spec.h"
#include "state.h"

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

/* The queue settings the knobs may change, as they are before the knobs
 * are applied, so that tests can compare them after a restore. */
static void print_queue(const char *prefix, const char *dev)
{
	static const char *const attrs[] = {"scheduler", "read_ahead_kb", "write_cache", "nr_requests", NULL};
	char qdir[4096];
	if (!dev || blkdev_queue_dir(dev, qdir, sizeof(qdir)) < 0)
		return;
	for (int i = 0; attrs[i]; i++) {
		char path[4200], buf[256] = "";
		snprintf(path, sizeof(path), "%s/%s", qdir, attrs[i]);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
		buf[strcspn(buf, "\n")] = '\0';
		printf("%s.%s=%s\n", prefix, attrs[i], buf);
	}
}

static int finish(struct diag *d, int rc)
{
	diag_print(d, stderr);
	diag_free(d);
	return rc;
}

static int cmd_setup(const char *file, const char *work, bool yes, bool hold)
{
	struct diag d;
	diag_init(&d);
	struct node *root = spec_load_file(file, &d);
	if (!root)
		return finish(&d, 1);
	const struct node *target = node_get(root, "target");
	const struct node *sysctl = node_get(root, "sysctl"), *queue = node_get(root, "queue");
	int r = state_open(state_default_path());
	if (r < 0) {
		fprintf(stderr, "cannot open the journal %s: %s\n", state_default_path(), strerror(-r));
		node_free(root);
		return finish(&d, 1);
	}
	/* Signals wait until setup is complete, as in the runner. */
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	struct sigaction sa = {.sa_handler = on_signal};
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	int rc = 0;
	struct fx_fs *fs = fx_fs_setup(target, work, yes, &d);
	struct knobs *k = NULL;
	if (!fs) {
		rc = 1;
		goto out;
	}
	print_queue("pre.queue", fx_fs_blockdev(fs));
	/* as the runner (fixture_set_knobs): queue settings need consent */
	if (queue && queue->kind == NODE_MAP && queue->n &&
	    fx_fs_may_change(fs, "queue", "change the queue settings of", &queue->pos, &d) < 0) {
		rc = 1;
		goto out;
	}
	k = knobs_apply(sysctl, queue, fx_fs_blockdev(fs), &d);
	if (!k) {
		rc = 1;
		goto out;
	}
	struct step_result facts;
	result_init(&facts, "facts", "facts");
	fx_fs_facts(fs, &facts);
	facts_machine(&facts);
	printf("path=%s\nblockdev=%s\n", fx_fs_path(fs), fx_fs_blockdev(fs) ? fx_fs_blockdev(fs) : "");
	for (size_t i = 0; i < facts.ni; i++)
		printf("%s=%s\n", facts.info[i].key, facts.info[i].value);
	result_free(&facts);
	if (hold) {
		printf("READY\n");
		fflush(stdout);
		while (!got_signal)
			sigsuspend(&old);
		printf("signal=%d\n", (int)got_signal);
	}
	fflush(stdout);
out:
	if (knobs_restore(k, &d) < 0)
		rc = 1;
	if (fx_fs_teardown(fs, &d) < 0)
		rc = 1;
	state_close();
	node_free(root);
	return finish(&d, rc);
}

static int cmd_check(const char *file)
{
	struct diag d;
	diag_init(&d);
	struct node *root = spec_load_file(file, &d);
	if (!root)
		return finish(&d, 1);
	int bad = fx_fs_check(node_get(root, "target"), &d);
	if (knobs_check(node_get(root, "sysctl"), node_get(root, "queue"), &d) < 0)
		bad = -1;
	node_free(root);
	return finish(&d, bad < 0 ? 1 : 0);
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "check"))
		return cmd_check(argv[2]);
	if (argc >= 4 && !strcmp(argv[1], "setup")) {
		bool yes = false, hold = false;
		for (int i = 4; i < argc; i++) {
			yes = yes || !strcmp(argv[i], "--yes");
			hold = hold || !strcmp(argv[i], "--hold");
		}
		return cmd_setup(argv[2], argv[3], yes, hold);
	}
	if (argc >= 2 && !strcmp(argv[1], "cleanup")) {
		struct diag d;
		diag_init(&d);
		int n = state_cleanup(state_default_path(), &d);
		printf("undone=%d\n", n);
		return finish(&d, n < 0 ? 1 : 0);
	}
	if (argc >= 3 && !strcmp(argv[1], "safe")) {
		char why[1024];
		int r = blkdev_check_safe(argv[2], why, sizeof(why));
		if (r < 0) {
			printf("refused: %s\n", why);
			return 1;
		}
		printf("safe\n");
		return 0;
	}
	fprintf(stderr,
	        "usage: fx_driver check FILE | setup FILE WORKDIR [--yes] [--hold] | cleanup | safe DEV\n");
	return 2;
}
