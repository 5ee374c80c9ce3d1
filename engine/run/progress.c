/* progress: the progress display of `benchgrid run` (see progress.h). */
#include "progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "rep_fmt.h"
#include "term_escape.h"

static void draw(struct progress *p);

static void *tick(void *arg)
{
	struct progress *p = arg;
	while (!p->stop_ticker) {
		struct timespec ts = {0, 500 * 1000 * 1000};
		nanosleep(&ts, NULL);
		if (p->stop_ticker)
			break;
		pthread_mutex_lock(&p->lock);
		if (p->k)
			draw(p);
		pthread_mutex_unlock(&p->lock);
	}
	return NULL;
}

void progress_init(struct progress *p, int quiet)
{
	memset(p, 0, sizeof(*p));
	p->quiet = quiet;
	p->tty = isatty(STDERR_FILENO) && !quiet;
	p->eta = -1;
	p->plan_left = -1;
	pthread_mutex_init(&p->lock, NULL);
	if (p->tty && pthread_create(&p->ticker, NULL, tick, p) == 0)
		p->ticking = true;
}

void progress_end(struct progress *p)
{
	if (p->ticking) {
		p->stop_ticker = true;
		pthread_join(p->ticker, NULL);
		p->ticking = false;
	}
	progress_clear(p);
	pthread_mutex_destroy(&p->lock);
	free(p->plan_s);
	p->plan_s = NULL;
}

void progress_plan(struct progress *p, double *slot_s, size_t n)
{
	free(p->plan_s);
	p->plan_s = slot_s;
	p->plan_n = slot_s ? n : 0;
	p->plan_done = 0;
	p->sofar = (struct estimate_progress){0};
}

void progress_slot_took(struct progress *p, double spent, bool ran)
{
	if (p->plan_done >= p->plan_n)
		return;
	double est = p->plan_s[p->plan_done++];
	if (ran && est > 0) {
		p->sofar.priced_plan_s += est;
		p->sofar.priced_spent_s += spent;
	} else if (ran) {
		p->sofar.unpriced_spent_s += spent;
		p->sofar.unpriced_done++;
	}
}

/* The seconds left by the plan (the coming slot included), and the ETA
 * (estimate_eta): those seconds x (measured / estimated) of the slots run
 * so far, and the slots the plan priced at 0 s (steps that declare no
 * duration) at the mean seconds such a slot took. */
static double plan_eta(struct progress *p)
{
	double left = 0;
	size_t unpriced = 0;
	for (size_t i = p->plan_done; i < p->plan_n; i++) {
		left += p->plan_s[i];
		unpriced += !(p->plan_s[i] > 0);
	}
	p->plan_left = left;
	p->sofar.left_plan_s = left;
	p->sofar.unpriced_left = unpriced;
	return estimate_eta(&p->sofar);
}

static void draw(struct progress *p)
{
	if (!p->tty)
		return;
	char eta[80], said[32];
	double elapsed = clock_mono() - p->step_start;
	estimate_format_seconds(p->eta >= 0 ? p->eta - elapsed : -1, eta, sizeof(eta));
	if (p->plan_left >= 0) { /* the plan's figure for the same, unscaled */
		double left = p->plan_left - elapsed;
		estimate_format_seconds(left > 0 ? left : 0, said, sizeof(said));
		snprintf(eta + strlen(eta), sizeof(eta) - strlen(eta), " (plan said %s)", said);
	}
	int width = 30;
	int filled = p->n ? (int)((double)(p->k - 1) * width / (double)p->n) : 0;
	char bar[64];
	for (int i = 0; i < width; i++)
		bar[i] = i < filled ? '#' : '-';
	bar[width] = 0;
	char live[160] = "", num[48];
	if (p->unit[0]) {
		rep_fmt_human(p->live, num, sizeof(num));
		snprintf(live, sizeof(live), " %s %s", num, p->unit);
	}
	fprintf(stderr, "\r\033[K[%s] %zu/%zu %.60s | %s %.0fs%s | ETA %s", bar, p->k, p->n, p->label,
	        p->step, elapsed, live, eta);
	fflush(stderr);
	p->last_draw = clock_mono();
}

void progress_clear(struct progress *p)
{
	if (p->tty) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
}

void progress_cell(struct progress *p, size_t k, size_t n, const char *label, double eta)
{
	pthread_mutex_lock(&p->lock);
	p->k = k;
	p->n = n;
	double planned = p->plan_n ? plan_eta(p) : -1;
	p->eta = planned >= 0 ? planned : eta; /* else the caller's own measure */
	/* label, step and unit come from the scenario and its commands: kept
	 * escaped (term_escape.h), so no control character reaches the screen */
	term_escape(p->label, sizeof(p->label), label, 0);
	p->step[0] = 0;
	p->unit[0] = 0;
	p->step_start = clock_mono();
	if (!p->quiet) {
		if (!p->tty) {
			fprintf(stderr, "[%zu/%zu] ", k, n);
			term_fput(stderr, label, 0); /* whole, as before; escaped */
			fputc('\n', stderr);
		}
		draw(p);
	}
	pthread_mutex_unlock(&p->lock);
}

void progress_step(struct progress *p, const char *step)
{
	pthread_mutex_lock(&p->lock);
	term_escape(p->step, sizeof(p->step), step, 0);
	p->unit[0] = 0;
	if (!p->quiet)
		draw(p);
	pthread_mutex_unlock(&p->lock);
}

void progress_live(void *ud, const char *unit, double value)
{
	struct progress *p = ud;
	term_escape(p->unit, sizeof(p->unit), unit, 0);
	p->live = value; /* the ticker thread draws it */
}

void progress_step_done(struct progress *p, const char *step, bool failed, const char *summary)
{
	pthread_mutex_lock(&p->lock);
	if (!p->quiet) {
		progress_clear(p);
		/* on a terminal as in a log: the step's figures stay on screen */
		fputs("  ", stderr);
		term_fput(stderr, step, 0);
		fprintf(stderr, ": %s%s", failed ? "FAILED" : "ok", summary && *summary ? ", " : "");
		term_fput(stderr, summary, TERM_KEEP_LINES);
		fputc('\n', stderr);
		draw(p);
	}
	pthread_mutex_unlock(&p->lock);
}

void progress_rep(struct progress *p, bool warmup, size_t i, size_t n)
{
	pthread_mutex_lock(&p->lock);
	if (!p->quiet) {
		progress_clear(p);
		fprintf(stderr, "  %s %zu/%zu\n", warmup ? "warmup" : "rep", i, n);
		draw(p);
	}
	pthread_mutex_unlock(&p->lock);
}

void progress_note(struct progress *p, const char *fmt, ...)
{
	pthread_mutex_lock(&p->lock);
	progress_clear(p);
	va_list ap;
	va_start(ap, fmt);
	char *text = NULL;
	/* the arguments are a cell's label, a command's error, ...: escaped */
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	if (text)
		term_fput(stderr, text, TERM_KEEP_LINES);
	else
		fputs("(out of memory)", stderr);
	free(text);
	va_end(ap);
	fputc('\n', stderr);
	if (!p->quiet)
		draw(p);
	pthread_mutex_unlock(&p->lock);
}
