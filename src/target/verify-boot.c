#include "target/verify-boot.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/proof.h"
#include "lib/alloc.h"
#include "lib/strvec.h"
#include "target/target.h"

void verify_boot_snapshot_args(const struct verify_boot_request *q, struct strvec *words)
{
	struct verify_args asked;

	verify_args_from_list(q->asked, &asked);
	verify_snapshot_args(&asked, words);
	for (size_t i = 0; i < q->n_expects; i++)
		if (q->expects[i].kind == EXPECT_SYSFS)
			strvec_pushf(words, "file:%s", q->expects[i].subject);
	verify_args_release(&asked);
}

void verify_boot_check(const struct snapshot *snap, const struct verify_boot_request *q,
		       struct verify_boot_result *ret)
{
	struct verify_args asked;

	verify_args_from_list(q->asked, &asked);
	verify_kernel(snap, q->kernel, &ret->report);
	verify_cmdline(snap, q->managed, q->asked, &ret->report);
	verify_semantics(snap, &asked, &ret->report);
	for (size_t i = 0; i < q->n_expects; i++)
		verify_expect_check(snap, &q->expects[i], &ret->report);
	ret->proof = proof_levels_json(&ret->report, &asked);
	verify_args_release(&asked);
}

int verify_boot(struct target *t, const struct verify_boot_request *q,
		struct verify_boot_result *ret, struct parse_error *err)
{
	struct strvec words = STRVEC_INIT;
	int r;

	memset(ret, 0, sizeof(*ret));
	verify_boot_snapshot_args(q, &words);
	r = target_snapshot_with(t, strvec_argv(&words), true, q->snapshot, &ret->snapshot, NULL, err);
	if (r == -EACCES) {
		ret->without_root = xstrdup(target_error(t));
		strvec_push(&words, "nolog");
		r = target_snapshot_with(t, strvec_argv(&words), false, q->snapshot, &ret->snapshot, NULL, err);
	}
	if (r == 0)
		verify_boot_check(&ret->snapshot, q, ret);
	strvec_release(&words);
	return r;
}

void verify_boot_result_release(struct verify_boot_result *result)
{
	snapshot_release(&result->snapshot);
	verify_report_release(&result->report);
	free(result->without_root);
	result->without_root = NULL;
	json_decref(result->proof);
	result->proof = NULL;
}
