/*
 * Scratch directories for unit tests: every one is made inside a single
 * private directory per test process, and that directory goes, with all
 * it holds, when the process that made it exits. A child that calls exit()
 * leaves it alone.
 */
#ifndef BOOTAB_TEST_TMPDIR_H
#define BOOTAB_TEST_TMPDIR_H

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "lib/alloc.h"

static char *test_tmp_root;
static pid_t test_tmp_owner;

static int test_tmp_remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

static void test_tmp_remove_root(void)
{
	if (test_tmp_root && getpid() == test_tmp_owner)
		nftw(test_tmp_root, test_tmp_remove_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
	free(test_tmp_root);
	test_tmp_root = NULL;
}

/* A new empty directory; the caller frees the returned path. */
static inline char *test_tmpdir(void)
{
	char *d;

	if (!test_tmp_root) {
		test_tmp_root = xstrdup("/tmp/bootab-unit-XXXXXX");
		if (!mkdtemp(test_tmp_root)) {
			perror("mkdtemp /tmp/bootab-unit-XXXXXX");
			abort();
		}
		test_tmp_owner = getpid();
		atexit(test_tmp_remove_root);
	}
	d = xasprintf("%s/XXXXXX", test_tmp_root);
	if (!mkdtemp(d)) {
		perror("mkdtemp");
		abort();
	}
	return d;
}

#endif
