#include "report/kernels.h"

#include "lib/strbuf.h"
#include "report/words.h"

/* "6.12.117+deb12-amd64 (build 1a2b3c4d5e6f, package linux-image-...)" */
static void kernel_words(struct strbuf *sb, const struct side_kernel *k)
{
	strbuf_addstr(sb, k->release ? k->release : "(not recorded)");
	if (k->build_id || k->package) {
		strbuf_addstr(sb, " (");
		if (k->build_id)
			strbuf_addf(sb, "build %.12s", k->build_id);
		if (k->package)
			strbuf_addf(sb, "%spackage %s", k->build_id ? ", " : "", k->package);
		strbuf_addch(sb, ')');
	}
}

const char *report_config_value(const char *v)
{
	return v ? v : "(not set)";
}

/*
 * Which kernel each side ran, the rebuilds inside a mode, and the config
 * options that differ between the first side's kernel and each other one.
 */
void report_kernels_text(FILE *out, const struct compare_result *res, const struct kernel_compare *kc, bool md)
{
	struct strbuf sb = STRBUF_INIT;

	if (!kc->recorded)
		return;
	if (kc->same) {
		kernel_words(&sb, &res->sides[0].kernel);
		fprintf(out, md ? "\n**kernel:** `%s` on every side\n" : "kernel: %s on every side\n", strbuf_str(&sb));
		strbuf_release(&sb);
		return;
	}
	fputs(md ? "\n| side | kernel | uname -v |\n|---|---|---|\n" : "kernels:\n", out);
	for (size_t k = 0; k < res->n_sides; k++) {
		const struct side_kernel *kn = &res->sides[k].kernel;

		strbuf_truncate(&sb, 0);
		kernel_words(&sb, kn);
		if (md) {
			struct strbuf row = STRBUF_INIT;

			strbuf_addstr(&row, "| ");
			report_md_cell(&row, res->sides[k].label);
			strbuf_addstr(&row, " | ");
			report_md_cell(&row, strbuf_str(&sb));
			strbuf_addstr(&row, " | ");
			report_md_cell(&row, kn->version ? kn->version : "");
			strbuf_addstr(&row, " |\n");
			fputs(strbuf_str(&row), out);
			strbuf_release(&row);
		} else {
			fprintf(out, "  %-12s %s\n", res->sides[k].label, strbuf_str(&sb));
		}
	}
	for (size_t i = 0; i < kc->n_rebuilds; i++) {
		const struct side *a = &res->sides[kc->rebuilds[i].first], *b = &res->sides[kc->rebuilds[i].other];

		fprintf(out, md ? "\n**kernel rebuilt within mode `%s`:** %s build `%s`, %s build `%s` (both %s)\n"
				: "kernel rebuilt within mode %s: %s build %s, %s build %s (both %s)\n",
			a->mode, a->label, a->kernel.build_id, b->label, b->kernel.build_id, a->kernel.release);
	}
	for (size_t i = 0; i < kc->n_pairs; i++) {
		const struct kernel_pair *p = &kc->pairs[i];
		const struct side *a = &res->sides[p->from], *b = &res->sides[p->to];

		if (!p->configs) {
			fprintf(out, md ? "\n**config differences** `%s` (%s) -> `%s` (%s): not known (a side recorded no kernel config)\n"
					: "config differences, %s (%s) -> %s (%s): not known (a side recorded no kernel config)\n",
				a->kernel.release, a->label, b->kernel.release, b->label);
			continue;
		}
		fprintf(out, md ? "\n**config differences** `%s` (%s) -> `%s` (%s): %zu option%s (%zu changed, %zu unset, %zu added)\n\n"
				: "config differences, %s (%s) -> %s (%s): %zu option%s (%zu changed, %zu unset, %zu added)\n",
			a->kernel.release, a->label, b->kernel.release, b->label, p->n_diffs, p->n_diffs == 1 ? "" : "s",
			p->n_changed, p->n_unset, p->n_added);
		for (size_t d = 0; d < p->n_diffs && d < KERNEL_DIFFS_SHOWN; d++)
			fprintf(out, md ? "    %s %s -> %s\n" : "  %s %s -> %s\n", p->diffs[d].option,
				report_config_value(p->diffs[d].from), report_config_value(p->diffs[d].to));
		if (p->n_diffs > KERNEL_DIFFS_SHOWN)
			fprintf(out, md ? "    ... and %zu more (report.json lists every one)\n"
					: "  ... and %zu more (report.json lists every one)\n",
				p->n_diffs - KERNEL_DIFFS_SHOWN);
	}
	strbuf_release(&sb);
}

json_t *report_kernels_json(const struct compare_result *res, const struct kernel_compare *kc)
{
	json_t *root = json_object(), *sides = json_object(), *rebuilds = json_array(), *pairs = json_array();

	for (size_t k = 0; k < res->n_sides; k++) {
		const struct side_kernel *kn = &res->sides[k].kernel;

		json_object_set_new(sides, res->sides[k].label, json_pack("{s:o, s:o, s:o, s:o, s:o}",
			"release", kn->release ? json_string(kn->release) : json_null(),
			"version", kn->version ? json_string(kn->version) : json_null(),
			"build_id", kn->build_id ? json_string(kn->build_id) : json_null(),
			"package", kn->package ? json_string(kn->package) : json_null(),
			"config_sha256", kn->config_sha256 ? json_string(kn->config_sha256) : json_null()));
	}
	for (size_t i = 0; i < kc->n_rebuilds; i++)
		json_array_append_new(rebuilds, json_pack("{s:s, s:s, s:s}", "mode", res->sides[kc->rebuilds[i].first].mode,
			"first", res->sides[kc->rebuilds[i].first].label, "other", res->sides[kc->rebuilds[i].other].label));
	for (size_t i = 0; i < kc->n_pairs; i++) {
		const struct kernel_pair *p = &kc->pairs[i];
		json_t *diffs = json_array();

		for (size_t d = 0; d < p->n_diffs; d++)
			json_array_append_new(diffs, json_pack("{s:s, s:s, s:o, s:o}", "option", p->diffs[d].option,
				"change", kernel_option_change_name(p->diffs[d].change),
				"from", p->diffs[d].from ? json_string(p->diffs[d].from) : json_null(),
				"to", p->diffs[d].to ? json_string(p->diffs[d].to) : json_null()));
		json_array_append_new(pairs, json_pack("{s:s, s:s, s:b, s:o}", "from", res->sides[p->from].label,
			"to", res->sides[p->to].label, "configs_known", p->configs, "differences", diffs));
	}
	json_object_set_new(root, "same", json_boolean(kc->same));
	json_object_set_new(root, "sides", sides);
	json_object_set_new(root, "rebuilds", rebuilds);
	json_object_set_new(root, "config_differences", pairs);
	return root;
}
