#ifndef BOOTAB_REPORT_KERNELS_H
#define BOOTAB_REPORT_KERNELS_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "judge/compare.h"
#include "judge/kernels.h"

/* Config differences a text or markdown report lists; report.json and report.csv hold them all. */
#define KERNEL_DIFFS_SHOWN 60

/* A config option's value, or "(not set)". */
const char *report_config_value(const char *v);
/*
 * Which kernel each side ran, the rebuilds inside a mode, and the config
 * options that differ between the first side's kernel and each other one,
 * as text or (md) Markdown; nothing when no side recorded its kernel.
 */
void report_kernels_text(FILE *out, const struct compare_result *res, const struct kernel_compare *kc, bool md);
/* The same as report.json's "kernels" object; the caller's. */
json_t *report_kernels_json(const struct compare_result *res, const struct kernel_compare *kc);

#endif
