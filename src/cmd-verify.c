/* bootab verify: prove from sysfs and procfs that the running boot is the one asked for. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "kernel/cmdline.h"
#include "commands.h"
#include "lib/alloc.h"
#include "lib/file.h"
#include "cli/log.h"
#include "kernel/snapshot.h"
#include "cli/target-args.h"
#include "target/target.h"
#include "kernel/verify.h"
#include "kernel/proof.h"
#include "target/verify-boot.h"

static const char cmd_verify_usage[] =
	"usage: bootab verify [--target T] [--root DIR] --args \"ARGS\" [--managed \"ARGS\"]\n"
	"                     [--expect EXPR]... [--json]\n"
	"       bootab verify --list\n"
	"\n"
	"Exits 0 only if /proc/cmdline holds every arg of --args and no other arg\n"
	"of --managed (the union of every mode's args), and sysfs and procfs agree\n"
	"for every parameter bootab knows (--list prints them, docs/proof.md says\n"
	"how): the IOMMU modes, mitigations=off and the speculation controls, pti,\n"
	"nosmt, transparent huge pages, huge pages, isolcpus and nohz_full, the\n"
	"pstate drivers and the default governor, preempt=, numa_balancing= and\n"
	"module parameters. Every line states its level: proven (sysfs, procfs),\n"
	"evidence (a kernel-log line, shown and never trusted) or cmdline only.\n"
	"\n"
	"  --target T         local (default), an SSH destination, or lab\n"
	"  --root DIR         read sysfs and procfs under DIR (local target)\n"
	"  --connect-timeout S  ssh ConnectTimeout (default 5)\n"
	"  --expect EXPR      also check: iommu.groups=N, iommu.type(ADDR)=TYPE,\n"
	"                     sysfs(/sys/PATH)=VALUE\n"
	"  --json             the checks as JSON on stdout\n"
	"  --list             the parameters bootab proves, what it reads, the kernel doc\n"
	"\n"
	"Exit: 0 the boot is the one asked for, 1 a check failed, 2 usage or I/O error.\n";

static const char *status_word(enum verify_status s)
{
	return s == VERIFY_OK ? "ok" : s == VERIFY_FAILED ? "FAIL" : "note";
}

static void print_report(const struct snapshot *snap, const char *target, const struct verify_args *asked,
			 const struct verify_report *report, bool json)
{
	size_t failed = verify_report_failures(report), judged = 0;
	enum proof_level *levels = xcalloc(asked->n + 1, sizeof(*levels));
	int weakest = proof_levels(report, asked, levels);

	for (size_t i = 0; i < report->n; i++)
		judged += report->v[i].status != VERIFY_NOTE;
	if (json) {
		json_t *checks = json_array(), *o;

		for (size_t i = 0; i < report->n; i++) {
			const struct verify_check *c = &report->v[i];

			json_array_append_new(checks, json_pack("{s:s, s:s, s:s, s:o, s:o, s:s, s:s}",
				"status", status_word(c->status), "level", proof_level_name(c->level),
				"what", c->what, "arg", c->arg ? json_string(c->arg) : json_null(),
				"expected", c->expected ? json_string(c->expected) : json_null(),
				"found", c->found, "where", c->where));
		}
		o = json_pack("{s:b, s:s, s:s, s:s, s:s, s:o, s:o}", "ok", failed == 0, "target", target,
			      "boot_id", snap->boot_id, "kernel", snap->kernel, "cmdline",
			      snap->cmdline, "checks", checks, "proof", proof_levels_json(report, asked));
		json_dumpf(o, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
		putchar('\n');
		json_decref(o);
		free(levels);
		return;
	}
	printf("boot %s, kernel %s, on %s\n", snap->boot_id, snap->kernel, target);
	for (size_t i = 0; i < report->n; i++) {
		const struct verify_check *c = &report->v[i];

		if (c->status == VERIFY_FAILED) {
			printf("FAIL  %-12s  %s\n", proof_level_name(c->level), c->what);
			printf("      expected: %s\n", c->expected ? c->expected : "-");
			printf("      found:    %s\n", c->found);
			printf("      where:    %s\n", c->where);
		} else {
			printf("%-4s  %-12s  %s: %s (%s)\n", status_word(c->status), proof_level_name(c->level),
			       c->what, c->found, c->where);
		}
	}
	if (weakest >= 0) {
		printf("proof: %s (", proof_level_name((enum proof_level)weakest));
		for (size_t i = 0; i < asked->n; i++) {
			char *what = asked->v[i].value ? xasprintf("%s=%s", asked->v[i].name, asked->v[i].value)
						       : xstrdup(asked->v[i].name);

			printf("%s%s %s", i ? ", " : "", what, proof_level_name(levels[i]));
			free(what);
		}
		printf(")\n");
	}
	free(levels);
	if (failed)
		printf("verify: %zu of %zu check%s failed: this is not the boot asked for\n", failed,
		       judged, judged == 1 ? "" : "s");
	else if (judged == 1)
		printf("verify: the 1 check passed\n");
	else
		printf("verify: all %zu checks passed\n", judged);
}

static int cmd_verify(int argc, char **argv)
{
	static const struct option longopts[] = {
		TARGET_LONGOPT_TARGET,
		TARGET_LONGOPT_ROOT,
		{ "managed", required_argument, NULL, 'm' },
		{ "args", required_argument, NULL, 'a' },
		{ "expect", required_argument, NULL, 'e' },
		{ "json", no_argument, NULL, 'j' },
		{ "list", no_argument, NULL, 'l' },
		TARGET_LONGOPT_CONNECT_TIMEOUT,
		{ NULL, 0, NULL, 0 },
	};
	struct target_args to = TARGET_ARGS_INIT("verify", "local");
	const char *managed_text = NULL, *asked_text = NULL;
	char **managed_list = NULL, **asked_list = NULL;
	struct verify_expect *expects = NULL;
	size_t n_expects = 0, alloc_expects = 0;
	struct verify_boot_result res = { 0 };
	struct verify_args asked = { 0 };
	struct parse_error err = PARSE_ERROR_INIT;
	struct target *t = NULL;
	char *error = NULL;
	int c, r, rc = EXIT_USAGE;
	bool json = false;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
		r = target_args_take(&to, c, optarg);
		if (r < 0)
			goto out;
		if (r > 0)
			continue;
		switch (c) {
		case 'm':
			managed_text = optarg;
			break;
		case 'a':
			asked_text = optarg;
			break;
		case 'e':
			GROW(expects, alloc_expects, n_expects + 1);
			if (verify_expect_parse(optarg, &expects[n_expects], &error) < 0) {
				command_usage_error("verify", "%s", error);
				free(error);
				goto out;
			}
			n_expects++;
			break;
		case 'j':
			json = true;
			break;
		case 'l': {
			size_t n;
			const struct proof_param *p = proof_params(&n);

			for (size_t i = 0; i < n; i++)
				printf("%s\n    reads: %s\n    kernel: %s\n", p[i].params, p[i].reads, p[i].doc);
			rc = EXIT_OK;
			goto out;
		}
		default:
			command_option_error("verify", c, argv);
			goto out;
		}
	}
	if (optind != argc) {
		command_usage_error("verify", "unexpected argument '%s'", argv[optind]);
		goto out;
	}
	if (!asked_text) {
		command_usage_error("verify", "--args is required: the kernel args of the mode this boot should be (\"\" for none)");
		goto out;
	}
	if (cmdline_args_parse(asked_text, &asked_list, &err) < 0) {
		command_usage_error("verify", "--args: %s", err.message);
		goto out;
	}
	if (cmdline_args_parse(managed_text ? managed_text : asked_text, &managed_list, &err) < 0) {
		command_usage_error("verify", "--managed: %s", err.message);
		goto out;
	}
	if (target_args_open(&to, &t) < 0)
		goto out;
	r = verify_boot(t, &(struct verify_boot_request){ .managed = managed_list, .asked = asked_list,
							  .expects = expects, .n_expects = n_expects },
			&res, &err);
	/* Root reads the kernel log too; without it, sysfs alone still decides. */
	if (res.without_root)
		log_warning("%s; reading sysfs without root, kernel log not read", res.without_root);
	if (r < 0) {
		if (r == -EINVAL) {
			char *msg = parse_error_format(&err);

			log_error("%s", msg);
			free(msg);
		} else {
			log_error("%s", target_error(t));
		}
		goto out;
	}
	verify_args_from_list(asked_list, &asked);
	print_report(&res.snapshot, to.spec, &asked, &res.report, json);
	rc = verify_report_failures(&res.report) ? EXIT_NOTHING : EXIT_OK;
out:
	verify_args_release(&asked);
	target_close(t);
	parse_error_release(&err);
	verify_boot_result_release(&res);
	strv_free(managed_list);
	strv_free(asked_list);
	for (size_t i = 0; i < n_expects; i++)
		verify_expect_release(&expects[i]);
	free(expects);
	return rc;
}

const struct command cmd_verify_entry = {
	.name = "verify",
	.run = cmd_verify,
	.summary = "prove from sysfs that the boot is the one asked for",
	.usage = cmd_verify_usage,
};
