/* Unit tests for what src/campaign/campaign.c says about a finished run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "campaign/campaign.h"

/* The summary line: bootab's own share, never negative. */
static void test_result_summary(void **state)
{
	static const struct {
		double total, reboot, gate, rows;
		const char *line;
	} cases[] = {
		{ 13, 1, 2, 2.4, "campaign finished in 13 s: reboots 1 s, idle gates 2 s, rows 2 s, bootab's own steps 7.6 s (58.5 %)" },
		/* Parts measured on the target that outgrow the run (a resume, whole seconds). */
		{ 0.6, 0, 0, 1.6, "campaign finished in 1 s: reboots 0 s, idle gates 0 s, rows 2 s (measured on the target, partly before this run: more than this run's 1 s)" },
		{ 0, 0, 0, 0, "campaign finished in 0 s: reboots 0 s, idle gates 0 s, rows 0 s (measured on the target, partly before this run: more than this run's 0 s)" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct campaign_result r = { .total_s = cases[i].total, .reboot_s = cases[i].reboot,
					     .gate_s = cases[i].gate, .rows_s = cases[i].rows };
		char *line = campaign_result_summary(&r);

		assert_string_equal(line, cases[i].line);
		free(line);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_result_summary),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
