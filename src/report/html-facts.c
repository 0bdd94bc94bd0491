/* report.html: the boots, IOMMU map, versions, kernels and timeline of a campaign. */
#include "report/html-page.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/kernels.h"
#include "lib/alloc.h"
#include "report/chart.h"
#include "report/new-old-words.h"
#include "report/words.h"

/* ---- boots, IOMMU map, versions ---- */

static const char *type_class(const char *type)
{
	if (!type)
		return "";
	if (!strcmp(type, "DMA") || !strcmp(type, "DMA-FQ"))
		return "t-translated";
	if (!strcmp(type, "identity"))
		return "t-identity";
	return "t-other";
}

/* The plan's [prepare] as the boots ran it: each command once when every side ran the same, else each side's. */
static void html_prepare(struct page *pg)
{
	const struct compare_result *res = pg->res;
	enum report_prepare p = report_prepare_of(res);

	if (p == REPORT_PREPARE_NONE)
		return;
	page_put(pg, "<p class=\"note\" id=\"prepare\">");
	page_esc(pg, report_prepare_title(p));
	page_putf(pg, ":</p><div class=\"scroll\"><table><thead><tr>%s<th>command</th><th class=\"num\">rc</th></tr></thead>"
		  "<tbody>\n", p == REPORT_PREPARE_DIFFERS ? "<th>side</th>" : "");
	for (size_t k = 0; k < (p == REPORT_PREPARE_SAME ? 1 : res->n_sides); k++) {
		const struct side *s = &res->sides[k];

		for (size_t i = 0; i < (s->n_prepare ? s->n_prepare : 1); i++) {
			page_put(pg, "<tr>");
			if (p == REPORT_PREPARE_DIFFERS) {
				page_put(pg, "<td>");
				page_esc(pg, s->label);
				page_put(pg, "</td>");
			}
			if (!s->n_prepare) {
				page_put(pg, "<td>(none recorded)</td><td class=\"num\">-</td></tr>\n");
				continue;
			}
			page_put(pg, "<td class=\"mono\">");
			page_esc(pg, s->prepare[i].command);
			page_putf(pg, "</td><td class=\"num\">%d</td></tr>\n", s->prepare[i].rc);
		}
	}
	page_put(pg, "</tbody></table></div>\n");
}

void html_boots_table(struct page *pg)
{
	const struct compare_result *res = pg->res;
	const char *watch = pg->o->watch;

	page_put(pg, "<section id=\"boots\">\n<h2>Boots</h2>\n<div class=\"scroll\"><table>\n<thead><tr><th class=\"num\">#</th>"
		"<th>side</th><th>mode</th><th>kernel</th><th>verify</th><th class=\"num\">reboot</th><th>IOMMU groups</th>");
	if (watch) {
		page_put(pg, "<th>");
		page_esc(pg, watch);
		page_put(pg, "</th>");
	}
	page_put(pg, "<th>note</th></tr></thead>\n<tbody>\n");
	for (size_t k = 0; k < res->n_sides; k++) {
		const struct html_side *hs = &pg->sides[k];
		json_t *reboot = hs->meta ? json_object_get(hs->meta, "reboot_s") : NULL;
		struct strbuf note = STRBUF_INIT;

		page_putf(pg, "<tr><td class=\"num\">%zu</td><td><span class=\"sw\" style=\"background:%s\"></span><b>", k + 1,
		     page_mode_color(pg, k));
		page_esc(pg, res->sides[k].label);
		page_put(pg, "</b></td><td>");
		page_esc(pg, res->sides[k].mode);
		page_put(pg, "</td><td class=\"mono\">");
		page_esc(pg, page_meta_string(hs, "kernel") ? page_meta_string(hs, "kernel") : "-");
		page_put(pg, "</td><td>");
		page_esc(pg, page_meta_string(hs, "verify") ? page_meta_string(hs, "verify") : "-");
		page_put(pg, "</td><td class=\"num\">");
		if (json_is_number(reboot))
			page_putf(pg, "%.1f s", json_number_value(reboot));
		else
			page_put(pg, "-");
		page_put(pg, "</td><td>");
		if (hs->has_iommu) {
			char *summary = iommu_map_summary(&hs->iommu);

			page_esc(pg, summary);
			free(summary);
		} else {
			page_put(pg, "(not recorded)");
		}
		page_put(pg, "</td>");
		if (watch) {
			const char *type = hs->has_iommu ? iommu_map_device_type(&hs->iommu, watch) : NULL;

			page_putf(pg, "<td class=\"%s\">", type_class(type));
			page_esc(pg, type ? type : !hs->has_iommu ? "(not recorded)" : hs->iommu.n_groups ? "in no group"
												       : "no IOMMU groups");
			page_put(pg, "</td>");
		}
		report_side_note(&note, res, k);
		if (hs->meta_problem) {
			strbuf_addstr(&note, note.len ? "; " : "");
			strbuf_addstr(&note, hs->meta_problem);
		}
		page_put(pg, "<td class=\"wrap\">");
		page_esc(pg, strbuf_str(&note));
		page_put(pg, "</td></tr>\n");
		strbuf_release(&note);
	}
	page_put(pg, "</tbody></table></div>\n");
	{
		bool any_cmdline = false;

		for (size_t k = 0; k < res->n_sides; k++)
			any_cmdline |= page_meta_string(&pg->sides[k], "cmdline") != NULL;
		if (any_cmdline) {
			page_put(pg, "<details><summary class=\"note\">kernel command lines</summary><div class=\"scroll\"><table>");
			for (size_t k = 0; k < res->n_sides; k++) {
				page_put(pg, "<tr><td>");
				page_esc(pg, res->sides[k].label);
				page_put(pg, "</td><td class=\"mono\">");
				page_esc(pg, page_meta_string(&pg->sides[k], "cmdline") ? page_meta_string(&pg->sides[k], "cmdline") : "-");
				page_put(pg, "</td></tr>");
			}
			page_put(pg, "</table></div></details>\n");
		}
	}
	html_prepare(pg);
	page_put(pg, "</section>\n");
}

struct device_row {
	const char *name;               /* borrowed from one of the maps */
	const struct iommu_device *any; /* the first side's record of it */
	bool changed;
};

static int device_row_cmp(const void *a, const void *b)
{
	const struct device_row *x = a, *y = b;

	if (x->any->group != y->any->group)
		return x->any->group < y->any->group ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Every device of every side's IOMMU map, once, in first-seen order; *n_maps: the sides that recorded one. */
static struct device_row *iommu_device_rows(const struct page *pg, size_t *n_rows, size_t *n_maps)
{
	const struct compare_result *res = pg->res;
	struct device_row *rows = NULL;
	size_t alloc_rows = 0;

	for (size_t k = 0; k < res->n_sides; k++) {
		const struct iommu_map *m = &pg->sides[k].iommu;

		if (!pg->sides[k].has_iommu)
			continue;
		(*n_maps)++;
		for (size_t d = 0; d < m->n_devices; d++) {
			size_t r = 0;

			for (; r < *n_rows; r++)
				if (!strcmp(rows[r].name, m->devices[d].name))
					break;
			if (r < *n_rows)
				continue;
			GROW(rows, alloc_rows, *n_rows + 1);
			rows[(*n_rows)++] = (struct device_row){ .name = m->devices[d].name, .any = &m->devices[d] };
		}
	}
	return rows;
}

/* Marks each device whose group's type differs between two sides that recorded a map; how many. */
static size_t iommu_mark_changed(const struct page *pg, struct device_row *rows, size_t n_rows)
{
	const struct compare_result *res = pg->res;
	size_t n_changed = 0;

	for (size_t r = 0; r < n_rows; r++) {
		const char *first = NULL;
		bool seen = false;

		for (size_t k = 0; k < res->n_sides; k++) {
			const char *t;

			if (!pg->sides[k].has_iommu)
				continue;
			t = iommu_map_device_type(&pg->sides[k].iommu, rows[r].name);
			if (!seen) {
				first = t;
				seen = true;
			} else if ((t == NULL) != (first == NULL) || (t && strcmp(t, first))) {
				rows[r].changed = true;
			}
		}
		n_changed += rows[r].changed;
	}
	return n_changed;
}

/* What the watched device was on each boot: in no group, the same type everywhere, or each side's. */
static void iommu_watch_callout(struct page *pg, const char *watch, size_t n_maps)
{
	const struct compare_result *res = pg->res;
	const char *watch_first = NULL;
	bool watch_seen = false, watch_same = true;

	for (size_t k = 0; k < res->n_sides; k++) {
		const char *t;

		if (!pg->sides[k].has_iommu)
			continue;
		t = iommu_map_device_type(&pg->sides[k].iommu, watch);
		if (t)
			watch_seen = true;
		if (!watch_first)
			watch_first = t ? t : "";
		else if (strcmp(watch_first, t ? t : ""))
			watch_same = false;
	}
	if (!watch_seen) {
		page_put(pg, "<div class=\"callout bad\">The watched device <code>");
		page_esc(pg, watch);
		page_put(pg, "</code> is in no IOMMU group on any boot.</div>\n");
	} else if (watch_same && n_maps > 1) {
		page_put(pg, "<div class=\"callout bad\">The watched device <code>");
		page_esc(pg, watch);
		page_put(pg, "</code> is ");
		page_esc(pg, watch_first);
		page_put(pg, " in every mode: the setting did not change this device's DMA path; a gain needs another "
			"explanation.</div>\n");
	} else {
		page_put(pg, "<div class=\"callout info\">The watched device <code>");
		page_esc(pg, watch);
		page_put(pg, "</code>:");
		for (size_t k = 0; k < res->n_sides; k++) {
			const char *t;

			if (!pg->sides[k].has_iommu)
				continue;
			t = iommu_map_device_type(&pg->sides[k].iommu, watch);
			page_put(pg, " ");
			page_esc(pg, res->sides[k].label);
			page_put(pg, " <b>");
			page_esc(pg, t ? t : "in no group");
			page_put(pg, "</b>");
		}
		page_put(pg, ".</div>\n");
	}
}

/* One device's row: group, name (watched, changed), driver, and its group's type on each side. */
static void iommu_device_row(struct page *pg, const struct device_row *row, const char *watch)
{
	const struct compare_result *res = pg->res;

	const struct iommu_device *d = row->any;
	bool watched = watch && !strcmp(watch, row->name);
	const char *driver = NULL;

	for (size_t k = 0; k < res->n_sides && !driver; k++) {
		const struct iommu_device *dk = pg->sides[k].has_iommu
			? iommu_map_device(&pg->sides[k].iommu, row->name) : NULL;

		if (dk && dk->driver)
			driver = dk->driver;
	}
	page_put(pg, "<tr");
	if (row->changed || watched)
		page_putf(pg, " class=\"%s%s\"", row->changed ? "changed" : "",
		     watched ? (row->changed ? " watch" : "watch") : "");
	page_put(pg, " data-device=\"");
	page_esc(pg, row->name);
	page_putf(pg, "\"><td class=\"num\">%u</td><td><span class=\"mono\">", d->group);
	page_esc(pg, row->name);
	page_put(pg, "</span>");
	if (watched)
		page_put(pg, "<span class=\"tag watch\">watched</span>");
	if (row->changed)
		page_put(pg, "<span class=\"tag chg\">changed</span>");
	if (d->description) {
		page_put(pg, "<br><span class=\"note\">");
		page_esc(pg, d->description);
		page_put(pg, "</span>");
	}
	page_put(pg, "</td><td class=\"mono\">");
	page_esc(pg, driver ? driver : "-");
	page_put(pg, "</td>");
	for (size_t k = 0; k < res->n_sides; k++) {
		const struct iommu_device *dk;
		const struct iommu_group *g;

		if (!pg->sides[k].has_iommu)
			continue;
		dk = iommu_map_device(&pg->sides[k].iommu, row->name);
		g = dk ? iommu_map_group(&pg->sides[k].iommu, dk->group) : NULL;
		if (!g) {
			page_put(pg, "<td class=\"t-other\">absent</td>");
			continue;
		}
		page_putf(pg, "<td class=\"%s\">", type_class(g->type));
		page_esc(pg, g->type);
		if (dk->group != d->group)
			page_putf(pg, " <span class=\"note\">group %u</span>", dk->group);
		page_put(pg, "</td>");
	}
	page_put(pg, "</tr>\n");
}

void html_iommu_section(struct page *pg)
{
	const struct compare_result *res = pg->res;
	const char *watch = pg->o->watch;
	struct device_row *rows;
	size_t n_rows = 0, n_changed, n_maps = 0;

	rows = iommu_device_rows(pg, &n_rows, &n_maps);
	page_put(pg, "<section id=\"iommu\">\n<h2>IOMMU groups</h2>\n");
	if (n_maps == 0) {
		page_put(pg, "<p class=\"note\">No side recorded an IOMMU map.</p>\n</section>\n");
		free(rows);
		return;
	}
	n_changed = iommu_mark_changed(pg, rows, n_rows);
	if (n_rows > 1)
		qsort(rows, n_rows, sizeof(*rows), device_row_cmp);
	if (watch)
		iommu_watch_callout(pg, watch, n_maps);
	page_putf(pg, "<p class=\"note\">%zu device%s in %zu map%s; %zu changed type between boots (highlighted).</p>\n",
	     n_rows, n_rows == 1 ? "" : "s", n_maps, n_maps == 1 ? "" : "s", n_changed);
	page_put(pg, "<div class=\"scroll\"><table class=\"iommu\">\n<thead><tr><th class=\"num\">group</th><th>device</th>"
		"<th>driver</th>");
	for (size_t k = 0; k < res->n_sides; k++) {
		if (!pg->sides[k].has_iommu)
			continue;
		page_putf(pg, "<th><span class=\"sw\" style=\"background:%s\"></span>", page_mode_color(pg, k));
		page_esc(pg, res->sides[k].label);
		page_put(pg, "</th>");
	}
	page_put(pg, "</tr></thead>\n<tbody>\n");
	for (size_t r = 0; r < n_rows; r++)
		iommu_device_row(pg, &rows[r], watch);
	page_put(pg, "</tbody></table></div>\n<p class=\"note\">Types are the kernel's default domain of each group "
		"(/sys/kernel/iommu_groups/N/type): DMA and DMA-FQ translate, identity passes through.</p>\n</section>\n");
	free(rows);
}

void html_versions_section(struct page *pg)
{
	const struct compare_result *res = pg->res;
	const char **names = NULL;
	size_t n = 0, alloc = 0;

	for (size_t k = 0; k < res->n_sides; k++)
		for (size_t v = 0; v < res->sides[k].n_versions; v++) {
			size_t j = 0;

			for (; j < n; j++)
				if (!strcmp(names[j], res->sides[k].versions[v].name))
					break;
			if (j < n)
				continue;
			GROW(names, alloc, n + 1);
			names[n++] = res->sides[k].versions[v].name;
		}
	page_put(pg, "<section id=\"versions\">\n<h2>Versions</h2>\n");
	if (n == 0) {
		page_put(pg, "<p class=\"note\">No versions were recorded.</p>\n</section>\n");
		free(names);
		return;
	}
	page_put(pg, "<div class=\"scroll\"><table>\n<thead><tr><th>software</th>");
	for (size_t k = 0; k < res->n_sides; k++) {
		page_put(pg, "<th>");
		page_esc(pg, res->sides[k].label);
		page_put(pg, "</th>");
	}
	page_put(pg, "</tr></thead>\n<tbody>\n");
	for (size_t j = 0; j < n; j++) {
		const char *first = side_version(&res->sides[0], names[j]);
		bool differs = false;

		for (size_t k = 1; k < res->n_sides; k++) {
			const char *v = side_version(&res->sides[k], names[j]);

			if ((v == NULL) != (first == NULL) || (v && strcmp(v, first)))
				differs = true;
		}
		page_putf(pg, "<tr%s><td><b>", differs ? " class=\"changed\"" : "");
		page_esc(pg, names[j]);
		page_put(pg, "</b>");
		if (differs)
			page_put(pg, "<span class=\"tag chg\">differs</span>");
		page_put(pg, "</td>");
		for (size_t k = 0; k < res->n_sides; k++) {
			const char *v = side_version(&res->sides[k], names[j]);

			page_put(pg, "<td class=\"mono\">");
			page_esc(pg, v ? v : "(not recorded)");
			page_put(pg, "</td>");
		}
		page_put(pg, "</tr>\n");
	}
	page_put(pg, "</tbody></table></div>\n</section>\n");
	free(names);
}

/* Config differences the page lists for each pair of kernels; report.json holds them all. */
#define HTML_KERNEL_DIFFS 200

void html_kernels_section(struct page *pg)
{
	const struct compare_result *res = pg->res;
	struct kernel_compare kc;

	kernel_compare(res->sides, res->n_sides, &kc);
	if (!kc.recorded) {
		kernel_compare_release(&kc);
		return;
	}
	page_put(pg, "<section id=\"kernels\">\n<h2>Kernels</h2>\n");
	if (kc.same) {
		page_put(pg, "<p>Every side ran <span class=\"mono\">");
		page_esc(pg, res->sides[0].kernel.release);
		page_put(pg, "</span>");
		if (res->sides[0].kernel.build_id) {
			page_put(pg, " (build id <span class=\"mono\">");
			page_esc(pg, res->sides[0].kernel.build_id);
			page_put(pg, "</span>)");
		}
		page_put(pg, ".</p>\n</section>\n");
		kernel_compare_release(&kc);
		return;
	}
	page_put(pg, "<div class=\"scroll\"><table>\n<thead><tr><th>side</th><th>release</th><th>uname -v</th>"
		"<th>build id</th><th>package</th></tr></thead>\n<tbody>\n");
	for (size_t k = 0; k < res->n_sides; k++) {
		const struct side_kernel *kn = &res->sides[k].kernel;
		bool other = !kernel_same(&res->sides[0].kernel, kn);

		page_putf(pg, "<tr%s><td>", other ? " class=\"changed\"" : "");
		page_esc(pg, res->sides[k].label);
		page_put(pg, "</td><td class=\"mono\">");
		page_esc(pg, kn->release ? kn->release : "(not recorded)");
		page_put(pg, "</td><td class=\"mono\">");
		page_esc(pg, kn->version ? kn->version : "");
		page_put(pg, "</td><td class=\"mono\">");
		page_esc(pg, kn->build_id ? kn->build_id : "");
		page_put(pg, "</td><td class=\"mono\">");
		page_esc(pg, kn->package ? kn->package : "");
		page_put(pg, "</td></tr>\n");
	}
	page_put(pg, "</tbody></table></div>\n");
	for (size_t i = 0; i < kc.n_rebuilds; i++) {
		const struct side *a = &res->sides[kc.rebuilds[i].first], *b = &res->sides[kc.rebuilds[i].other];

		page_put(pg, "<p class=\"warn\">Kernel rebuilt within mode ");
		page_esc(pg, a->mode);
		page_put(pg, ": ");
		page_esc(pg, a->label);
		page_put(pg, " and ");
		page_esc(pg, b->label);
		page_put(pg, " ran the same release with different build ids.</p>\n");
	}
	for (size_t i = 0; i < kc.n_pairs; i++) {
		const struct kernel_pair *p = &kc.pairs[i];
		const struct side *a = &res->sides[p->from], *b = &res->sides[p->to];

		page_put(pg, "<h3>Config differences, <span class=\"mono\">");
		page_esc(pg, a->kernel.release);
		page_put(pg, "</span> (");
		page_esc(pg, a->label);
		page_put(pg, ") to <span class=\"mono\">");
		page_esc(pg, b->kernel.release);
		page_put(pg, "</span> (");
		page_esc(pg, b->label);
		page_put(pg, ")</h3>\n");
		if (!p->configs) {
			page_put(pg, "<p class=\"note\">Not known: a side recorded no kernel config.</p>\n");
			continue;
		}
		page_putf(pg, "<p class=\"note\">%zu option%s differ: %zu changed, %zu unset, %zu added.</p>\n<pre class=\"mono\">",
		     p->n_diffs, p->n_diffs == 1 ? "" : "s", p->n_changed, p->n_unset, p->n_added);
		for (size_t d = 0; d < p->n_diffs && d < HTML_KERNEL_DIFFS; d++) {
			page_esc(pg, p->diffs[d].option);
			page_put(pg, " ");
			page_esc(pg, p->diffs[d].from ? p->diffs[d].from : "(not set)");
			page_put(pg, " -&gt; ");
			page_esc(pg, p->diffs[d].to ? p->diffs[d].to : "(not set)");
			page_put(pg, "\n");
		}
		if (p->n_diffs > HTML_KERNEL_DIFFS)
			page_putf(pg, "... and %zu more (report.json lists every one)\n", p->n_diffs - HTML_KERNEL_DIFFS);
		page_put(pg, "</pre>\n");
	}
	page_put(pg, "</section>\n");
	kernel_compare_release(&kc);
}

/* ---- timeline ---- */

#define TL_W 960.0
#define TL_LEFT 14.0
#define TL_RIGHT 14.0
#define TL_BAR_Y 44.0
#define TL_BAR_H 30.0

static const char *timeline_fill(const struct page *pg, size_t k, const struct timeline_span *s)
{
	switch (s->kind) {
	case TIMELINE_REBOOT:
		return "#57606a";
	case TIMELINE_SETUP:
		return "#afb8c1";
	case TIMELINE_GATE:
		return "#d4a72c";
	case TIMELINE_ROW:
		return page_mode_color(pg, k);
	case TIMELINE_CHECK:
		return s->rc ? "#cf222e" : "#2da44e";
	case TIMELINE_FETCH:
	default:
		return "#d0d7de";
	}
}

static void span_seconds(struct page *pg, double s)
{
	if (s >= 90)
		page_putf(pg, "%.1f min", s / 60);
	else
		page_putf(pg, "%.0f s", s);
}

void html_timeline_section(struct page *pg)
{
	const struct compare_result *res = pg->res;
	double t0 = INFINITY, t1 = -INFINITY, x0 = TL_LEFT, x1 = TL_W - TL_RIGHT;
	struct chart_axis axis;
	size_t n_spans = 0;

	for (size_t k = 0; k < res->n_sides; k++) {
		double a, b;

		if (timeline_lane_bounds(&pg->sides[k].lane, &a, &b)) {
			t0 = fmin(t0, a);
			t1 = fmax(t1, b);
		}
		n_spans += pg->sides[k].lane.n_spans;
	}
	page_put(pg, "<section id=\"timeline\">\n<h2>Timeline</h2>\n");
	if (n_spans == 0 || !(t1 > t0)) {
		page_put(pg, "<p class=\"note\">No times were recorded.</p>\n</section>\n");
		return;
	}
	if (chart_axis_nice(0, (t1 - t0) / 60, 8, &axis) < 0 || axis.lo != 0)
		axis = (struct chart_axis){ .lo = 0, .hi = (t1 - t0) / 60, .step = (t1 - t0) / 60, .n_ticks = 2 };
	page_putf(pg, "<svg class=\"timeline\" viewBox=\"0 0 960 108\" role=\"img\" data-spans=\"%zu\" "
		 "aria-label=\"timeline of the campaign\"><title>timeline of the campaign</title>\n", n_spans);
	for (size_t t = 0; t < axis.n_ticks; t++) {
		double v = axis.lo + (double)t * axis.step, x = chart_axis_map(&axis, v, x0, x1);
		struct strbuf label = STRBUF_INIT;

		chart_tick_label(&label, v, axis.step);
		page_putf(pg, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>", x, x, TL_BAR_Y - 6,
		     TL_BAR_Y + TL_BAR_H + 6);
		page_putf(pg, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", x, TL_BAR_Y + TL_BAR_H + 22,
		     t == 0 ? "start" : t + 1 == axis.n_ticks ? "end" : "middle");
		page_esc(pg, strbuf_str(&label));
		page_put(pg, t == 0 ? " min" : "");
		page_put(pg, "</text>\n");
		strbuf_release(&label);
	}
	for (size_t k = 0; k < res->n_sides; k++) {
		const struct timeline_lane *lane = &pg->sides[k].lane;
		double a, b, xa, xb;

		if (!timeline_lane_bounds(lane, &a, &b))
			continue;
		xa = chart_axis_map(&axis, (a - t0) / 60, x0, x1);
		xb = chart_axis_map(&axis, (b - t0) / 60, x0, x1);
		/* The boot's bracket and name above the bar. */
		page_putf(pg, "<path d=\"M%.1f %.1f V%.1f H%.1f V%.1f\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>", xa,
		     TL_BAR_Y - 4, TL_BAR_Y - 12, xb, TL_BAR_Y - 4, page_mode_color(pg, k));
		page_putf(pg, "<text class=\"lab\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", (xa + xb) / 2,
		     TL_BAR_Y - 18);
		page_esc(pg, res->sides[k].label);
		page_put(pg, "</text>\n");
		for (size_t i = 0; i < lane->n_spans; i++) {
			const struct timeline_span *s = &lane->spans[i];
			double sa = chart_axis_map(&axis, (s->start - t0) / 60, x0, x1);
			double sb = chart_axis_map(&axis, (s->end - t0) / 60, x0, x1);

			page_putf(pg, "<rect class=\"span\" data-kind=\"%s\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
				 "fill=\"%s\"><title>",
			     timeline_kind_name(s->kind), sa, TL_BAR_Y, fmax(sb - sa, 0.8), TL_BAR_H,
			     timeline_fill(pg, k, s));
			page_esc(pg, res->sides[k].label);
			page_put(pg, ": ");
			page_put(pg, timeline_kind_name(s->kind));
			if (s->row) {
				page_put(pg, " ");
				page_esc(pg, s->row);
			}
			if (s->kind == TIMELINE_ROW || s->kind == TIMELINE_CHECK)
				page_putf(pg, " (rc=%d)", s->rc);
			page_put(pg, ", ");
			span_seconds(pg, s->end - s->start);
			page_put(pg, "</title></rect>");
			for (size_t r = 0; r < s->n_reps; r++) {
				double xr = chart_axis_map(&axis, (s->reps[r] - t0) / 60, x0, x1);

				page_putf(pg, "<line x1=\"%.2f\" x2=\"%.2f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#fff\" stroke-width=\"1\"/>",
				     xr, xr, TL_BAR_Y + 4, TL_BAR_Y + TL_BAR_H - 4);
			}
			page_put(pg, "\n");
		}
	}
	page_put(pg, "</svg>\n<div class=\"legend\"><span><i style=\"background:#57606a\"></i>reboot</span>"
		"<span><i style=\"background:#afb8c1\"></i>verify and start</span>"
		"<span><i style=\"background:#d4a72c\"></i>idle gate</span>"
		"<span><i style=\"background:linear-gradient(90deg,#0072b2,#e69f00)\"></i>bench rows (mode colour; "
		"white ticks: reps)</span><span><i style=\"background:#2da44e\"></i>check passed</span>"
		"<span><i style=\"background:#cf222e\"></i>check failed</span>"
		"<span><i style=\"background:#d0d7de\"></i>fetch</span></div>\n");

	/* The same times as numbers, per boot. */
	page_put(pg, "<div class=\"scroll\"><table class=\"times\">\n<thead><tr><th>side</th><th class=\"num\">reboot</th>"
		"<th class=\"num\">verify and start</th><th class=\"num\">idle gates</th><th class=\"num\">rows</th>"
		"<th class=\"num\">checks</th><th class=\"num\">fetch</th><th class=\"num\">boot total</th></tr></thead>\n<tbody>\n");
	for (size_t k = 0; k < res->n_sides; k++) {
		const struct timeline_lane *lane = &pg->sides[k].lane;
		double sum[TIMELINE_FETCH + 1] = { 0 }, a, b;

		if (!timeline_lane_bounds(lane, &a, &b))
			continue;
		for (size_t i = 0; i < lane->n_spans; i++)
			sum[lane->spans[i].kind] += lane->spans[i].end - lane->spans[i].start;
		page_put(pg, "<tr><td>");
		page_esc(pg, res->sides[k].label);
		page_put(pg, "</td>");
		for (int kind = TIMELINE_REBOOT; kind <= TIMELINE_FETCH; kind++) {
			page_put(pg, "<td class=\"num\">");
			span_seconds(pg, sum[kind]);
			page_put(pg, "</td>");
		}
		page_put(pg, "<td class=\"num\">");
		span_seconds(pg, b - a);
		page_put(pg, "</td></tr>\n");
	}
	page_put(pg, "</tbody></table></div>\n<p class=\"note\">Campaign span ");
	span_seconds(pg, t1 - t0);
	page_put(pg, ". Times are the target's clock; a reboot is drawn ending at the boot's snapshot, and the fetch "
		"ends on the controller's clock.</p>\n</section>\n");
}


/* ---- new against old code in one kernel ---- */

static void new_old_cells(struct page *pg, const struct new_old_stat *st)
{
	struct new_old_cells c;

	report_new_old_cells(st, &c);
	page_put(pg, "<td class=\"num\">");
	page_esc(pg, c.nums);
	page_put(pg, "</td><td class=\"num\">");
	page_esc(pg, c.pct);
	page_put(pg, "</td><td class=\"num\">");
	page_esc(pg, c.ci);
	page_putf(pg, "</td><td class=\"verdict %s\">",
		  !st->present ? "" : st->verdict == NEW_OLD_FASTER ? "v-gain" : st->verdict == NEW_OLD_SLOWER ? "v-loss" : "v-noise");
	page_esc(pg, c.verdict);
	page_put(pg, "</td>");
}

/* The kernel's own new,old tables, paired in each boot: a table per kernel, a line per table row. */
void html_new_old_section(struct page *pg)
{
	const struct new_old_result *no = &pg->res->new_old;

	if (no->n_rows == 0)
		return;
	page_put(pg, "<section id=\"new-old\">\n<h2>New against old, paired in each boot</h2>\n");
	for (size_t i = 0; i < no->n_rows; i++) {
		const struct new_old_row *r = &no->rows[i];
		char *name = report_new_old_name(no, r);

		if (report_new_old_group_starts(no, i)) {
			if (i)
				page_put(pg, "</tbody></table></div>\n");
			page_putf(pg, "<p class=\"note\">%zu boot%s", r->avg.boots, r->avg.boots == 1 ? "" : "s");
			if (r->kernel) {
				page_put(pg, " of <code>");
				page_esc(pg, r->kernel);
				page_put(pg, "</code>");
			}
			page_put(pg, ", ");
			page_esc(pg, r->unit);
			page_putf(pg, ", + is better, %.0f%% CI of the boots</p>\n", report_new_old_level(pg->res));
			page_put(pg, "<div class=\"scroll\"><table class=\"new-old\">\n<thead><tr><th>row</th>"
				 "<th class=\"num\">avg new,old</th><th class=\"num\">%</th><th class=\"num\">CI</th><th>verdict</th>"
				 "<th class=\"num\">min new,old</th><th class=\"num\">%</th><th class=\"num\">CI</th><th>verdict</th>"
				 "</tr></thead>\n<tbody>\n");
		}
		page_put(pg, "<tr><td>");
		page_esc(pg, name);
		page_put(pg, "</td>");
		new_old_cells(pg, &r->avg);
		new_old_cells(pg, &r->min);
		page_put(pg, "</tr>\n");
		free(name);
	}
	page_put(pg, "</tbody></table></div>\n</section>\n");
}
