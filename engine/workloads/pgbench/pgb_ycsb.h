/* pgb_ycsb: the builtin `ycsb-like`: YCSB's core workloads A-F as a mix of
 * scripts in the pgbench script language, one per operation kind, chosen
 * per transaction by weight (as pgbench's -b a@w -b b@w), over the
 * usertable that `init: {kind: ycsb}` loads (pgdata/ycsb_init.h). Each
 * script is one YCSB operation: its name (read, update, insert, scan,
 * read_modify_write) labels its figures.
 *
 *   workload  mix (YCSB's workloads/workloada..f)      distribution
 *   a         read 50, update 50                        zipfian
 *   b         read 95, update 5                         zipfian
 *   c         read 100                                  zipfian
 *   d         read 95, insert 5                         latest
 *   e         scan 95, insert 5 (1..scan_length rows)   zipfian
 *   f         read 50, read_modify_write 50             zipfian
 *
 * Keys come from the functions of pgb_ycsb_rand.h: random_ycsb_zipfian,
 * random_ycsb_latest or random (uniform); a record's key is 'user' ||
 * ycsb_hash(k). read: SELECT * of one key; update: one field chosen
 * uniformly (YCSB's writeallfields=false); insert: every field, the key
 * from the shared insert sequence; scan: ycsb_key >= a key, ORDER BY,
 * LIMIT uniform in 1..scan_length; read_modify_write: the read then the
 * update of the same key. Values are field_length characters made by the
 * server from a random number (md5), not sent by the client as YCSB does.
 * docs/steps/ycsb-like.md says what is and is not YCSB. */
#ifndef BENCHGRID_PGB_YCSB_H
#define BENCHGRID_PGB_YCSB_H

#include <libpq-fe.h>
#include "diag.h"
#include "node.h"
#include "pgb_script.h"

struct pgb_ycsb_opts {
	char workload;    /* 'a'..'f' */
	int distribution; /* 0 the workload's, 1 zipfian, 2 uniform, 3 latest */
	int64_t records, fields, field_length, scan_length;
};

/* Read the step's `ycsb:` map (NULL: the defaults, workload a over 1000
 * records). 0 or -EINVAL with errors in d. */
int pgb_ycsb_parse(const struct node *map, struct pgb_ycsb_opts *o, struct diag *d);

/* Add the workload's scripts to p (pos: where `builtin: ycsb-like` is). */
int pgb_ycsb_add(struct pgb_prog *p, const struct pgb_ycsb_opts *o, const struct src_pos *pos,
                 struct diag *d);

/* Before a run: the insert sequence goes on after the rows earlier runs
 * inserted (count(*) of usertable - records), so that workloads run one
 * after another on one load insert new keys, as YCSB's insertstart would. */
void pgb_ycsb_seq_start(PGconn *mon, int64_t records);

#endif
