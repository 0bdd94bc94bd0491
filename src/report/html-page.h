#ifndef BOOTAB_REPORT_HTML_PAGE_H
#define BOOTAB_REPORT_HTML_PAGE_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "judge/compare.h"
#include "kernel/iommu.h"
#include "lib/strbuf.h"
#include "report/compare-report.h"
#include "report/timeline.h"

/*
 * report.html's parts, shared by the files that write it (html.c: the
 * page, its header, answer, summary, gains and costs; html-figures.c: the
 * forest plot and a chart per metric; html-facts.c: boots, IOMMU map,
 * versions, kernels, timeline). Internal to report.html.
 */

/* What the page knows about one boot beyond its numbers: its meta.json. */
struct html_side {
	const json_t *meta;           /* the side's meta.json (borrowed); NULL when it has none */
	char *meta_problem;           /* why there is none, for the page */
	struct iommu_map iommu;
	bool has_iommu;
	struct timeline_lane lane;
	size_t mode_index;            /* colour */
};

struct page {
	struct strbuf *sb;
	const struct compare_result *res;
	const struct report_options *o;
	struct html_side *sides;
	size_t n_modes;
};

/* Append to the page: text as is, formatted, or escaped (NULL: nothing). */
void page_put(struct page *pg, const char *s);
void page_putf(struct page *pg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void page_esc(struct page *pg, const char *s);
/* Side k's mode colour; a string of side's meta.json (NULL: none). */
const char *page_mode_color(const struct page *pg, size_t k);
const char *page_meta_string(const struct html_side *s, const char *key);
/* CSS class and words of a cell's screen verdict, of a test's verdict; a mode's colour. */
const char *page_verdict_class(const struct compare_cell *c);
const char *page_verdict_label(const struct compare_cell *c);
const char *page_test_class(const struct compare_test *t);
const char *page_test_color(const struct page *pg, const struct compare_test *t);
/* The data-* attributes of a test's verdict (data-test-verdict, ...), of side k's (data-verdict, ...). */
void page_test_attrs(struct page *pg, const struct compare_metric *cm, const struct compare_test *t);
void page_verdict_attrs(struct page *pg, const struct compare_metric *cm, size_t k);
/* Whether metric cm has a chart (a side has its value); the id of metric i's chart. */
bool page_metric_shown(const struct compare_result *res, const struct compare_metric *cm);
void page_metric_anchor(struct page *pg, size_t i);
/* One cell as fn writes it, escaped; "row metric" with the row muted; the metric's unit and statistic. */
void page_cell_text(struct page *pg, void (*fn)(struct strbuf *, const struct compare_metric *,
						  const struct compare_cell *),
		    const struct compare_metric *cm, const struct compare_cell *c);
void page_metric_heading(struct page *pg, const struct compare_metric *cm);
void page_metric_sub(struct page *pg, const struct compare_metric *cm);

/* The sections of factors.c, html-figures.c and html-facts.c, in the page's order. */
void html_factors_section(struct page *pg);
void html_forest_section(struct page *pg);
void html_metric_figures(struct page *pg);
void html_boots_table(struct page *pg);
void html_iommu_section(struct page *pg);
void html_versions_section(struct page *pg);
void html_kernels_section(struct page *pg);
void html_timeline_section(struct page *pg);
/* The kernel's own new,old tables (report/new-old-words.h); nothing when there are none. */
void html_new_old_section(struct page *pg);

#endif
