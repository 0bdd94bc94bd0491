#ifndef BOOTAB_JUDGE_KERNELS_H
#define BOOTAB_JUDGE_KERNELS_H

#include <stdbool.h>
#include <stddef.h>

#include "results/side.h"

/*
 * Which kernel each side ran, and what differs between them: a rebuild
 * in the middle of a mode (two boots of one mode, one release, two build
 * ids), and the config options that differ between the first side's
 * kernel and every other kernel the campaign ran.
 */

/* How an option differs; also the order the differences are listed in. */
enum kernel_option_change {
	KERNEL_OPTION_CHANGED,    /* set on both, to different values */
	KERNEL_OPTION_UNSET,      /* set on the first kernel only */
	KERNEL_OPTION_ADDED,      /* set on the other kernel only */
};

struct kernel_option_diff {
	enum kernel_option_change change;
	char *option;          /* "CONFIG_IOMMU_DEFAULT_DMA_LAZY" */
	char *from, *to;       /* the values; NULL: not set */
};

/* The first side's kernel against the first side that ran another one. */
struct kernel_pair {
	size_t from, to;                /* side indices */
	bool configs;                   /* both sides recorded their config */
	struct kernel_option_diff *diffs;       /* changed, then unset, then added; by name within each */
	size_t n_diffs, alloc_diffs;
	size_t n_changed, n_unset, n_added;
};

/* Two boots of one mode on one release with different build ids. */
struct kernel_rebuild {
	size_t first, other;            /* side indices */
};

struct kernel_compare {
	bool recorded;                  /* some side recorded its kernel release */
	bool same;                      /* every side ran one release and build id */
	struct kernel_pair *pairs;
	size_t n_pairs, alloc_pairs;
	struct kernel_rebuild *rebuilds;
	size_t n_rebuilds, alloc_rebuilds;
};

/* "changed", "unset", "added". */
const char *kernel_option_change_name(enum kernel_option_change change);

/* Fills *ret from sides (borrowed only during the call); release with kernel_compare_release(). */
void kernel_compare(const struct side *sides, size_t n_sides, struct kernel_compare *ret);
void kernel_compare_release(struct kernel_compare *kc);

/* Whether sides a and b ran one kernel: the same release and, where both recorded one, build id. */
bool kernel_same(const struct side_kernel *a, const struct side_kernel *b);

#endif
