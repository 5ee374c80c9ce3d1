/* cli_history_html: `benchgrid history`'s dashboard, history.html: reads
 * every stored run of one scenario (or of all of them) from the store,
 * judges each metric's runs as the text does (cli_history_core) and hands
 * the charts to reporters/hist_html; the file is written whole (a
 * temporary file renamed over it, never through a symbolic link:
 * rep_file). */
#ifndef BENCHGRID_CLI_HISTORY_HTML_H
#define BENCHGRID_CLI_HISTORY_HTML_H

#include <stdbool.h>
#include <stddef.h>

#include "store_query.h"

struct hist_html_opts {
	const char *path;     /* the page to write */
	const char *scenario; /* NULL: every stored scenario */
	const char *metric;   /* STEP.METRIC, or NULL: each step's headline metrics */
	const struct store_where *where;
	size_t nwhere;
	long last, window;
	bool by_commit;
	const char *store_shown;
};

/* Write the page and say so on stdout. 0, or the command's exit status
 * with why on stderr. */
int cli_history_html(struct store *s, const struct hist_html_opts *o);

#endif
