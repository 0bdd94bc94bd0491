/*
 * The memory family of the proof table: transparent_hugepage=, the
 * HugeTLB pages, and what leaves no sysfs trace (init_on_alloc=,
 * init_on_free=, nokaslr), proven from /sys/kernel/mm, /proc/meminfo, the
 * kernel log and /proc/kallsyms.
 */

#include "kernel/proof-internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/alloc.h"
#include "lib/strbuf.h"

/* memparse(): "2M", "1G", "2048K", "4096" as kB; 0 when not a size. */
static unsigned long long size_kb(const char *s)
{
	char *end;
	unsigned long long v;

	if (!s || *s < '0' || *s > '9')
		return 0;
	v = strtoull(s, &end, 0);
	switch (*end) {
	case 'K': case 'k':
		end++;
		break;
	case 'M': case 'm':
		v *= 1024;
		end++;
		break;
	case 'G': case 'g':
		v *= 1024 * 1024;
		end++;
		break;
	case 'T': case 't':
		v *= 1024ULL * 1024 * 1024;
		end++;
		break;
	case '\0':
		v /= 1024;
		break;
	default:
		return 0;
	}
	return *end ? 0 : v;
}

/* ---------------------------------------------------- transparent huge pages */

#define THP_ENABLED "/sys/kernel/mm/transparent_hugepage/enabled"

bool proof_thp_match(const char *key, const struct verify_arg *a)
{
	return !strcmp(key, "transparent_hugepage") &&
	       (proof_value_is(a, "always") || proof_value_is(a, "madvise") || proof_value_is(a, "never"));
}

/* kernel-parameters.txt (transparent_hugepage=); Documentation/admin-guide/mm/transhuge.rst. */
void proof_thp_judge(struct judge *j)
{
	const char *enabled = proof_state(j, THP_ENABLED);
	char *sel = proof_selected_word(enabled, '[', ']');

	if (!enabled)
		MISSING(j, j->a->value, THP_ENABLED, "absent (a kernel without transparent huge pages)");
	else
		PROVE(j, sel && !strcmp(sel, j->a->value), j->a->value, THP_ENABLED, "%s (%s)",
		      sel ? sel : "none selected", enabled);
	free(sel);
}

/* ---------------------------------------------------------- HugeTLB pages */

#define MEMINFO_SIZE "/proc/meminfo:Hugepagesize"

bool proof_hugepages_match(const char *key, const struct verify_arg *a)
{
	return a->value && (!strcmp(key, "hugepages") || !strcmp(key, "hugepagesz") ||
			    !strcmp(key, "default_hugepagesz"));
}

/* "/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages" for 2048 kB. */
static char *nr_path(unsigned long long kb)
{
	return xasprintf("/sys/kernel/mm/hugepages/hugepages-%llukB/nr_hugepages", kb);
}

/*
 * kernel-parameters.txt (hugepages=, hugepagesz=, default_hugepagesz=) and
 * Documentation/admin-guide/mm/hugetlbpage.rst: hugepages= counts pages of
 * the hugepagesz= before it, else of the default size; the default size
 * is default_hugepagesz=, shown as Hugepagesize in /proc/meminfo; each
 * size's pool is /sys/kernel/mm/hugepages/hugepages-<size>kB/nr_hugepages.
 */
void proof_hugepages_judge(struct judge *j)
{
	const char *meminfo = proof_state(j, MEMINFO_SIZE);
	unsigned long long kb = 0;

	if (!strcmp(j->key, "default_hugepagesz")) {
		kb = size_kb(j->a->value);
		if (!kb) {
			proof_check(j, VERIFY_FAILED, PROOF_PROVEN, "a size", "/proc/cmdline", "not a size");
			return;
		}
		{
			char *expected = xasprintf("%llu kB", kb);

			PROVE(j, meminfo && strtoull(meminfo, NULL, 10) == kb, expected,
			      "/proc/meminfo (Hugepagesize)", "%s", meminfo ? meminfo : "absent");
			free(expected);
		}
		return;
	}
	if (!strcmp(j->key, "hugepagesz")) {
		/* A size reserves nothing by itself: the hugepages= after it says how many. */
		const char *count = NULL;
		char *path;
		bool found = false;
		const char *nr;

		for (size_t i = j->index + 1; i < j->args->n && !count; i++) {
			char *k = proof_param_key(j->args->v[i].name);

			if (!strcmp(k, "hugepagesz")) {
				free(k);
				break;
			}
			if (!strcmp(k, "hugepages"))
				count = j->args->v[i].value;
			free(k);
		}
		kb = size_kb(j->a->value);
		path = nr_path(kb);
		nr = snapshot_entry_get(&j->snap->state, path, &found);
		if (!kb || !found)
			MISSING(j, "a supported huge page size", path, "absent (no pool of that size)");
		else if (count)
			PROVE(j, nr && !strcmp(nr, count), count, path, "a pool of %s pages",
			      nr ? nr : "?");
		else
			proof_check(j, VERIFY_NOTE, PROOF_CMDLINE, NULL, path,
				    "a supported size; without hugepages= after it, nothing to prove");
		free(path);
		return;
	}
	/* hugepages=N: the size is the hugepagesz= before it, else the default. */
	for (size_t i = j->index; i-- > 0;) {
		char *k = proof_param_key(j->args->v[i].name);

		if (!strcmp(k, "hugepagesz"))
			kb = size_kb(j->args->v[i].value);
		free(k);
		if (kb)
			break;
	}
	for (size_t i = 0; !kb && i < j->args->n; i++) {
		char *k = proof_param_key(j->args->v[i].name);

		if (!strcmp(k, "default_hugepagesz"))
			kb = size_kb(j->args->v[i].value);
		free(k);
	}
	if (!kb && meminfo)
		kb = strtoull(meminfo, NULL, 10);
	if (!kb) {
		MISSING(j, j->a->value, "/proc/meminfo", "no huge page size (Hugepagesize absent)");
		return;
	}
	{
		char *path = nr_path(kb);
		const char *nr = proof_state(j, path);
		char *end;
		unsigned long long want = strtoull(j->a->value, &end, 10);

		if (*end || end == j->a->value)
			proof_check(j, VERIFY_FAILED, PROOF_PROVEN, "a number", "/proc/cmdline", "not a number");
		else
			PROVE(j, nr && strtoull(nr, NULL, 10) == want, j->a->value, path, "%s%s",
			      nr ? nr : "absent", nr ? " pages" : " (no pool of that size)");
		free(path);
	}
}


/* ------------------------------------------------- what leaves no sysfs trace */

bool proof_init_on_match(const char *key, const struct verify_arg *a)
{
	return (!strcmp(key, "init_on_alloc") || !strcmp(key, "init_on_free")) &&
	       proof_boolean_value(a->value) >= 0;
}

/*
 * kernel-parameters.txt (init_on_alloc=, init_on_free=): nothing in sysfs
 * shows them; mm/mm_init.c logs "mem auto-init: ..., heap alloc:on, heap
 * free:off". Evidence: a log line that disagrees fails the boot, one that
 * agrees proves nothing.
 */
void proof_init_on_judge(struct judge *j)
{
	const char *line = proof_evidence_line(j->snap, "mem auto-init:");
	const char *field = !strcmp(j->key, "init_on_alloc") ? "heap alloc:" : "heap free:";
	const char *at = line ? strstr(line, field) : NULL;
	char *want = xasprintf("%s%s", field, proof_boolean_value(j->a->value) ? "on" : "off");

	if (!at)
		proof_check(j, VERIFY_NOTE, PROOF_CMDLINE, NULL, proof_log_where(j->snap),
			    "no sysfs trace, and no \"mem auto-init\" kernel-log line: not verified");
	else if (strncmp(at, want, strlen(want)))
		proof_check(j, VERIFY_FAILED, PROOF_EVIDENCE, want, proof_log_where(j->snap), "the kernel log says %s", line);
	else
		proof_check(j, VERIFY_NOTE, PROOF_EVIDENCE, NULL, proof_log_where(j->snap), "no sysfs trace; %s", line);
	free(want);
}

bool proof_nokaslr_match(const char *key, const struct verify_arg *a)
{
	return !strcmp(key, "nokaslr") && !a->value;
}

/*
 * kernel-parameters.txt (nokaslr): nothing in sysfs says whether the
 * kernel was randomised. As root, /proc/kallsyms gives _text: at the
 * x86-64 link address (0xffffffff81000000) the kernel was not moved, or
 * was moved by chance to where it was linked; anywhere else it was
 * randomised, and nokaslr did not hold.
 */
void proof_nokaslr_judge(struct judge *j)
{
	const char *text = proof_state(j, "/proc/kallsyms:_text");

	if (!text)
		proof_check(j, VERIFY_NOTE, PROOF_CMDLINE, NULL, "/proc/kallsyms",
			    "no sysfs trace, and _text not readable (root only): not verified");
	else if (!strcmp(text, "ffffffff81000000"))
		proof_check(j, VERIFY_NOTE, PROOF_EVIDENCE, NULL, "/proc/kallsyms",
			    "_text at %s, the link address (a randomised kernel can land there too)", text);
	else if (strlen(text) == 16 && !strncmp(text, "ffffffff", 8) && strchr("89ab", text[8]))
		/* The kernel image is placed within 1 GiB above 0xffffffff80000000. */
		proof_check(j, VERIFY_FAILED, PROOF_PROVEN, "_text at ffffffff81000000", "/proc/kallsyms",
			    "_text at %s: the kernel was randomised", text);
	else
		proof_check(j, VERIFY_NOTE, PROOF_CMDLINE, NULL, "/proc/kallsyms",
			    "_text at %s: not an x86-64 layout bootab knows (not judged)", text);
}
