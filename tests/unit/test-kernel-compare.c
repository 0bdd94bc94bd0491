/* Unit tests for the proof and record of a mode's kernel: verify_kernel() (src/kernel/verify.c), and
 * src/judge/kernels.c: which kernel each side ran, rebuilds within a mode, config differences. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "judge/kernels.h"
#include "kernel/verify.h"
#include "lib/alloc.h"
#include "lib/file.h"

static void side_set(struct side *s, const char *label, const char *mode, const char *release,
		     const char *build_id, const char *const *config)
{
	memset(s, 0, sizeof(*s));
	s->label = xstrdup(label);
	s->mode = xstrdup(mode);
	s->kernel.release = release ? xstrdup(release) : NULL;
	s->kernel.build_id = build_id ? xstrdup(build_id) : NULL;
	if (config) {
		size_t n = 0;

		while (config[n])
			n++;
		s->kernel.config = xcalloc(n + 1, sizeof(char *));
		for (size_t i = 0; i < n; i++)
			s->kernel.config[i] = xstrdup(config[i]);
		s->kernel.n_config = n;
	}
}

static const char *const cfg61[] = {
	"CONFIG_PREEMPT_VOLUNTARY=y", "CONFIG_IOMMU_DEFAULT_DMA_LAZY=y", "CONFIG_INTEL_IOMMU=y",
	"CONFIG_HZ=250", "CONFIG_ZBUD=y", NULL,
};
static const char *const cfg612[] = {
	"CONFIG_INTEL_IOMMU=y", "CONFIG_HZ=1000", "CONFIG_IOMMU_DEFAULT_DMA_LAZY=y",
	"CONFIG_PREEMPT_DYNAMIC=y", "CONFIG_PREEMPT_VOLUNTARY=y", "CONFIG_IOMMUFD=m", NULL,
};

/* old new new-pt old2: one pair (old -> new), its differences by name, no rebuild. */
static void test_two_kernels(void **state)
{
	struct side s[4];
	struct kernel_compare kc;
	const struct kernel_pair *p;

	(void)state;
	side_set(&s[0], "old", "old", "6.1.0-57-amd64", "6a2b", cfg61);
	side_set(&s[1], "new", "new", "6.12.117+deb12-amd64", "9c0d", cfg612);
	side_set(&s[2], "new-pt", "new-pt", "6.12.117+deb12-amd64", "9c0d", cfg612);
	side_set(&s[3], "old2", "old", "6.1.0-57-amd64", "6a2b", cfg61);
	kernel_compare(s, 4, &kc);
	assert_true(kc.recorded);
	assert_false(kc.same);
	assert_int_equal(kc.n_rebuilds, 0);
	assert_int_equal(kc.n_pairs, 1);
	p = &kc.pairs[0];
	assert_int_equal(p->from, 0);
	assert_int_equal(p->to, 1);
	assert_true(p->configs);
	assert_int_equal(p->n_diffs, 4);
	assert_int_equal(p->n_changed, 1);
	assert_int_equal(p->n_unset, 1);
	assert_int_equal(p->n_added, 2);
	/* changed, then unset, then added, by name within each */
	assert_string_equal(p->diffs[0].option, "CONFIG_HZ");
	assert_int_equal(p->diffs[0].change, KERNEL_OPTION_CHANGED);
	assert_string_equal(p->diffs[0].from, "250");
	assert_string_equal(p->diffs[0].to, "1000");
	assert_string_equal(p->diffs[1].option, "CONFIG_ZBUD");
	assert_string_equal(p->diffs[1].from, "y");
	assert_null(p->diffs[1].to);
	assert_string_equal(p->diffs[2].option, "CONFIG_IOMMUFD");
	assert_null(p->diffs[2].from);
	assert_string_equal(p->diffs[2].to, "m");
	assert_string_equal(p->diffs[3].option, "CONFIG_PREEMPT_DYNAMIC");
	assert_string_equal(kernel_option_change_name(p->diffs[3].change), "added");
	kernel_compare_release(&kc);
	for (size_t i = 0; i < 4; i++)
		side_release(&s[i]);
}

/* One release, two builds in mode a: a rebuild; one kernel otherwise; configs unknown. */
static void test_rebuild_and_unknown(void **state)
{
	struct side s[3];
	struct kernel_compare kc;

	(void)state;
	side_set(&s[0], "a", "a", "6.13.0-rc1-dma+", "1111", NULL);
	side_set(&s[1], "b", "b", "6.13.0-rc1-dma+", "1111", NULL);
	side_set(&s[2], "a2", "a", "6.13.0-rc1-dma+", "2222", NULL);
	kernel_compare(s, 3, &kc);
	assert_false(kc.same);
	assert_int_equal(kc.n_rebuilds, 1);
	assert_int_equal(kc.rebuilds[0].first, 0);
	assert_int_equal(kc.rebuilds[0].other, 2);
	/* a2's build is another kernel: compared, but neither side has a config */
	assert_int_equal(kc.n_pairs, 1);
	assert_int_equal(kc.pairs[0].to, 2);
	assert_false(kc.pairs[0].configs);
	kernel_compare_release(&kc);

	/* every side the same build: nothing to list */
	free(s[2].kernel.build_id);
	s[2].kernel.build_id = xstrdup("1111");
	kernel_compare(s, 3, &kc);
	assert_true(kc.same);
	assert_int_equal(kc.n_pairs, 0);
	assert_int_equal(kc.n_rebuilds, 0);
	kernel_compare_release(&kc);

	/* sides that recorded no kernel (plain output directories) */
	for (size_t i = 0; i < 3; i++) {
		free(s[i].kernel.release);
		s[i].kernel.release = NULL;
	}
	kernel_compare(s, 3, &kc);
	assert_false(kc.recorded);
	assert_false(kc.same);
	kernel_compare_release(&kc);
	for (size_t i = 0; i < 3; i++)
		side_release(&s[i]);
}

/* uname -r must be the mode's release; the build id is recorded beside it, not judged. */
static void test_verify_kernel(void **state)
{
	struct snapshot snap = { .kernel = (char *)"6.12.117+deb12-amd64", .has_notes = true,
				 .build_id = (char *)"9c0d" };
	struct verify_report r = { 0 };

	(void)state;
	verify_kernel(&snap, NULL, &r);
	assert_int_equal(r.n, 0);
	verify_kernel(&snap, "6.12.117+deb12-amd64", &r);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.v[0].status, VERIFY_OK);
	assert_int_equal(r.v[1].status, VERIFY_NOTE);
	assert_string_equal(r.v[1].found, "9c0d");
	assert_int_equal(verify_report_failures(&r), 0);
	verify_report_release(&r);
	memset(&r, 0, sizeof(r));
	/* the entry booted another kernel: the boot is not the one asked for */
	verify_kernel(&snap, "6.1.0-57-amd64", &r);
	assert_int_equal(verify_report_failures(&r), 1);
	assert_string_equal(r.v[0].expected, "6.1.0-57-amd64");
	assert_string_equal(r.v[0].found, "6.12.117+deb12-amd64");
	assert_string_equal(r.v[0].where, "/proc/sys/kernel/osrelease");
	verify_report_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verify_kernel),
		cmocka_unit_test(test_two_kernels),
		cmocka_unit_test(test_rebuild_and_unknown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
