#ifndef BOOTAB_REFUSAL_H
#define BOOTAB_REFUSAL_H

#include "kernel/snapshot.h"
#include "kernel/verify.h"

/*
 * What the kernel said it ignored, read from the log of the boot being
 * verified (the snapshot's kernel-log evidence lines): the list of unknown
 * parameters init/main.c hands to user space, "Malformed early option",
 * a driver's "Unknown option", a module's "unknown parameter ... ignored",
 * kernel/params.c's "invalid for parameter", and the parsers of the
 * mitigations, the scheduler, huge pages and CPU isolation. The wording
 * is that of the 6.1 and 6.12 kernels (docs/proof.md lists every line).
 *
 * A line that refuses an asked arg is the kernel's own word that the mode
 * did not hold: it fails the arg at the evidence level, whatever else
 * proves or does not prove it. A refusal never passes anything.
 */

/*
 * Appends one failed check per asked arg and line that refuses it (the
 * check's found text quotes the line). Args the x86 kernel lists as
 * unknown although its own code reads them from the command line (pti=
 * on 6.1, nokaslr, spectre_v2=, ...) are not failed by that list.
 */
void refusals_judge(const struct snapshot *snap, const struct verify_args *asked,
		    struct verify_report *report);

/*
 * Whether the message of one kernel-log line refuses parameter name
 * (names compare with '-' equal to '_'). The line may carry a "[ 0.0] "
 * stamp or a journal prefix ("... kernel: ").
 */
bool refusal_line_names(const char *line, const char *name);

/* The message of a log line: after its "[    0.0] " stamp or a journal's "... kernel: ". Borrowed from line. */
const char *refusal_message(const char *line);

#endif
