/* Unit tests for src/lib/json-text.c: json_text_dump() writes each real at its fewest digits, exactly. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lib/json-text.h"

/* What json_text_dump() writes of root with flags, the caller's. */
static char *dump(const json_t *root, size_t flags)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	assert_non_null(out);
	assert_int_equal(json_text_dump(out, root, flags), 0);
	assert_int_equal(fclose(out), 0);
	return text;
}

static void test_reals_read_back_exactly(void **state)
{
	/* Config constants, whole numbers, thirds, the extremes, each ulp of 0.1. */
	static const struct {
		double v;
		const char *text;       /* NULL: 17 digits */
	} cases[] = {
		{ 0.05, "0.05" }, { 0.8, "0.8" }, { 5, "5.0" }, { 400, "400.0" }, { -2.5, "-2.5" },
		{ 1e-5, "1e-5" }, { 1e20, "1e20" }, { 123456789012345678.0, "1.2345678901234568e17" },
		{ 0.1 + 0.2, "0.30000000000000004" }, { 1.0 / 3, "0.3333333333333333" },
		{ 398.8, "398.8" }, { -0.0, "-0.0" }, { DBL_MAX, NULL }, { DBL_MIN, NULL }, { 4.9e-324, "5e-324" },
	};
	json_t *all = json_array();
	char *text;
	json_t *back;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		json_array_append_new(all, json_real(cases[i].v));
	/* Every neighbour of 0.1 up to 64 ulps away: the shortest string of each, and each reads back. */
	for (double v = 0.1, k = 0; k < 64; k++, v = nextafter(v, 1))
		json_array_append_new(all, json_real(v));
	text = dump(all, JSON_COMPACT);
	back = json_loads(text, JSON_DECODE_ANY, NULL);
	assert_non_null(back);
	assert_int_equal(json_array_size(back), json_array_size(all));
	for (size_t i = 0; i < json_array_size(all); i++) {
		json_t *r = json_array_get(back, i);

		assert_true(json_is_real(r));
		assert_true(json_real_value(r) == json_real_value(json_array_get(all, i)));
		assert_true(signbit(json_real_value(r)) == signbit(json_real_value(json_array_get(all, i))));
		if (i < sizeof(cases) / sizeof(cases[0]) && cases[i].text)
			assert_non_null(strstr(text, cases[i].text));
	}
	/* In order, whole: the cases' own strings, comma-separated. */
	assert_int_equal(strncmp(text, "[0.05,0.8,5.0,400.0,-2.5,1e-5,1e20,1.2345678901234568e17,0.30000000000000004,"
				       "0.3333333333333333,398.8,-0.0,", strlen("[0.05,0.8,5.0,400.0,-2.5,1e-5,1e20,"
				       "1.2345678901234568e17,0.30000000000000004,0.3333333333333333,398.8,-0.0,")), 0);
	/* 0.1 itself, then its next double, which needs 17 digits. */
	assert_non_null(strstr(text, "5e-324,0.1,0.10000000000000002,"));
	json_decref(back);
	json_decref(all);
	free(text);
}

static void test_strings_and_integers_untouched(void **state)
{
	json_t *o = json_pack("{s:s,s:s,s:I,s:I,s:f,s:n}", "quoted", "say \"0.050000000000000003\" 1.50", "tail\\",
			      "2.0e+01", "n", (json_int_t)400, "neg", (json_int_t)-7, "alpha", 0.05, "none");
	char *text = dump(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
	char *want = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
	char *at = strstr(want, "0.050000000000000003,");

	(void)state;
	/* jansson's text but for the one real: strings (an escaped quote, a backslash last) and integers as they were. */
	assert_non_null(at);
	memmove(at + strlen("0.05"), at + strlen("0.050000000000000003"), strlen(at + strlen("0.050000000000000003")) + 1);
	assert_string_equal(text, want);
	free(want);
	free(text);
	json_decref(o);
}

/* json_text(): the same text as a string. */
static void test_text(void **state)
{
	json_t *o = json_pack("{s:f,s:f,s:[f,i]}", "joules", 0.05, "watts", 0.1 * 3, "samples", 44.0, 3);
	char *text = json_text(o, JSON_COMPACT | JSON_PRESERVE_ORDER), *via_file = dump(o, JSON_COMPACT | JSON_PRESERVE_ORDER);

	(void)state;
	assert_string_equal(text, "{\"joules\":0.05,\"watts\":0.30000000000000004,\"samples\":[44.0,3]}");
	assert_string_equal(text, via_file);
	free(via_file);
	free(text);
	json_decref(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reals_read_back_exactly),
		cmocka_unit_test(test_strings_and_integers_untouched),
		cmocka_unit_test(test_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
