/* Unit tests for src/plan/: parsing, errors with file/line/key, boot orders, managed args. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lib/alloc.h"
#include "lib/file.h"
#include "plan/plan.h"
#include "results/side-write.h"

static const char full_plan[] =
	"# a comment\n"
	"[campaign]\n"
	"target = lab\n"
	"order = translated strict passthrough off translated\n"
	"boot_timeout = 300\n"
	"power_cycle = bootab lab power-cycle\n"
	"watch = 0000:00:04.0\n"
	"history = /srv/bootab/history\n"
	"equivalence = 2%\n"
	"\n"
	"[mode \"translated\"]\n"
	"args =\n"
	"[mode \"strict\"]\n"
	"args = iommu.strict=1\n"
	"expect = iommu.groups=5\n"
	"expect = iommu.type(0000:00:04.0)=DMA\n"
	"[mode \"passthrough\"]\n"
	"args = iommu=pt\n"
	"[mode \"off\"]\n"
	"args = intel_iommu=off\n"
	"\n"
	"[row \"fio\"]\n"
	"command = fio --name=randread --rw=randread --bs=4k; echo done\n"
	"reps = 3\n"
	"parser = fio\n"
	"timeout = 60s\n"
	"[row \"lat\"]\n"
	"command = cat /tmp/lat\n"
	"parser = json .results[0].mean\n"
	"better = lower\n"
	"stat = median\n"
	"by_run = yes\n"
	"equivalence = 0.5\n"
	"[check \"disk\"]\n"
	"command = test -b /dev/vdb\n"
	"[version \"kernel\"]\n"
	"command = uname -r\n"
	"[idle]\n"
	"load = 1.5\n"
	"checks = 2\n"
	"interval = 1\n"
	"[park]\n"
	"command = echo park\n"
	"[unpark]\n"
	"command = echo unpark\n";

static void test_full_plan(void **state)
{
	struct parse_error err = PARSE_ERROR_INIT;
	struct plan p;
	struct plan_boot *boots;
	size_t n;
	char **managed;

	(void)state;
	assert_int_equal(plan_parse("lab.ini", full_plan, &p, &err), 0);
	assert_string_equal(p.target, "lab");
	assert_int_equal(p.boot_timeout_s, 300);
	assert_string_equal(p.power_cycle, "bootab lab power-cycle");
	assert_true(p.equivalence_pct == 2);
	assert_true(p.rows[1].equivalence_pct == 0.5);
	assert_true(p.rows[0].equivalence_pct == 0);
	assert_int_equal(p.n_modes, 4);
	assert_string_equal(p.modes[0].args_text, "");
	assert_null(p.modes[0].args[0]);
	assert_string_equal(p.modes[1].args[0], "iommu.strict=1");
	assert_int_equal(p.modes[1].expects.n, 2);
	assert_string_equal(p.modes[1].expects.items[1], "iommu.type(0000:00:04.0)=DMA");
	assert_int_equal(p.n_rows, 3);
	/* A ';' inside a command is not a comment. */
	assert_string_equal(p.rows[0].command, "fio --name=randread --rw=randread --bs=4k; echo done");
	assert_int_equal(p.rows[0].reps, 3);
	assert_int_equal(p.rows[0].parser, PARSER_FIO);
	assert_int_equal(p.rows[0].timeout_s, 60);
	assert_int_equal(p.rows[1].parser, PARSER_JSON);
	assert_string_equal(p.rows[1].selector, ".results[0].mean");
	assert_true(p.rows[1].better_lower);
	assert_int_equal(p.rows[1].stat, STAT_MEDIAN);
	assert_true(p.rows[1].by_run);
	assert_int_equal(p.rows[1].reps, 5);
	assert_true(p.rows[2].check);
	assert_int_equal(p.rows[2].reps, 1);
	assert_int_equal(p.n_versions, 1);
	assert_true(p.idle.load == 1.5);
	assert_int_equal(p.idle.checks, 2);
	assert_true(p.idle.gpu_pct == 5);
	assert_int_equal(p.park.n, 1);
	assert_string_equal(p.unpark.items[0], "echo unpark");

	n = plan_boots(&p, &boots);
	assert_int_equal(n, 5);
	assert_string_equal(boots[0].label, "translated");
	assert_string_equal(boots[3].label, "off");
	assert_string_equal(boots[4].label, "translated2");
	assert_int_equal(boots[4].mode, 0);
	plan_boots_free(boots, n);

	managed = plan_managed_args(&p);
	assert_string_equal(managed[0], "iommu.strict=1");
	assert_string_equal(managed[1], "iommu=pt");
	assert_string_equal(managed[2], "intel_iommu=off");
	assert_null(managed[3]);
	strv_free(managed);
	plan_release(&p);
	parse_error_release(&err);
}

struct order_case {
	const char *campaign;
	const char *labels;     /* expected, space separated */
};

static const struct order_case orders[] = {
	{ "", "a b c a2" },
	{ "order = abca\nrounds = 2\n", "a b c a2 b2 c2 a3" },
	{ "order = abba\n", "a b c c2 b2 a2" },
	{ "order = aa\nrounds = 3\n", "a a2 a3 a4" },
	/* rounds = auto: the boots of its ceiling, stopped early when a look decides. */
	{ "rounds = auto\nmax_rounds = 2\n", "a b c a2 b2 c2 a3" },
	{ "order = c a b c\n", "c a b c2" },
};

/* plan_format(): every setting spelled out; parsing it gives the same text back. */
static void test_format(void **state)
{
	static const char expected[] =
		"[campaign]\n"
		"target = lab\n"
		"backend = auto\n"
		"order = translated strict passthrough off translated\n"
		"rounds = 1\n"
		"boot_timeout = 300\n"
		"power_cycle = bootab lab power-cycle\n"
		"oneshot = auto\n"
		"watch = 0000:00:04.0\n"
		"history = /srv/bootab/history\n"
		"reps = 5\n"
		"equivalence = 2%\n"
		"\n[idle]\nload = 1.5\ngpu = 5\nchecks = 2\ninterval = 1\ntimeout = 0\n"
		"\n[park]\ncommand = echo park\n"
		"\n[unpark]\ncommand = echo unpark\n"
		"\n[mode \"translated\"]\n"
		"\n[mode \"strict\"]\nargs = iommu.strict=1\n"
		"expect = iommu.groups=5\nexpect = iommu.type(0000:00:04.0)=DMA\n"
		"\n[mode \"passthrough\"]\nargs = iommu=pt\n"
		"\n[mode \"off\"]\nargs = intel_iommu=off\n"
		"\n[row \"fio\"]\ncommand = fio --name=randread --rw=randread --bs=4k; echo done\n"
		"command = \ncommand = # not a comment\n"
		"reps = 3\nparser = fio\ntimeout = 60\n"
		"\n[row \"lat\"]\ncommand = cat /tmp/lat\nreps = 5\nparser = json .results[0].mean\n"
		"stat = median\nby_run = yes\nequivalence = 0.5%\nbetter = lower\ntimeout = 3600\n"
		"\n[check \"disk\"]\ncommand = test -b /dev/vdb\ntimeout = 3600\n"
		"\n[version \"kernel\"]\ncommand = uname -r\n";
	struct parse_error err = PARSE_ERROR_INIT;
	struct plan p, again;
	char *text, *plan_text, *twice;
	const char *at = strstr(full_plan, "echo done\n") + strlen("echo done\n");

	(void)state;
	/* A command with an empty line and a line a continuation could not carry. */
	assert_true(asprintf(&plan_text, "%.*scommand =\ncommand = # not a comment\n%s",
			     (int)(at - full_plan), full_plan, at) > 0);
	assert_int_equal(plan_parse("lab.ini", plan_text, &p, &err), 0);
	assert_string_equal(p.rows[0].command, "fio --name=randread --rw=randread --bs=4k; echo done\n\n# not a comment");
	text = plan_format(&p);
	assert_string_equal(text, expected);
	assert_int_equal(plan_parse("lab.ini", text, &again, &err), 0);
	assert_string_equal(again.rows[0].command, p.rows[0].command);
	plan_release(&again);
	/* A later parser line replaces an earlier one, selector included. */
	assert_int_equal(plan_parse("lab.ini", "[mode \"a\"]\n[row \"r\"]\ncommand = x\n"
				    "parser = json .a\nparser = json .b\n", &again, &err), 0);
	assert_string_equal(again.rows[0].selector, ".b");
	plan_release(&again);
	/* A regex row with several statistics: every key written back, in order. */
	{
		static const char regex_row[] = "[mode \"a\"]\n\n[row \"dma\"]\n"
			"command = dma_map_benchmark -s 30\nreps = 5\nparser = regex\n"
			"metric = map latency\npattern = ^average map latency\\(us\\):([0-9.]+) standard\n"
			"unit = us\nstat = mean, min\nbetter = lower\n";
		char *formatted;

		assert_int_equal(plan_parse("k.ini", regex_row, &again, &err), 0);
		assert_int_equal(again.rows[0].parser, PARSER_REGEX);
		assert_string_equal(again.rows[0].metric, "map latency");
		assert_string_equal(again.rows[0].pattern, "^average map latency\\(us\\):([0-9.]+) standard");
		assert_string_equal(again.rows[0].unit, "us");
		assert_int_equal(again.rows[0].n_stats, 2);
		assert_int_equal(again.rows[0].stats[0], STAT_MEAN);
		assert_int_equal(again.rows[0].stats[1], STAT_MIN);
		assert_int_equal(again.rows[0].stat, STAT_MEAN);
		assert_true(again.rows[0].better_lower);
		formatted = plan_format(&again);
		assert_non_null(strstr(formatted, "\n[row \"dma\"]\ncommand = dma_map_benchmark -s 30\nreps = 5\n"
					  "parser = regex\nmetric = map latency\n"
					  "pattern = ^average map latency\\(us\\):([0-9.]+) standard\nunit = us\n"
					  "stat = mean,min\nbetter = lower\ntimeout = 3600\n"));
		plan_release(&again);
		assert_int_equal(plan_parse("k.ini", formatted, &again, &err), 0);
		assert_int_equal(again.rows[0].n_stats, 2);
		assert_string_equal(again.rows[0].pattern, "^average map latency\\(us\\):([0-9.]+) standard");
		plan_release(&again);
		free(formatted);
	}
	assert_int_equal(plan_parse("lab.ini", text, &again, &err), 0);
	twice = plan_format(&again);
	assert_string_equal(twice, text);
	free(twice);
	free(text);
	free(plan_text);
	plan_release(&p);
	plan_release(&again);
	parse_error_release(&err);
}

/* perf: the campaign's events for every row, a row's own, perf = off; all written back. */
static void test_perf_keys(void **state)
{
	static const char text[] = "[campaign]\nperf = task-clock,page-faults\nperf_scope = system\n"
		"[mode \"a\"]\n[row \"all\"]\ncommand = x\n[row \"own\"]\ncommand = y\n"
		"perf = {cycles,instructions},cpu/event=0x3c/u,sched:sched_switch\nperf_scope = command\n"
		"[row \"none\"]\ncommand = z\nperf = off\n[check \"c\"]\ncommand = true\n";
	struct parse_error err = PARSE_ERROR_INIT;
	struct plan p, again;
	char *formatted;

	(void)state;
	assert_int_equal(plan_parse("p.ini", text, &p, &err), 0);
	assert_string_equal(plan_row_perf(&p, &p.rows[0]), "task-clock,page-faults");
	assert_true(plan_row_perf_system(&p, &p.rows[0]));
	assert_string_equal(plan_row_perf(&p, &p.rows[1]), "{cycles,instructions},cpu/event=0x3c/u,sched:sched_switch");
	assert_false(plan_row_perf_system(&p, &p.rows[1]));
	assert_null(plan_row_perf(&p, &p.rows[2]));
	assert_null(plan_row_perf(&p, &p.rows[3]));
	formatted = plan_format(&p);
	assert_non_null(strstr(formatted, "\nperf = task-clock,page-faults\nperf_scope = system\n"));
	assert_non_null(strstr(formatted, "\nperf = {cycles,instructions},cpu/event=0x3c/u,sched:sched_switch\nperf_scope = command\n"));
	assert_non_null(strstr(formatted, "parser = auto\nperf = off\ntimeout = 3600\n"));
	assert_int_equal(plan_parse("p.ini", formatted, &again, &err), 0);
	assert_string_equal(plan_row_perf(&again, &again.rows[1]), plan_row_perf(&p, &p.rows[1]));
	assert_null(plan_row_perf(&again, &again.rows[2]));
	assert_true(plan_row_perf_system(&again, &again.rows[0]));
	/* energy: the campaign's for every row, a row's own off; a check never. */
	assert_false(plan_row_energy(&p, &p.rows[0]));
	plan_release(&again);
	assert_int_equal(plan_parse("p.ini", "[campaign]\nenergy = on\n[mode \"a\"]\n[row \"r\"]\ncommand = x\n"
				    "[row \"s\"]\ncommand = y\nenergy = off\n[check \"c\"]\ncommand = z\n", &again, &err), 0);
	assert_true(plan_row_energy(&again, &again.rows[0]));
	assert_false(plan_row_energy(&again, &again.rows[1]));
	assert_false(plan_row_energy(&again, &again.rows[2]));
	free(formatted);
	formatted = plan_format(&again);
	assert_non_null(strstr(formatted, "\nenergy = on\n"));
	assert_non_null(strstr(formatted, "parser = auto\nenergy = off\ntimeout = 3600\n"));
	free(formatted);
	plan_release(&again);
	/* [prepare]: its commands in order, written back. */
	assert_int_equal(plan_parse("p.ini", "[mode \"a\"]\n[prepare]\ncommand = sync\ncommand = echo 3 > /proc/sys/vm/drop_caches\n",
				    &again, &err), 0);
	assert_int_equal(again.prepare.n, 2);
	assert_string_equal(again.prepare.items[1], "echo 3 > /proc/sys/vm/drop_caches");
	formatted = plan_format(&again);
	assert_non_null(strstr(formatted, "\n[prepare]\ncommand = sync\ncommand = echo 3 > /proc/sys/vm/drop_caches\n"));
	free(formatted);
	plan_release(&p);
	plan_release(&again);
	parse_error_release(&err);
}

/* What a side records of each row: the row's own keys, the campaign's perf and energy where it has none. */
static void test_side_plan(void **state)
{
	static const char text[] = "[campaign]\nperf = task-clock\nperf_scope = system\nenergy = on\n"
		"[mode \"a\"]\n[row \"lat\"]\ncommand = x\nreps = 3\ntimeout = 60\nparser = regex\n"
		"metric = map latency\npattern = latency: ([0-9.]+)\nunit = us\nbetter = lower\nstat = min, median\n"
		"by_run = yes\n[row \"quiet\"]\ncommand = y\nparser = json .a.b\nperf = off\nenergy = off\n"
		"[check \"c\"]\ncommand = true\n[version \"kernel\"]\ncommand = uname -r\n"
		"[version \"fio\"]\ncommand = fio --version\n";
	struct parse_error err = PARSE_ERROR_INIT;
	struct side_plan side;
	struct plan p;
	const struct side_row *r;

	(void)state;
	assert_int_equal(plan_parse("p.ini", text, &p, &err), 0);
	plan_side(&p, &side);
	assert_int_equal(side.n_rows, 3);
	r = &side.rows[0];
	assert_string_equal(r->name, "lat");
	assert_false(r->check);
	assert_int_equal(r->reps, 3);
	assert_int_equal(r->timeout_s, 60);
	assert_int_equal(r->parser, PARSER_REGEX);
	assert_string_equal(r->metric, "map latency");
	assert_string_equal(r->pattern, "latency: ([0-9.]+)");
	assert_string_equal(r->unit, "us");
	assert_true(r->has_better && r->better_lower);
	assert_int_equal(r->stat, STAT_MIN);
	assert_int_equal(r->n_stats, 2);
	assert_int_equal(r->stats[1], STAT_MEDIAN);
	assert_true(r->by_run);
	assert_string_equal(r->perf, "task-clock");
	assert_true(r->perf_system);
	assert_true(r->energy);
	r = &side.rows[1];
	assert_int_equal(r->parser, PARSER_JSON);
	assert_string_equal(r->selector, ".a.b");
	assert_false(r->has_better);
	assert_int_equal(r->stat, STAT_MEAN);
	assert_null(r->perf);
	assert_false(r->energy);
	r = &side.rows[2];
	assert_string_equal(r->name, "c");
	assert_true(r->check);
	assert_null(r->perf);
	assert_false(r->energy);
	assert_int_equal(side.n_versions, 2);
	assert_string_equal(side.versions[0], "kernel");
	assert_string_equal(side.versions[1], "fio");
	plan_side_release(&side);
	plan_release(&p);
	parse_error_release(&err);
}

/* rounds = auto: its ceiling defaults to 6 and both keys are written back. */
static void test_rounds_auto(void **state)
{
	struct parse_error err = PARSE_ERROR_INIT;
	struct plan p, again;
	char *text;

	(void)state;
	assert_int_equal(plan_parse("a.ini", "[campaign]\nrounds = auto\n[mode \"a\"]\n[mode \"b\"]\n", &p, &err), 0);
	assert_true(p.rounds_auto);
	assert_int_equal(p.max_rounds, 6);
	assert_int_equal(p.rounds, 6);
	text = plan_format(&p);
	assert_non_null(strstr(text, "\nrounds = auto\nmax_rounds = 6\n"));
	assert_int_equal(plan_parse("a.ini", text, &again, &err), 0);
	assert_true(again.rounds_auto);
	assert_int_equal(again.max_rounds, 6);
	free(text);
	plan_release(&again);
	plan_release(&p);
	/* A number after auto is a fixed campaign again. */
	assert_int_equal(plan_parse("a.ini", "[campaign]\nrounds = auto\nrounds = 3\n[mode \"a\"]\n", &p, &err), 0);
	assert_false(p.rounds_auto);
	assert_int_equal(p.rounds, 3);
	plan_release(&p);
	parse_error_release(&err);
}

static void test_orders(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(orders) / sizeof(orders[0]); i++) {
		char text[512];
		struct parse_error err = PARSE_ERROR_INIT;
		struct plan p;
		struct plan_boot *boots;
		char got[256] = "";
		size_t n;

		snprintf(text, sizeof(text),
			 "[campaign]\n%s[mode \"a\"]\n[mode \"b\"]\nargs = x=1\n[mode \"c\"]\nargs = y\n",
			 orders[i].campaign);
		assert_int_equal(plan_parse("o.ini", text, &p, &err), 0);
		n = plan_boots(&p, &boots);
		for (size_t k = 0; k < n; k++) {
			strncat(got, boots[k].label, sizeof(got) - strlen(got) - 2);
			if (k + 1 < n)
				strcat(got, " ");
		}
		assert_string_equal(got, orders[i].labels);
		plan_boots_free(boots, n);
		plan_release(&p);
		parse_error_release(&err);
	}
}

static void test_random_order_is_seeded(void **state)
{
	const char *text = "[campaign]\norder = random\nrounds = 4\nseed = 42\n"
			   "[mode \"a\"]\n[mode \"b\"]\nargs = x=1\n[mode \"c\"]\nargs = y\n";
	struct parse_error err = PARSE_ERROR_INIT;
	struct plan p, q;
	struct plan_boot *b1, *b2;
	size_t n1, n2, count[3] = { 0 };

	(void)state;
	assert_int_equal(plan_parse("r.ini", text, &p, &err), 0);
	assert_int_equal(plan_parse("r.ini", text, &q, &err), 0);
	n1 = plan_boots(&p, &b1);
	n2 = plan_boots(&q, &b2);
	assert_int_equal(n1, n2);
	for (size_t i = 0; i < n1; i++) {
		assert_int_equal(b1[i].mode, b2[i].mode);
		count[b1[i].mode]++;
	}
	/* The first mode opens and closes; every mode once per round. */
	assert_int_equal(b1[0].mode, 0);
	assert_int_equal(b1[n1 - 1].mode, 0);
	assert_int_equal(count[1], 4);
	assert_int_equal(count[2], 4);
	assert_true(count[0] >= 5);
	plan_boots_free(b1, n1);
	plan_boots_free(b2, n2);
	plan_release(&p);
	plan_release(&q);
	parse_error_release(&err);
}

struct error_case {
	const char *text;
	unsigned line;
	const char *message;
};

static const struct error_case errors[] = {
	{ "[campaign]\ntarget = lab\n", 0, "no [mode \"NAME\"] section: a campaign needs at least one mode" },
	{ "[mode \"a\"]\nargs = iommu=pt; reboot\n", 2, "args: " },
	{ "[mode \"a\"]\n[campaign]\nrounds = many\n", 3, "rounds: 'many' is not a whole number from 1 to 100" },
	{ "[mode \"a\"]\n[campaign]\nrounds = auto\nmax_rounds = 21\n", 4, "max_rounds: '21' is not a whole number from 2 to 20" },
	{ "[campaign]\nmax_rounds = 3\n[mode \"a\"]\n", 2, "max_rounds: only with rounds = auto" },
	{ "[campaign]\norder = abba\nrounds = auto\n[mode \"a\"]\n", 3, "rounds: rounds = auto works with the default order only" },
	{ "[mode \"a\"]\n[campaign]\nbackend = lilo\n", 3, "backend: unknown backend 'lilo'" },
	{ "[mode \"a\"]\n[campaign]\ncolour = red\n", 3, "colour: unknown key in [campaign]" },
	{ "[mode \"a\"]\n[mode \"a\"]\n", 2, "section [mode \"a\"]: mode 'a' is defined twice" },
	{ "[mode \"a b\"]\n", 1, "section [mode \"a b\"]: the name must be" },
	{ "[mode]\nargs = x\n", 1, "section [mode] needs a name" },
	{ "[mode \"a\"]\n[row \"r\"]\nreps = 3\n", 2, "command: missing in [row \"r\"]" },
	{ "[mode \"a\"]\n[row \"r\"]\ncommand = x\nparser = xml\n", 4, "parser: 'xml' is not a parser" },
	{ "[mode \"a\"]\n[row \"r\"]\ncommand = x\nparser = fio\nbetter = lower\n", 2, "better: only number, json and regex rows" },
	{ "[mode \"a\"]\n[row \"r\"]\ncommand = x\nparser = regex\nmetric = lat\nbetter = lower\n", 2,
	  "pattern: missing in [row \"r\"]: parser = regex needs metric, pattern and better" },
	{ "[mode \"a\"]\n[row \"r\"]\ncommand = x\nparser = regex\npattern = ([0-9]+)\nbetter = lower\n", 2,
	  "metric: missing in [row \"r\"]" },
	{ "[mode \"a\"]\n[row \"r\"]\ncommand = x\nparser = regex\nmetric = lat\npattern = ([0-9]+)\n", 2,
	  "better: missing in [row \"r\"]" },
	{ "[mode \"a\"]\n[row \"r\"]\ncommand = x\nparser = regex\nmetric = lat\npattern = lat=([0-9]+\n", 6,
	  "pattern: not a POSIX extended regular expression: " },
	{ "[mode \"a\"]\n[row \"r\"]\ncommand = x\nparser = regex\nmetric = lat\npattern = (([0-9]+)+)+\\2b\nbetter = lower\n", 6,
	  "pattern: not a POSIX extended regular expression: the pattern holds a back-reference ('\\2')" },
	{ "[mode \"a\"]\n[row \"r\"]\ncommand = x\nparser = regex\nmetric = lat\npattern = (a)=(b)\n", 6,
	  "pattern: the pattern has 2 groups; it needs exactly one, around the number" },
	{ "[mode \"a\"]\n[row \"r\"]\ncommand = x\nparser = fio\npattern = (a)\n", 2,
	  "pattern: only regex rows (parser = regex) take metric, pattern and unit" },
	{ "[mode \"a\"]\n[row \"r\"]\ncommand = x\nunit = ms\n", 2, "unit: only regex rows" },
	{ "[mode \"a\"]\n[row \"r\"]\ncommand = x\nmetric = a\tb\n", 4, "metric: 'a\tb' is not a printable name" },
	{ "[mode \"a\"]\n[row \"r\"]\ncommand = x\nstat = mean,mean\n", 4,
	  "stat: 'mean,mean' is not mean, median, min or max, or a list of them such as mean,min" },
	{ "[mode \"a\"]\n[row \"r\"]\ncommand = x\nstat = mean,avg\n", 4, "stat: 'mean,avg' is not" },
	{ "[mode \"a\"]\n[check \"c\"]\ncommand = x\nreps = 3\n", 4, "reps: unknown key in [check \"c\"]" },
	{ "[mode \"a\"]\n[check \"c\"]\ncommand = x\nperf = cycles\n", 4, "perf: unknown key in [check \"c\"]" },
	{ "[mode \"a\"]\n[row \"r\"]\ncommand = x\nperf = cycles;reboot\n", 4,
	  "perf: 'cycles;reboot' is not a perf event list: ';' is none of letters, digits and - _ . : / = , @ ~ + { }" },
	{ "[mode \"a\"]\n[row \"r\"]\ncommand = x\nperf = cycles\nperf = off\n", 5, "perf: given twice in [row \"r\"]" },
	{ "[mode \"a\"]\n[row \"r\"]\ncommand = x\nperf =\n", 4, "perf: '' is not a perf event list (1 to 1024 bytes, or off)" },
	{ "[mode \"a\"]\n[campaign]\nperf = ?\n", 3, "perf: '?' is not a perf event list: " },
	{ "[mode \"a\"]\n[campaign]\nperf_scope = box\n", 3, "perf_scope: 'box' is not command or system" },
	{ "[mode \"a\"]\n[row \"r\"]\ncommand = x\nenergy = rapl\n", 4, "energy: 'rapl' is not yes or no" },
	{ "[mode \"a\"]\n[prepare]\nrun = x\n", 3, "run: unknown key in [prepare] (command)" },
	{ "[mode \"a\"]\n[prepare \"x\"]\ncommand = x\n", 2, "section [prepare] takes no name" },
	{ "[campaign]\ntarget = lava\n[mode \"a\"]\n[prepare]\ncommand = sync\n[lava]\nurl = http://l\ndevice = d\n"
	  "kernel = file:///k\ninitramfs = file:///i\nprompt = #\ntoken_env = T\n", 0, "prepare: [prepare] is for boxes bootab reaches" },
	{ "[mode \"a\"]\n[check \"c\"]\ncommand = x\nenergy = on\n", 4, "energy: unknown key in [check \"c\"]" },
	{ "[mode \"a\"]\n[campaign]\norder = a b\n", 0, "order: 'b' is not a mode of this plan" },
	{ "[mode \"a\"]\n[frobs]\nx = 1\n", 2, "unknown section [frobs]" },
	{ "[campaign]\nignore = ((a{255}){255}){255}\n[mode \"a\"]\n", 2,
	  "ignore: '((a{255}){255}){255}': the pattern's repeats ('+', {m,n}) copy it more than 100000 times over" },
	{ "[mode \"a\"]\nthis line has no equals sign\n", 2, "not a key = value line or a [section] header" },
	{ "[mode \"a\"]\n[idle]\ngpu = 150\n", 3, "gpu: '150' is not a number from 0 to 100" },
	{ "[mode \"a\"]\n[row \"r\"]\ncommand = x\nparser = json results[\n", 4, "parser: " },
	{ "[mode \"a\"]\n[campaign]\nwatch = $(reboot)\n", 0, "watch: '$(reboot)' is not a device address" },
	{ "[mode \"a\"]\n[campaign]\ntarget = a\ntarget = b\n", 4, "target: given twice in [campaign]" },
	{ "[mode \"a\"]\n[campaign]\nhistory = off\nhistory = /h.json\n", 4, "history: given twice in [campaign]" },
	{ "[mode \"a\"]\n[campaign]\nhistory = /h.json\nhistory = off\n", 4, "history: given twice in [campaign]" },
	{ "[mode \"a\"]\n[campaign]\nhistory =\n", 3, "history: empty" },
	{ "[mode \"a\"]\n[campaign]\nhistory = a\tb\n", 3, "history: 'a\tb' is not a path or off" },
	/* Boot labels are side directories: unique, and none the layout reserves. */
	{ "[mode \"tr\"]\n[mode \"tr2\"]\nargs = iommu=pt\n", 2,
	  "boots 2 and 3 would both be labelled 'tr2' (boot 1 of mode 'tr2' and boot 2 of mode 'tr'): rename mode 'tr2'" },
	{ "[campaign]\norder = tr2 tr tr\n[mode \"tr\"]\n[mode \"tr2\"]\n", 4,
	  "boots 1 and 3 would both be labelled 'tr2' (boot 1 of mode 'tr2' and boot 2 of mode 'tr'): rename mode 'tr2'" },
	{ "[campaign]\nrounds = 12\n[mode \"a\"]\n[mode \"a1\"]\nargs = x\n", 3,
	  "boots 4 and 23 would both be labelled 'a12' (boot 2 of mode 'a1' and boot 12 of mode 'a'): rename mode 'a1' or 'a'" },
	{ "[mode \"pt\"]\n[mode \"..\"]\n", 2, "section [mode \"..\"]: '..' cannot name a mode (its boots are directories of the campaign): names starting with '.'" },
	{ "[mode \".\"]\n", 1, "section [mode \".\"]: '.' cannot name a mode" },
	{ "[mode \"journal\"]\n", 1, "section [mode \"journal\"]: 'journal' cannot name a mode (its boots are directories of the campaign): a file of the campaign directory has that name" },
	{ "[mode \"plan.ini\"]\n", 1, "section [mode \"plan.ini\"]: 'plan.ini' cannot name a mode" },
	{ "[mode \"report.txt\"]\n", 1, "section [mode \"report.txt\"]: 'report.txt' cannot name a mode" },
	{ "[mode \"pt.abandoned-1\"]\n", 1, "section [mode \"pt.abandoned-1\"]: 'pt.abandoned-1' cannot name a mode" },
	{ "[mode \"a\"]\n[row \"..\"]\ncommand = x\n", 2, "section [row \"..\"]: '..' cannot name a row: names starting with '.'" },
	{ "[mode \"a\"]\n[check \".hidden\"]\ncommand = x\n", 2, "section [check \".hidden\"]: '.hidden' cannot name a check" },
	/* ssh would read it as an option. */
	{ "[mode \"a\"]\n[campaign]\ntarget = -oProxyCommand=touch${IFS}/tmp/x\n", 3,
	  "target: '-oProxyCommand=touch${IFS}/tmp/x' is not local, lab or an SSH destination" },
	{ "[mode \"a\"]\n[campaign]\ntarget = user@host name\n", 3, "target: 'user@host name' is not local" },
	{ "[mode \"a\"]\nkernel = 6.1.0-57-amd64\nkernel = 6.12.57+deb12-amd64\n", 3, "kernel: given twice in [mode \"a\"]" },
	{ "[mode \"a\"]\nkernel = 6.1;reboot\n", 2, "kernel: '6.1;reboot' is not a kernel release" },
	{ "[mode \"a\"]\nkernel = -rf\n", 2, "kernel: '-rf' is not a kernel release: it begins with '-'" },
	{ "[mode \"a\"]\nkernel = /etc/shadow\n", 2, "kernel: '/etc/shadow' is a path outside /boot" },
	{ "[mode \"a\"]\nkernel = /boot/../etc/shadow\n", 2, "kernel: '/boot/../etc/shadow' is not a plain path" },
	{ "[mode \"a\"]\nkernel = /boot/\n", 2, "kernel: '/boot/' is a path outside /boot" },
	{ "[mode \"a\"]\nkernel = /boot/vmlinuz-6.1 x\n", 2, "kernel: '/boot/vmlinuz-6.1 x' is not a path bootab takes" },
	/* target = lava and its [lava] section. */
	{ "[campaign]\ntarget = lava\n[mode \"a\"]\n[lava]\nkernel_args = console=\"ttyS0\"\n", 5, "kernel_args: invalid kernel argument" },
	{ "[campaign]\ntarget = lava\n[mode \"a\"]\n[mode \"b\"]\nargs = pti=on\n[lava]\nurl = http://lava.example\nkernel = file:///k\ninitramfs = file:///i\nprompt = # \ntoken_env = T\n", 6, "device: missing in [lava]: the jobs are pinned by device, tags or both" },
	{ "[campaign]\ntarget = lava\n[mode \"a\"]\n[mode \"b\"]\nargs = pti=on\n[lava]\nurl = http://lava.example\ndevice = d1\nkernel = file:///k\ninitramfs = file:///i\nprompt = # \n", 6, "token_file: [lava] takes token_file or token_env: one of them" },
	{ "[campaign]\ntarget = lava\n[mode \"a\"]\n[mode \"b\"]\nargs = pti=on\n[lava]\nurl = http://lava.example\ndevice = d1\nkernel = file:///k\ninitramfs = file:///i\nprompt = # \ntoken_env = T\ntoken_file = /t\n", 6, "token_file: [lava] takes token_file or token_env" },
	{ "[campaign]\ntarget = lava\n[mode \"a\"]\n[mode \"b\"]\nargs = pti=on\n[lava]\nurl = ftp://lava.example\n", 7, "url: 'ftp://lava.example' is not an http:// or https:// URL" },
	{ "[campaign]\ntarget = lava\n[mode \"a\"]\n[mode \"b\"]\nargs = pti=on\n[lava]\nurl = http://lava.example/\"x\n", 7, "url: 'http://lava.example/\"x' is not an http:// or https:// URL" },
	{ "[campaign]\ntarget = lava\n[mode \"a\"]\n[mode \"b\"]\nargs = pti=on\n[lava]\nkernel = http://h/k{x}\n", 7, "kernel: 'http://h/k{x}' is not an http://, https:// or file:/// URL" },
	{ "[campaign]\ntarget = lava\n[mode \"a\"]\n[mode \"b\"]\nargs = pti=on\n[lava]\ndevice = -d\n", 7, "device: '-d' is not a LAVA name" },
	{ "[campaign]\ntarget = lava\n[mode \"a\"]\n[mode \"b\"]\nargs = pti=on\n[lava]\ntags = ok b$d\n", 7, "tags: 'b$d' is not a LAVA tag" },
	{ "[campaign]\ntarget = lava\n[mode \"a\"]\n[mode \"b\"]\nargs = pti=on\n[lava]\ndevice_type = x86\n", 7, "device_type: 'x86': bootab writes jobs for LAVA's qemu device type only" },
	{ "[campaign]\ntarget = lava\n[mode \"a\"]\n[mode \"b\"]\nargs = pti=on\n[lava]\ntoken_file = token\n", 7, "token_file: 'token' is not an absolute path" },
	{ "[campaign]\ntarget = lava\n[mode \"a\"]\n[mode \"b\"]\nargs = pti=on\n[lava]\ntoken_env = lava-token\n", 7, "token_env: 'lava-token' is not an environment variable name" },
	{ "[campaign]\ntarget = lava\n[mode \"a\"]\n[mode \"b\"]\nargs = pti=on\n[lava]\nprompt = a\tb\n", 7, "prompt: holds a control character" },
	{ "[campaign]\ntarget = lava\n[mode \"a\"]\n[mode \"b\"]\nargs = pti=on\n[lava]\njob_timeout = 10\n", 7, "job_timeout: '10' is not a whole number from 60 to 604800" },
	{ "[campaign]\ntarget = lava\n[mode \"a\"]\n[mode \"b\"]\nargs = pti=on\n[lava]\ncolour = red\n", 7, "colour: unknown key in [lava]" },
	{ "[campaign]\ntarget = lava\n[mode \"a\"]\n[mode \"b\"]\nargs = pti=on\n[lava]\nurl = http://a\n[lava]\n", 8, "section [lava] is given twice" },
	{ "[campaign]\ntarget = lava\n[mode \"a\"]\n", 0, "target: lava needs a [lava] section" },
	{ "[campaign]\ntarget = lab\n[mode \"a\"]\n[lava]\nurl = http://a\n", 4, "section [lava] is for target = lava" },
	{ "[campaign]\ntarget = lava\n[mode \"a\"]\nkernel = 6.1.0-57-amd64\n[lava]\nurl = http://l\ndevice = d\nkernel = file:///k\ninitramfs = file:///i\nprompt = #\ntoken_env = T\n", 3, "kernel: a LAVA campaign's jobs deploy [lava] kernel" },
	{ "[campaign]\ndesign = full\n[mode \"a\"]\n", 2, "design: takes [factor \"NAME\"] sections" },
	{ "[campaign]\ndesign = half\n[factor \"a\"]\nargs = pti=on\n", 2, "design: 'half' is not screen or full" },
	{ "[factor \"a\"]\nargs = pti=on\n[factor \"b\"]\nargs = pti=off\n", 3, "args: 'pti' is set by factor 'a' too" },
	{ "[factor \"a\"]\n[factor \"b\"]\nargs = pti=on\n", 1, "args: missing in [factor \"a\"]" },
	{ "[factor \"a\"]\nargs = pti=on\nkernel = 6.1.0\n", 3, "kernel: unknown key in [factor \"a\"] (args)" },
	{ "[factor \"a\"]\nargs = pti=on\n[factor \"a\"]\n", 3, "section [factor \"a\"]: factor 'a' is defined twice" },
	{ "[factor \"a\"]\nargs = pti=on\n[mode \"off\"]\n", 3, "mode 'off' has the name of a run of the factors' design" },
	{ "[factor \"a\"]\nargs = pti=bogus\n", 2, "args: " },
	{ "[campaign]\ndesign = full\n[factor \"a\"]\nargs = a=1\n[factor \"b\"]\nargs = b=1\n[factor \"c\"]\nargs = c=1\n"
	  "[factor \"d\"]\nargs = d=1\n[factor \"e\"]\nargs = e=1\n[factor \"f\"]\nargs = f=1\n[factor \"g\"]\nargs = g=1\n",
	  2, "design: full takes at most 6 factors" },
};

/* [factor] sections: the design's runs are the first modes, and plan_format() writes the factors back. */
static void test_factors(void **state)
{
	static const char text[] =
		"[campaign]\ntarget = lab\ndesign = full\n"
		"[factor \"pti\"]\nargs = pti=on\n"
		"[factor \"iommu\"]\nargs = iommu=pt\n"
		"[factor \"thp\"]\nargs = transparent_hugepage=never\n"
		"[mode \"mine\"]\nargs = nosmt\n"
		"[row \"r\"]\ncommand = true\n";
	struct parse_error err = PARSE_ERROR_INIT;
	struct plan p, again;
	struct plan_boot *boots;
	size_t n;
	char *formatted, *twice;

	(void)state;
	assert_int_equal(plan_parse("f.ini", text, &p, &err), 0);
	assert_int_equal(p.n_factors, 3);
	assert_int_equal(p.design_kind, PLAN_DESIGN_FULL);
	assert_int_equal(p.design.n_runs, 8);
	assert_int_equal(p.n_modes, 9);
	assert_string_equal(p.modes[0].name, "off");
	assert_true(p.modes[0].design_run);
	assert_null(p.modes[0].args[0]);
	assert_string_equal(p.modes[1].name, "run02");
	assert_string_equal(p.modes[1].args_text, "pti=on");
	assert_string_equal(p.modes[7].name, "run08");
	assert_string_equal(p.modes[7].args_text, "pti=on iommu=pt transparent_hugepage=never");
	assert_string_equal(p.modes[7].args[2], "transparent_hugepage=never");
	assert_int_equal(p.modes[7].run, 7);
	assert_string_equal(p.modes[8].name, "mine");
	assert_false(p.modes[8].design_run);
	/* The standing config opens and closes the campaign. */
	n = plan_boots(&p, &boots);
	assert_int_equal(n, 10);
	assert_string_equal(boots[0].label, "off");
	assert_string_equal(boots[9].label, "off2");
	plan_boots_free(boots, n);

	formatted = plan_format(&p);
	assert_non_null(strstr(formatted, "design = full\n"));
	assert_non_null(strstr(formatted, "\n[factor \"thp\"]\nargs = transparent_hugepage=never\n"));
	assert_null(strstr(formatted, "run02"));
	assert_int_equal(plan_parse("f.ini", formatted, &again, &err), 0);
	assert_int_equal(again.n_modes, 9);
	twice = plan_format(&again);
	assert_string_equal(formatted, twice);
	free(formatted);
	free(twice);
	plan_release(&again);
	plan_release(&p);

	/* design = screen by default; four factors: the 2^(4-1) fraction. */
	assert_int_equal(plan_parse("f.ini",
				    "[factor \"a\"]\nargs = pti=on\n[factor \"b\"]\nargs = iommu=pt\n"
				    "[factor \"c\"]\nargs = nosmt\n[factor \"d\"]\nargs = mitigations=off\n",
				    &p, &err),
			 0);
	assert_int_equal(p.design_kind, PLAN_DESIGN_SCREEN);
	assert_int_equal(p.n_modes, 8);
	assert_int_equal(p.design.resolution, 4);
	plan_release(&p);
	parse_error_release(&err);
}

static void test_errors(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++) {
		struct parse_error err = PARSE_ERROR_INIT;
		struct plan p = { .n_modes = 99 };

		print_message("case %zu\n", i);
		assert_int_equal(plan_parse("bad.ini", errors[i].text, &p, &err), -EINVAL);
		assert_int_equal(p.n_modes, 99);
		assert_string_equal(err.file, "bad.ini");
		assert_int_equal(err.line, errors[i].line);
		assert_non_null(err.message);
		if (strncmp(err.message, errors[i].message, strlen(errors[i].message)))
			fail_msg("got '%s', expected '%s...'", err.message, errors[i].message);
		parse_error_release(&err);
	}
}

/* target = lava: [lava]'s keys, their defaults, and the round trip through plan_format(). */
static void test_lava_section(void **state)
{
	static const char text[] =
		"[campaign]\ntarget = lava\n"
		"[mode \"standing\"]\n[mode \"pti\"]\nargs = pti=on\n"
		"[lava]\nurl = http://127.0.0.1:8765//\ndevice = bootab-qemu-01\ntags = bootab-lab fast bootab-lab\n"
		"token_file = /etc/bootab/lava-token\n"
		"kernel = file:///srv/lab/vmlinuz\ninitramfs = https://files.example/initrd.cpio.gz\n"
		"prompt = bootab-lab# \njob_timeout = 900\n";
	struct parse_error err = PARSE_ERROR_INIT;
	struct plan p, q;
	char *formatted;

	(void)state;
	assert_int_equal(plan_parse("lava.ini", text, &p, &err), 0);
	assert_true(plan_is_lava(&p));
	assert_true(p.lava.present);
	assert_string_equal(p.lava.url, "http://127.0.0.1:8765");
	assert_string_equal(p.lava.device, "bootab-qemu-01");
	assert_int_equal(p.lava.tags.n, 2);
	assert_string_equal(p.lava.tags.items[1], "fast");
	assert_string_equal(p.lava.token_file, "/etc/bootab/lava-token");
	assert_null(p.lava.token_env);
	assert_string_equal(p.lava.device_type, "qemu");
	assert_string_equal(p.lava.arch, "amd64");
	assert_string_equal(p.lava.kernel_args, "console=ttyS0,115200");
	assert_string_equal(p.lava.prompt, "bootab-lab#");
	assert_int_equal(p.lava.job_timeout_s, 900);
	assert_int_equal(p.lava.poll_s, 10);
	formatted = plan_format(&p);
	assert_int_equal(plan_parse("again.ini", formatted, &q, &err), 0);
	assert_string_equal(q.lava.url, p.lava.url);
	assert_int_equal(q.lava.tags.n, 2);
	assert_string_equal(q.lava.kernel_args, p.lava.kernel_args);
	assert_string_equal(q.lava.initramfs, p.lava.initramfs);
	assert_int_equal(q.lava.job_timeout_s, 900);
	free(formatted);
	plan_release(&q);
	plan_release(&p);
	parse_error_release(&err);
}

/* [mode] kernel: a release or a /boot path, combinable with args; absent is the standing kernel. */
static void test_kernel_key(void **state)
{
	static const char text[] =
		"[mode \"old\"]\n"
		"[mode \"new\"]\nkernel = 6.12.57+deb12-amd64\n"
		"[mode \"new-pt\"]\nkernel = 6.12.57+deb12-amd64\nargs = iommu=pt\n"
		"[mode \"built\"]\nkernel = /boot/vmlinuz-6.13.0-rc1-dma+\n";
	struct parse_error err = PARSE_ERROR_INIT;
	struct plan p, again;
	char *out;

	(void)state;
	assert_int_equal(plan_parse("k.ini", text, &p, &err), 0);
	assert_null(p.modes[0].kernel);
	assert_string_equal(p.modes[1].kernel, "6.12.57+deb12-amd64");
	assert_string_equal(p.modes[2].kernel, "6.12.57+deb12-amd64");
	assert_string_equal(p.modes[2].args[0], "iommu=pt");
	assert_string_equal(p.modes[3].kernel, "/boot/vmlinuz-6.13.0-rc1-dma+");
	assert_true(plan_has_kernels(&p));
	out = plan_format(&p);
	assert_non_null(strstr(out, "[mode \"new-pt\"]\nkernel = 6.12.57+deb12-amd64\nargs = iommu=pt\n"));
	assert_int_equal(plan_parse("k.ini", out, &again, &err), 0);
	assert_string_equal(again.modes[3].kernel, "/boot/vmlinuz-6.13.0-rc1-dma+");
	assert_null(again.modes[0].kernel);
	plan_release(&again);
	free(out);
	plan_release(&p);
	assert_int_equal(plan_parse("k.ini", "[mode \"a\"]\nargs = iommu=pt\n", &p, &err), 0);
	assert_false(plan_has_kernels(&p));
	plan_release(&p);
	parse_error_release(&err);
}

/* [campaign] history: unset is the machine's default file; off reads and records none. */
static void test_history_key(void **state)
{
	static const struct {
		const char *value;      /* NULL: no history line */
		const char *path;
		bool off;
		const char *formatted;  /* plan_format()'s line, or NULL */
	} cases[] = {
		{ NULL, NULL, false, NULL },
		{ "off", NULL, true, "history = off\n" },
		{ "./off", "./off", false, "history = ./off\n" },
		{ "~/h.json", "~/h.json", false, "history = ~/h.json\n" },
		{ "/srv/history dir/", "/srv/history dir/", false, "history = /srv/history dir/\n" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct parse_error err = PARSE_ERROR_INIT;
		struct plan p;
		char *text, *formatted;

		text = cases[i].value ? xasprintf("[campaign]\nhistory = %s\n[mode \"a\"]\n", cases[i].value)
				      : xstrdup("[mode \"a\"]\n");
		assert_int_equal(plan_parse("h.ini", text, &p, &err), 0);
		if (cases[i].path)
			assert_string_equal(p.history, cases[i].path);
		else
			assert_null(p.history);
		assert_int_equal(p.history_off, cases[i].off);
		formatted = plan_format(&p);
		if (cases[i].formatted)
			assert_non_null(strstr(formatted, cases[i].formatted));
		else
			assert_null(strstr(formatted, "history"));
		free(formatted);
		free(text);
		plan_release(&p);
		parse_error_release(&err);
	}
}

static void test_load(void **state)
{
	struct parse_error err = PARSE_ERROR_INIT;
	struct plan p;

	(void)state;
	assert_int_equal(plan_load("/nonexistent/plan.ini", &p, &err), -ENOENT);
	assert_string_equal(err.file, "/nonexistent/plan.ini");
	parse_error_release(&err);
	assert_int_equal(plan_load(FIXTURES "/../../examples/lab-iommu.ini", &p, &err), 0);
	assert_true(p.n_modes == 3);
	plan_release(&p);
	parse_error_release(&err);
}

/* A BOM opens the file without hiding its first section; a continued args line adds args. */
static void test_bom_and_continued_args(void **state)
{
	struct parse_error err = PARSE_ERROR_INIT;
	struct plan p;

	(void)state;
	assert_int_equal(plan_parse("bom.ini", "\xef\xbb\xbf[mode \"pt\"]\nargs = iommu=pt\n", &p, &err), 0);
	assert_string_equal(p.modes[0].args_text, "iommu=pt");
	plan_release(&p);
	assert_int_equal(plan_parse("c.ini", "[mode \"pt\"]\nargs = iommu=pt\n  iommu.strict=1\n\tamd_iommu=off\n", &p, &err), 0);
	assert_string_equal(p.modes[0].args_text, "iommu=pt iommu.strict=1 amd_iommu=off");
	assert_string_equal(p.modes[0].args[1], "iommu.strict=1");
	assert_string_equal(p.modes[0].args[2], "amd_iommu=off");
	assert_null(p.modes[0].args[3]);
	plan_release(&p);
	/* An empty args line continued below is the continuation's args, with no blank in front. */
	assert_int_equal(plan_parse("c.ini", "[mode \"pt\"]\nargs =\n iommu=pt\n", &p, &err), 0);
	assert_string_equal(p.modes[0].args_text, "iommu=pt");
	plan_release(&p);
	/* A second args key is still given twice. */
	assert_int_equal(plan_parse("c.ini", "[mode \"pt\"]\nargs = iommu=pt\nargs = x\n", &p, &err), -EINVAL);
	assert_string_equal(err.message, "args: given twice in [mode \"pt\"]");
	parse_error_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_plan),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_perf_keys),
		cmocka_unit_test(test_side_plan),
		cmocka_unit_test(test_orders),
		cmocka_unit_test(test_rounds_auto),
		cmocka_unit_test(test_random_order_is_seeded),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_factors),
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_history_key),
		cmocka_unit_test(test_bom_and_continued_args),
		cmocka_unit_test(test_kernel_key),
		cmocka_unit_test(test_lava_section),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
