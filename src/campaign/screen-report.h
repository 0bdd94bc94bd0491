#ifndef BOOTAB_SCREEN_REPORT_H
#define BOOTAB_SCREEN_REPORT_H

#include "plan/plan.h"
#include "judge/compare.h"
#include "judge/screen.h"

/*
 * A screening campaign's answer ([factor] sections): the plan's design
 * and factors, and which run of it each side of res was (its mode's),
 * handed to judge/screen.h screen_build() at alpha. Returns 0 and *ret
 * (screen_release()), or -ENOENT when the plan has no factors (*ret
 * untouched).
 */
int screen_report_build(const struct plan *plan, const struct compare_result *res, double alpha,
			struct screen_result *ret);

#endif
