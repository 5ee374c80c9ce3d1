/* test_fiojob: fio's value forms as fio 3.33 reads them (sizes with kb_base,
 * times, bools), the ini reader, and option mapping. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fio_ini.h"
#include "fio_map.h"
#include "fio_value.h"

static uint64_t size_of(const char *s, unsigned kb_base)
{
	uint64_t v = 0;
	char err[128];
	assert_int_equal(fio_parse_size(s, kb_base, &v, err, sizeof(err)), 0);
	return v;
}

/* fio 3.33's own reading (import_fio.sh e2e checks it against the fio
 * binary): only the full "Xib" form swaps the base; "Xi" is "X". */
static void test_sizes_kb_base(void **state)
{
	(void)state;
	const char *kib4[] = {"4096", "4096b", "4096B", "4k", "4kb", "4kB", "4K", "4KB", "4ki", "4Ki"};
	for (size_t i = 0; i < sizeof(kib4) / sizeof(kib4[0]); i++)
		assert_int_equal(size_of(kib4[i], 1024), 4096);
	assert_int_equal(size_of("1m", 1024), 1048576);
	assert_int_equal(size_of("1024k", 1024), 1048576);
	assert_int_equal(size_of("1mi", 1024), 1048576);
	assert_int_equal(size_of("1mib", 1024), 1000000);
	assert_int_equal(size_of("1000KiB", 1024), 1000000);
	assert_int_equal(size_of("1t", 1024), 1099511627776ull);
	assert_int_equal(size_of("1048576m", 1024), 1099511627776ull);
	assert_int_equal(size_of("1000000kib", 1024), 1000000000ull);
	const char *kib4_si[] = {"4096", "4096b", "4096B", "4kib", "4kiB", "4KiB"};
	for (size_t i = 0; i < sizeof(kib4_si) / sizeof(kib4_si[0]); i++)
		assert_int_equal(size_of(kib4_si[i], 1000), 4096);
	assert_int_equal(size_of("4ki", 1000), 4000);
	assert_int_equal(size_of("1mib", 1000), 1048576);
	assert_int_equal(size_of("1m", 1000), 1000000);
	assert_int_equal(size_of("1000k", 1000), 1000000);
	assert_int_equal(size_of("1tib", 1000), 1099511627776ull);
	assert_int_equal(size_of("0x1000", 1024), 4096);
	assert_int_equal(size_of("1.5k", 1024), 1536);
	uint64_t v;
	char err[128];
	assert_int_equal(fio_parse_size("4q", 1024, &v, err, sizeof(err)), -1);
	assert_int_equal(fio_parse_size("50%", 1024, &v, err, sizeof(err)), -1);
	assert_int_equal(fio_parse_size("-4k", 1024, &v, err, sizeof(err)), -1);
	assert_int_equal(fio_parse_size("1.1", 1024, &v, err, sizeof(err)), -1);
}

static void test_times(void **state)
{
	(void)state;
	uint64_t us;
	char err[128], buf[32];
	struct {
		const char *in;
		uint64_t unit;
		const char *out;
	} cases[] = {
	    {"10", 1000000, "10s"}, {"10m", 1000000, "10min"}, {"1h", 1000000, "1h"},
	    {"1d", 1000000, "24h"}, {"90", 1000000, "90s"},    {"1500ms", 1000000, "1500ms"},
	    {"2msec", 1, "2ms"},    {"100", 1, "100us"},       {"7usec", 1000000, "7us"},
	    {"1000", 1000, "1s"},   {"0", 1000000, "0"},       {"120s", 1000000, "2min"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(fio_parse_time(cases[i].in, cases[i].unit, &us, err, sizeof(err)), 0);
		fio_format_time(us, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].out);
	}
	assert_int_equal(fio_parse_time("10x", 1000000, &us, err, sizeof(err)), -1);
	bool b;
	assert_int_equal(fio_parse_bool("1", &b), 0);
	assert_true(b);
	assert_int_equal(fio_parse_bool("true", &b), -1); /* fio refuses it too */
	fio_format_size(4096, buf, sizeof(buf));
	assert_string_equal(buf, "4KiB");
	fio_format_size(4000, buf, sizeof(buf));
	assert_string_equal(buf, "4000");
	fio_format_size(3ull << 30, buf, sizeof(buf));
	assert_string_equal(buf, "3GiB");
}

static void test_ini(void **state)
{
	(void)state;
	struct diag d;
	diag_init(&d);
	struct fio_ini ini;
	setenv("FIOJOB_TEST_BS", "8k", 1);
	unsetenv("FIOJOB_TEST_UNSET");
	const char *text = "; comment\n# comment\n[global]\nbs = ${FIOJOB_TEST_BS} ; trailing\n"
	                   "Time_Based\n\n[job one]\nsize=${FIOJOB_TEST_UNSET}1m\n";
	assert_int_equal(fio_ini_read_text("t.fio", text, &ini, &d), 0);
	assert_int_equal(ini.n, 2);
	assert_true(ini.sec[0].global);
	assert_string_equal(ini.sec[0].opt[0].key, "bs");
	assert_string_equal(ini.sec[0].opt[0].val, "8k");
	assert_int_equal(ini.sec[0].opt[0].pos.line, 4);
	assert_string_equal(ini.sec[0].opt[1].key, "time_based");
	assert_null(ini.sec[0].opt[1].val);
	assert_string_equal(ini.sec[1].name, "job one");
	assert_string_equal(ini.sec[1].opt[0].val, "1m");

	struct fio_scenario sc;
	assert_int_equal(fio_map(&ini, "t.fio", false, NULL, &sc, &d), 0);
	assert_int_equal(sc.n, 1);
	assert_string_equal(sc.step[0].name, "job-one");
	assert_string_equal(fio_kv_get(&sc.step[0].io, "bs")->val, "8KiB");
	assert_string_equal(fio_kv_get(&sc.step[0].io, "time_based")->val, "true");
	assert_string_equal(fio_kv_get(&sc.step[0].io, "cache")->val, "invalidate");
	fio_scenario_free(&sc);
	fio_ini_free(&ini);

	assert_int_equal(fio_ini_read_text("u.fio", "[j]\nrw=read\nbogus=1\n", &ini, &d), 0);
	assert_int_equal(fio_map(&ini, "u.fio", false, NULL, &sc, &d), -1);
	assert_int_equal(d.nerrors, 1);
	assert_int_equal(d.v[0].pos.line, 3);
	assert_string_equal(d.v[0].msg, "unsupported option 'bogus'");
	fio_scenario_free(&sc);
	fio_ini_free(&ini);
	diag_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sizes_kb_base),
	    cmocka_unit_test(test_times),
	    cmocka_unit_test(test_ini),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
