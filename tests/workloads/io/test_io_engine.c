/* test_io_engine: the io step's engine table as its one source (issue 30):
 * the option table's allowed values and default are io_engines[]'s names;
 * import-fio maps fio's ioengine names through it (libaio and mmap to
 * themselves, sync/pvsync/pvsync2 to psync, others refused); each engine's
 * check refuses what it cannot do at the value's position (mmap: direct,
 * dsync/sync, many files; not for trims, which use no engine); the one
 * open-flags builder. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "fio_ini.h"
#include "fio_map.h"
#include "io_engine.h"
#include "io_open.h"
#include "io_opts.h"
#include "io_opts_table.h"
#include "spec.h"

static void test_option_values_are_the_table(void **state)
{
	(void)state;
	const struct opt_desc *row = opt_find(&io_opt_table, "engine");
	assert_non_null(row);
	assert_int_equal(row->type, OPT_ENUM);
	size_t i = 0;
	for (; io_engines[i]; i++) {
		assert_non_null(row->values[i]);
		assert_string_equal(row->values[i], io_engines[i]->name);
		assert_int_equal(io_engines[i]->version, IO_ENGINE_OPS_VERSION);
		assert_non_null(io_engines[i]->run);
	}
	assert_null(row->values[i]);
	assert_true(i >= 4);
	assert_string_equal(row->def, io_engines[0]->name);
}

static void test_fio_names(void **state)
{
	(void)state;
	static const char *const map[][2] = {
	    {"libaio", "libaio"}, {"mmap", "mmap"},    {"io_uring", "io_uring"}, {"psync", "psync"},
	    {"sync", "psync"},    {"pvsync", "psync"}, {"pvsync2", "psync"},
	};
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		const char *e = io_engine_for_fio(map[i][0]);
		assert_non_null(e);
		assert_string_equal(e, map[i][1]);
	}
	assert_null(io_engine_for_fio("posixaio"));
	assert_null(io_engine_for_fio("pvsync3"));
	assert_null(io_engine_for_fio("sync pvsync"));
	assert_null(io_engine_for_fio("trim")); /* the trim engine is not a choice */
}

/* import-fio's ioengine= through the table: the io step's engine, no note */
static void test_fio_map_engines(void **state)
{
	(void)state;
	struct diag d;
	diag_init(&d);
	struct fio_ini ini;
	const char *text = "[a]\nrw=randread\nioengine=libaio\n[b]\nstonewall\nrw=randwrite\nioengine=mmap\n"
	                   "[c]\nstonewall\nioengine=filecreate\n[d]\nstonewall\nrw=read\nioengine=sync\n";
	assert_int_equal(fio_ini_read_text("e.fio", text, &ini, &d), 0);
	struct fio_scenario sc;
	assert_int_equal(fio_map(&ini, "e.fio", false, io_engine_for_fio, &sc, &d), 0);
	assert_int_equal(sc.n, 4);
	assert_string_equal(fio_kv_get(&sc.step[0].io, "engine")->val, "libaio");
	assert_int_equal(sc.step[0].notes.n, 0);
	assert_string_equal(fio_kv_get(&sc.step[1].io, "engine")->val, "mmap");
	assert_string_equal(fio_kv_get(&sc.step[2].io, "op")->val, "create");
	assert_null(fio_kv_get(&sc.step[2].io, "engine"));
	assert_string_equal(fio_kv_get(&sc.step[3].io, "engine")->val, "psync");
	fio_scenario_free(&sc);
	fio_ini_free(&ini);

	assert_int_equal(fio_ini_read_text("u.fio", "[j]\nrw=read\nioengine=posixaio\n", &ini, &d), 0);
	assert_int_equal(fio_map(&ini, "u.fio", false, io_engine_for_fio, &sc, &d), -1);
	assert_int_equal(d.nerrors, 1);
	assert_int_equal(d.v[0].pos.line, 3);
	assert_string_equal(
	    d.v[0].msg,
	    "unsupported value 'ioengine=posixaio': the I/O engine 'posixaio' has no io equivalent");
	fio_scenario_free(&sc);
	fio_ini_free(&ini);
	diag_free(&d);
}

/* Parse yaml as the io step's options: 0 or -EINVAL; the first message and
 * its line:col in msg/at. */
static int parse(const char *yaml, struct io_opts *o, char *msg, size_t len, int *col)
{
	struct diag d;
	diag_init(&d);
	struct node *n = spec_load_string("opts.yaml", yaml, &d);
	assert_non_null(n);
	int r = io_opts_parse(n, o, &d);
	msg[0] = 0;
	*col = 0;
	for (size_t i = 0; i < d.n; i++)
		if (d.v[i].level == DIAG_ERROR) {
			snprintf(msg, len, "%s", d.v[i].msg);
			*col = d.v[i].pos.col;
			break;
		}
	node_free(n);
	diag_free(&d);
	return r;
}

static void test_mmap_check(void **state)
{
	(void)state;
	struct io_opts o;
	char msg[512];
	int col;
	assert_int_equal(
	    parse("{rw: randwrite, engine: mmap, sync: every 4, verify: true}", &o, msg, sizeof(msg), &col),
	    0);
	assert_string_equal(o.engine->name, "mmap");
	assert_int_equal(parse("{rw: randread, engine: mmap, direct: true}", &o, msg, sizeof(msg), &col),
	                 -EINVAL);
	assert_non_null(strstr(msg, "io.direct: engine: mmap copies through the page cache"));
	assert_int_equal(col, 38);
	assert_int_equal(parse("{rw: write, engine: mmap, sync: dsync}", &o, msg, sizeof(msg), &col),
	                 -EINVAL);
	assert_non_null(strstr(msg, "io.sync: dsync opens the file O_DSYNC"));
	assert_int_equal(col, 33);
	assert_int_equal(parse("{rw: read, engine: mmap, nrfiles: 2}", &o, msg, sizeof(msg), &col), -EINVAL);
	assert_string_equal(msg, "io.nrfiles: engine: mmap maps one file per job (nrfiles: 1)");
	/* trims use the trim engine whatever engine says; libaio can do it all */
	assert_int_equal(parse("{rw: randtrim, engine: mmap, direct: true}", &o, msg, sizeof(msg), &col), 0);
	assert_int_equal(parse("{rw: randrw, engine: libaio, direct: true, iodepth: 64, sync: dsync}", &o,
	                       msg, sizeof(msg), &col),
	                 0);
	assert_string_equal(o.engine->name, "libaio");
}

static void test_open_flags(void **state)
{
	(void)state;
	struct io_opts o;
	char msg[512];
	int col;
	assert_int_equal(parse("{rw: randread}", &o, msg, sizeof(msg), &col), 0);
	assert_int_equal(io_open_flags(&o, false, false), O_RDONLY | O_CLOEXEC);
	assert_int_equal(parse("{rw: write, direct: true, sync: dsync}", &o, msg, sizeof(msg), &col), 0);
	/* a writer opens read-write (fio does; mmap's shared writable mapping needs it) */
	assert_int_equal(io_open_flags(&o, true, true),
	                 O_RDWR | O_CLOEXEC | O_CREAT | O_TRUNC | O_DSYNC | O_DIRECT);
	assert_int_equal(parse("{rw: randrw, sync: sync}", &o, msg, sizeof(msg), &col), 0);
	assert_int_equal(io_open_flags(&o, false, false), O_RDWR | O_CLOEXEC | O_SYNC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_option_values_are_the_table),
	    cmocka_unit_test(test_fio_names),
	    cmocka_unit_test(test_fio_map_engines),
	    cmocka_unit_test(test_mmap_check),
	    cmocka_unit_test(test_open_flags),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
