#ifndef BOOTAB_PROOF_INTERNAL_H
#define BOOTAB_PROOF_INTERNAL_H

#include <stdbool.h>

#include "kernel/proof.h"

/*
 * What the files of the proof table share; nothing outside src/kernel/proof*.c
 * includes this. proof.c is the table and the engine that walks it; each
 * parameter family (proof-iommu.c, proof-cpu.c, proof-memory.c,
 * proof-sched.c, proof-module.c) gives a match and a judge function per
 * entry, and proof-check.c what they all use.
 */

/* One arg being judged. */
struct judge {
	const struct snapshot *snap;
	const struct verify_args *args;
	size_t index;
	const struct verify_arg *a;
	const char *key;          /* the name with '-' as '_' */
	const char *what;         /* the arg as written: "pti=on" */
	struct verify_report *report;
	const char *watch;        /* touch map only: the plan's watched device */
	const char *inert;        /* why the box has nothing this arg acts on, or NULL */
	bool missing;             /* a file the proof reads is not there */
};

/* Adds a check of j's arg to j->report: what was found, printf-style. */
void proof_check(struct judge *j, enum verify_status status, enum proof_level level,
		 const char *expected, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* A proof that fails because the file it reads is not there. */
#define MISSING(j, expected, where, ...) \
	((j)->missing = true, proof_check((j), VERIFY_FAILED, PROOF_PROVEN, (expected), (where), __VA_ARGS__))

/* A proven check that holds when ok. */
#define PROVE(j, ok, expected, where, ...) \
	proof_check((j), (ok) ? VERIFY_OK : VERIFY_FAILED, PROOF_PROVEN, (expected), (where), __VA_ARGS__)

/* kstrtobool's words: 1/y/Y/on/t/true and 0/n/N/off/f/false. -1: not a boolean. */
int proof_boolean_value(const char *s);
/* option among the comma-separated words of value ("off" in "off,nosmt"). */
bool proof_has_option(const char *value, const char *option);
/* Whether a's value is v. */
bool proof_value_is(const struct verify_arg *a, const char *v);
/* name with '-' as '_'; the caller's. */
char *proof_param_key(const char *name);
/* A kernel-state file from the snapshot (snapshot.sh's state records), or NULL. Borrowed. */
const char *proof_state(const struct judge *j, const char *path);
/* The selected word of "always [madvise] never" (or "(full)" with open '('), the caller's. */
char *proof_selected_word(const char *s, char open, char close);
/* The message of the last kernel-log evidence line holding needle (its "[  0.0] " stamp left out), or NULL. */
const char *proof_evidence_line(const struct snapshot *snap, const char *needle);
/* The name of the kernel log the snapshot read, for a check's where. */
const char *proof_log_where(const struct snapshot *snap);

/*
 * Each entry of the table: whether it takes the arg (key is its name with
 * '-' as '_'), and its judge, which adds the arg's checks.
 */

/* proof-iommu.c */
bool proof_passthrough_match(const char *key, const struct verify_arg *a);
void proof_passthrough_judge(struct judge *j);
bool proof_strict_match(const char *key, const struct verify_arg *a);
void proof_strict_judge(struct judge *j);
bool proof_iommu_off_match(const char *key, const struct verify_arg *a);
void proof_iommu_off_judge(struct judge *j);
/* proof-cpu.c */
bool proof_mitigations_off_match(const char *key, const struct verify_arg *a);
void proof_mitigations_off_judge(struct judge *j);
bool proof_speculation_match(const char *key, const struct verify_arg *a);
void proof_speculation_judge(struct judge *j);
bool proof_nosmt_match(const char *key, const struct verify_arg *a);
void proof_nosmt_judge(struct judge *j);
bool proof_mitigations_nosmt_match(const char *key, const struct verify_arg *a);
void proof_mitigations_nosmt_judge(struct judge *j);
bool proof_pti_match(const char *key, const struct verify_arg *a);
void proof_pti_judge(struct judge *j);
/* proof-memory.c */
bool proof_thp_match(const char *key, const struct verify_arg *a);
void proof_thp_judge(struct judge *j);
bool proof_hugepages_match(const char *key, const struct verify_arg *a);
void proof_hugepages_judge(struct judge *j);
bool proof_init_on_match(const char *key, const struct verify_arg *a);
void proof_init_on_judge(struct judge *j);
bool proof_nokaslr_match(const char *key, const struct verify_arg *a);
void proof_nokaslr_judge(struct judge *j);
/* proof-sched.c */
bool proof_isolcpus_match(const char *key, const struct verify_arg *a);
void proof_isolcpus_judge(struct judge *j);
bool proof_pstate_match(const char *key, const struct verify_arg *a);
void proof_pstate_judge(struct judge *j);
bool proof_default_governor_match(const char *key, const struct verify_arg *a);
void proof_default_governor_judge(struct judge *j);
bool proof_preempt_match(const char *key, const struct verify_arg *a);
void proof_preempt_judge(struct judge *j);
bool proof_numa_balancing_match(const char *key, const struct verify_arg *a);
void proof_numa_balancing_judge(struct judge *j);
/* proof-module.c */
bool proof_module_param_match(const char *key, const struct verify_arg *a);
void proof_module_param_judge(struct judge *j);

#endif
