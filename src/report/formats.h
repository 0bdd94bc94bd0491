#ifndef BOOTAB_REPORT_FORMATS_H
#define BOOTAB_REPORT_FORMATS_H

#include <stdio.h>

#include <jansson.h>

#include "judge/compare.h"
#include "report/compare-report.h"

/*
 * One file per format, each walking the comparison and its answer
 * (report/headline.h) with the words of report/words.h; report_compare()
 * picks one. Text, Markdown and CSV write unescaped text that
 * report_compare() escapes on its way out; json, html and mail escape
 * what they hold themselves and return 0 or -EIO (report/html.h,
 * report/mail.h).
 */
void report_text(FILE *out, const struct compare_result *res, const struct report_options *o);
void report_md(FILE *out, const struct compare_result *res, const struct report_options *o);
void report_csv(FILE *out, const struct compare_result *res);
int report_json(FILE *out, const struct compare_result *res, const struct report_options *o);

#endif
