#ifndef BOOTAB_LIB_PATTERN_H
#define BOOTAB_LIB_PATTERN_H

#include <regex.h>

#define PATTERN_LENGTH_MAX 1024
#define PATTERN_SIZE_MAX 100000UL

/*
 * Compiles pattern with regcomp(REG_EXTENDED | cflags) into re. Returns 0;
 * -E2BIG when the pattern is longer than PATTERN_LENGTH_MAX bytes or its
 * repeats would make regcomp() hold more than PATTERN_SIZE_MAX nodes
 * (*ret_error a sentence saying which); -EINVAL for a back-reference
 * (\1-\9 outside a bracket expression: not POSIX ERE, and exponential to
 * match) or when regcomp() refuses it (*ret_error regerror()'s text). On
 * an error re holds nothing.
 */
int pattern_compile(regex_t *re, const char *pattern, int cflags, char **ret_error);

#endif
