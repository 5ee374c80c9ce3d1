/* io_engine_psync: one pread/pwrite at a time (iodepth is ignored).
 *
 * The clock is read after each call; that stamp also starts the next I/O,
 * so one clock read per I/O. A short transfer is finished in place. */
#include <errno.h>
#include <unistd.h>

#include "io_engine.h"
#include "io_job.h"
#include "io_rate.h"

static void psync_run(struct io_job *j, void *ctx)
{
	(void)ctx;
	const struct io_opts *o = j->sh->o;
	uint64_t now = io_now_ns(), issued = 0, nw = 0, ms = j->sh->measure_start;
	unsigned slot = 0;

	uint64_t off, len;
	bool rd;
	while (io_sync_next(j, &now, issued, &off, &len, &rd)) {
		unsigned char *buf = j->bufs + (uint64_t)slot * j->slot_sz;
		if (++slot == j->nslots)
			slot = 0;
		if (!rd && o->verify)
			io_pattern_fill(buf, len, off, o->seed);
		ssize_t r = rd ? pread(j->fd, buf, len, (off_t)off) : pwrite(j->fd, buf, len, (off_t)off);
		int err = 0;
		if (r < 0)
			err = -errno;
		else if ((uint64_t)r < len)
			err = io_full(j, rd, buf, len, off, (uint64_t)r);
		uint64_t t = io_now_ns();
		if (err == -EINTR) {
			now = t;
			continue;
		}
		if (err) {
			io_short(j, rd, err, off);
			break;
		}
		if (now >= ms)
			issued += len;
		io_done(j, rd, buf, off, len, t - now, t);
		if (io_sync_every(j, rd, &nw, &t))
			break;
		now = t;
		io_publish(j);
	}
	if (j->pace)
		io_pace_prev(j, now);
	io_finish(j);
}

const struct io_engine_ops io_engine_psync = {
    .version = IO_ENGINE_OPS_VERSION,
    .name = "psync",
    .queued = false,
    .fio_also = "sync pvsync pvsync2", /* read/write, preadv/pwritev: one I/O at a time all the same */
    .run = psync_run,
};
