#!/bin/sh
# Runs bootab under valgrind for the CLI tests (make check-valgrind): the
# tests call $BOOTAB, which points here; BOOTAB_VALGRIND_BIN is the real
# binary. Any memory error or leak makes the command exit 99, which fails
# the test that ran it; valgrind's report goes to stderr.
exec valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,possible \
	--show-leak-kinds=definite,possible "${BOOTAB_VALGRIND_BIN:?}" "$@"
