/* estimate_rates: the rates plan's estimate prices with (estimate.h), and
 * their documented defaults. */
#ifndef BENCHGRID_ESTIMATE_RATES_H
#define BENCHGRID_ESTIMATE_RATES_H

/* The rates an estimate prices with. The defaults (ESTIMATE_DEFAULTS) were
 * measured on the development machine (docs/scenario.md, "What plan
 * estimates"). */
struct estimate_rates {
	double mkfs_s;        /* one filesystem: loop device, mkfs, mount */
	double initdb_s;      /* one cluster: initdb and start */
	double load_s_scale;  /* pgbench data: seconds per scale unit */
	double load_s_fixed;  /* pgbench data: seconds per load beside the rows */
	double restart_s;     /* a server restarted (or reloaded) for new settings */
	double tps;           /* pgbench transactions per second over all clients */
	double io_bytes_s;    /* an io step without runtime: bytes per second */
	double cluster_bytes; /* a new cluster on disk before any data (WAL included) */
	double scale_bytes;   /* pgbench data per scale unit, tables and indexes */
	double wal_bytes;     /* WAL the load leaves per scale unit, up to wal_max_bytes */
	double wal_max_bytes; /* max_wal_size's default: WAL beyond it is recycled */
};
#define ESTIMATE_DEFAULTS                                                                                    \
	{                                                                                                    \
		.mkfs_s = 1, .initdb_s = 3, .load_s_scale = 0.5, .load_s_fixed = 0.3, .restart_s = 1,        \
		.tps = 1000, .io_bytes_s = 200.0 * 1048576, .cluster_bytes = 40.0 * 1048576,                 \
		.scale_bytes = 15.0 * 1048576, .wal_bytes = 13.0 * 1048576,                                  \
		.wal_max_bytes = 1024.0 * 1048576                                                            \
	}

#endif
