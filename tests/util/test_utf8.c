/* test_utf8: bytes to valid UTF-8 text (util/utf8). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

#define R UTF8_REPLACEMENT

struct clean_case {
	const char *in;
	size_t n;
	unsigned flags;
	const char *want;
};

static void check_cases(const struct clean_case *c, size_t nc)
{
	for (size_t i = 0; i < nc; i++) {
		size_t len = 12345;
		char *s = utf8_clean(c[i].in, c[i].n, c[i].flags, &len);
		assert_non_null(s);
		if (strcmp(s, c[i].want) != 0 || len != strlen(c[i].want))
			fail_msg("case %zu: got '%s' (%zu bytes)", i, s, len);
		/* the clean text is clean, and the other functions agree */
		assert_true(utf8_is_clean(s, len, c[i].flags));
		assert_int_equal(utf8_is_clean(c[i].in, c[i].n, c[i].flags),
		                 strcmp(c[i].want, c[i].in) == 0 && c[i].n == strlen(c[i].in));
		char *buf = NULL;
		size_t blen = 0;
		FILE *f = open_memstream(&buf, &blen);
		utf8_fput(f, c[i].in, c[i].n, c[i].flags);
		fclose(f);
		if (blen != len || memcmp(buf, s, len) != 0)
			fail_msg("case %zu: utf8_fput wrote '%s'", i, buf);
		free(buf);
		free(s);
	}
}

static void test_invalid_bytes(void **state)
{
	static const struct clean_case cases[] = {
	    {"", 0, 0, ""},
	    {"plain ascii", 11, 0, "plain ascii"},
	    {"\377\376", 2, 0, R R},
	    {"a\0b\0", 4, 0, "a" R "b" R}, /* NUL does not end the text */
	    {"caf\xc3\xa9", 5, 0, "caf\xc3\xa9"},
	    {"\xe2\x82\xac", 3, 0, "\xe2\x82\xac"},         /* U+20AC */
	    {"\xf0\x9f\x98\x80", 4, 0, "\xf0\x9f\x98\x80"}, /* U+1F600 */
	    {"\xf4\x8f\xbf\xbf", 4, 0, "\xf4\x8f\xbf\xbf"}, /* U+10FFFF */
	    {"\xef\xbf\xbd", 3, 0, R},                      /* U+FFFD itself */
	    {"\xc3", 1, 0, R},                              /* cut short at the end */
	    {"\xe2\x82 x", 4, 0, R R " x"},                 /* cut short before a space */
	    {"\x80\xbf", 2, 0, R R},                        /* stray continuation bytes */
	    {"\xc0\xaf", 2, 0, R R},                        /* overlong '/' */
	    {"\xc1\xbf", 2, 0, R R},                        /* overlong */
	    {"\xe0\x80\xaf", 3, 0, R R R},                  /* overlong, 3 bytes */
	    {"\xf0\x80\x80\xaf", 4, 0, R R R R},            /* overlong, 4 bytes */
	    {"\xed\xa0\x80", 3, 0, R R R},                  /* lone high surrogate U+D800 */
	    {"\xed\xbf\xbf", 3, 0, R R R},                  /* lone low surrogate U+DFFF */
	    {"\xed\x9f\xbf", 3, 0, "\xed\x9f\xbf"},         /* U+D7FF is fine */
	    {"\xf4\x90\x80\x80", 4, 0, R R R R},            /* above U+10FFFF */
	    {"\xf8\x88\x80\x80\x80", 5, 0, R R R R R},      /* 5-byte form */
	    {"\xfe\xff", 2, 0, R R},
	};
	check_cases(cases, sizeof(cases) / sizeof(cases[0]));
	(void)state;
}

static void test_controls(void **state)
{
	static const struct clean_case cases[] = {
	    /* without flags controls are kept (JSON escapes them) */
	    {"a\x01\x1b[31m\r\n\t\x7f", 11, 0, "a\x01\x1b[31m\r\n\t\x7f"},
	    /* UTF8_NO_CONTROLS: TAB, LF, CR kept (CSV) */
	    {"a\x01\x1b[31m\r\n\t\x7f", 11, UTF8_NO_CONTROLS, "a" R R "[31m\r\n\t" R},
	    /* and CR too (Markdown) */
	    {"a\x01\x1b[31m\r\n\t\x7f", 11, UTF8_NO_CONTROLS | UTF8_NO_CR, "a" R R "[31m" R "\n\t" R},
	    /* UTF8_NO_CR alone changes nothing */
	    {"a\rb", 3, UTF8_NO_CR, "a\rb"},
	    /* C1 controls are valid characters and kept */
	    {"\xc2\x9b", 2, UTF8_NO_CONTROLS | UTF8_NO_CR, "\xc2\x9b"},
	    {"\0\377\x1f", 3, UTF8_NO_CONTROLS, R R R},
	};
	check_cases(cases, sizeof(cases) / sizeof(cases[0]));
	(void)state;
}

/* Every byte value alone and every pair: the result is always clean. */
static void test_every_byte(void **state)
{
	for (unsigned a = 0; a < 256; a++) {
		for (unsigned b = 0; b < 256; b++) {
			char in[3] = {(char)a, (char)b, '\xbf'};
			size_t len;
			char *s = utf8_clean(in, 3, UTF8_NO_CONTROLS, &len);
			assert_non_null(s);
			assert_true(utf8_is_clean(s, len, UTF8_NO_CONTROLS));
			assert_true(len <= 9);
			assert_int_equal(strlen(s), len);
			free(s);
		}
	}
	(void)state;
}

static void test_sync(void **state)
{
	assert_int_equal(utf8_sync("abc", 3), 0);
	assert_int_equal(utf8_sync("\x82\xac x", 4), 2);       /* the end of a euro sign */
	assert_int_equal(utf8_sync("\x80\x80\x80\x80", 4), 3); /* never more than 3 */
	assert_int_equal(utf8_sync("\x80", 1), 1);
	assert_int_equal(utf8_sync("", 0), 0);
	assert_int_equal(utf8_sync("\xe2\x82\xac", 3), 0); /* starts a character */
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_invalid_bytes),
	    cmocka_unit_test(test_controls),
	    cmocka_unit_test(test_every_byte),
	    cmocka_unit_test(test_sync),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
