#ifndef BOOTAB_CMDLINE_H
#define BOOTAB_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/parse-error.h"

/*
 * The kernel command line, read with the kernel's own rules
 * (Documentation/admin-guide/kernel-parameters.rst, lib/cmdline.c
 * next_arg(), kernel/params.c parse_args() and parameq()):
 *
 *  - tokens are separated by whitespace (the kernel's isspace());
 *  - a double quote toggles quoting, so `foo="a b"` and `"foo=a b"` are one
 *    token; the quotes are not part of the value and cannot be escaped;
 *  - the name is everything before the first '='; names compare with '-'
 *    equal to '_' over the whole name, module prefix included
 *    (`amd-iommu` == `amd_iommu`, `iommu.pass-through` == `iommu.pass_through`);
 *  - a bare `--` ends the kernel's parameters: what follows belongs to init
 *    and is never treated as a kernel parameter;
 *  - when a name appears more than once, the last occurrence wins.
 *
 * "Managed args" are the parameters a plan owns. They are matched by NAME:
 * a plan that manages `iommu=pt` owns the `iommu` parameter, so stripping it
 * removes `iommu=pt`, `iommu=off` and a bare `iommu` alike. Everything else
 * is kept byte for byte, in order.
 */

struct cmdline_token {
	size_t start;          /* byte range of the token in cmdline.text */
	size_t end;
	char *name;            /* before the first '=', quotes removed, as written */
	char *value;           /* after the first '=', quotes removed; NULL without '=' */
	bool init_arg;         /* after the `--` separator: init's, not the kernel's */
	bool separator;        /* the `--` token itself */
};

struct cmdline {
	char *text;            /* the text as parsed (a copy) */
	struct cmdline_token *tokens;
	size_t n_tokens;
	size_t alloc_tokens;
};

#define CMDLINE_INIT { NULL, NULL, 0, 0 }

enum cmdline_parse_flags {
	/* Accept an unterminated quote as the kernel does (the token runs to
	 * the end). Without it such a line is an error: editing it could move
	 * text in or out of the quote. */
	CMDLINE_TOLERANT = 1 << 0,
	/* The text continues a command line that already passed `--`
	 * (a later BLS `options` line): every token is init's. */
	CMDLINE_AFTER_SEPARATOR = 1 << 1,
};

/*
 * Splits text into tokens. *ret is written only on success and released
 * with cmdline_release(). Returns 0, or -EINVAL with err (column set) for
 * an unterminated quote without CMDLINE_TOLERANT.
 */
int cmdline_parse(const char *text, unsigned flags, struct cmdline *ret, struct parse_error *err);
void cmdline_release(struct cmdline *c);

/* Whether the parsed line contains the `--` separator. */
bool cmdline_has_separator(const struct cmdline *c);

/* Names compared as the kernel does: '-' equals '_', case matters. */
bool cmdline_name_equal(const char *a, const char *b);

/* Whether name equals one of names, a list split by '|' ("iommu|amd_iommu"), as above. */
bool cmdline_name_listed(const char *name, const char *names);

/* Whether name is the name of one of args ("iommu" for "iommu=pt"); args may be NULL. */
bool cmdline_name_in(const char *name, char *const *args);

/*
 * The kernel-side token that wins for name (the last occurrence before
 * `--`), or NULL. Borrowed from c.
 */
const struct cmdline_token *cmdline_find_last(const struct cmdline *c, const char *name);

/* BOOT_IMAGE= and initrd=: put there by boot loaders, never managed. */
bool cmdline_is_loader_name(const char *name);

/*
 * Checks one arg a plan or the command line gives: a kernel parameter
 * `name` or `name=value` that every layer bootab hands it to (BLS files,
 * /etc/default/grub inside double quotes, grub.cfg, grubby's argv,
 * kexec --append) passes through unchanged. Names are letters, digits,
 * '_', '-' and '.'; values are letters, digits and - _ . = , : / + @ % ^ ~ !
 * Refused: whitespace, control and non-ASCII bytes, quotes (so values with
 * spaces are not supported), shell and GRUB-script metacharacters
 * ; | & $ ` \ ' " < > ( ) { } [ ] * ? # and newline, the `--` separator,
 * and the loader's own BOOT_IMAGE= and initrd=.
 * Returns 0, or -EINVAL with *ret_reason (the caller's) saying why.
 */
int cmdline_arg_valid(const char *arg, char **ret_reason);

/*
 * Splits a user's "ARGS" string on whitespace and checks every arg with
 * cmdline_arg_valid(). *ret_args is a NULL-terminated array (strv_free()),
 * written only on success. On error, err names the arg and its column.
 */
int cmdline_args_parse(const char *text, char ***ret_args, struct parse_error *err);

/*
 * Rewrites a parsed line: drops every kernel-side token whose name is the
 * name of an arg in managed (any value, '-' == '_'), then inserts add
 * before `--` (or at the end). Kept tokens keep their bytes, their order
 * and the whitespace before them; added args are separated by one space.
 * With nothing dropped and nothing added the result equals c->text.
 * When no token is left the result is "". Either list may be NULL.
 * Returns a new string, the caller's.
 */
char *cmdline_format_edit(const struct cmdline *c, char *const *managed, char *const *add);

/*
 * The whole toggle on one line: strip every managed arg (and every name
 * the mode's args use, so the mode never adds a duplicate), then append
 * the mode's args before `--`. Returns 0 and *ret (the caller's), or
 * -EINVAL with err for a line that cannot be parsed; *ret untouched then.
 */
int cmdline_apply(const char *line, char *const *managed, char *const *mode,
		  char **ret, struct parse_error *err);

/*
 * The rules verify applies to /proc/cmdline (parsed tolerantly):
 *  - an asked arg whose name is asked once holds when the last occurrence
 *    of that name has its value (a bare asked flag: the last occurrence is
 *    bare); a name asked several times (console=tty0 console=ttyS0) holds
 *    when each asked name=value is present;
 *  - every other token whose name is managed or asked is unexpected, even
 *    one a later occurrence overrides (a leftover means the set step did
 *    not strip it);
 *  - BOOT_IMAGE= and initrd= and init's args after `--` are ignored.
 */
struct cmdline_check_result {
	char **missing;        /* asked args not in effect, as asked (NULL-terminated) */
	char **unexpected;     /* offending tokens as written on the line (NULL-terminated) */
};

#define CMDLINE_CHECK_RESULT_INIT { NULL, NULL }

int cmdline_check(const char *cmdline, char *const *managed, char *const *asked,
		  struct cmdline_check_result *ret);
bool cmdline_check_ok(const struct cmdline_check_result *r);
void cmdline_check_result_release(struct cmdline_check_result *r);

/*
 * The kernel-side tokens of line whose names are not managed (nor used
 * by add), as written, in order, one NULL-terminated array (strv_free()).
 * Two lines with the same result differ only in managed args. Returns
 * NULL when the line cannot be parsed even tolerantly (never happens).
 */
char **cmdline_unmanaged_tokens(const char *line, char *const *managed, char *const *add);

#endif
