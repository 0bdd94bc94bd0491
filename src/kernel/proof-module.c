/*
 * Module parameters in the proof table (MODULE.PARAM=V), proven from
 * /sys/module/MODULE/parameters, and the snapshot words that read them.
 */

#include "kernel/proof-internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/strvec.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"

/* ------------------------------------------------------ module parameters */

/* Dotted names that are not kernel modules (initramfs, systemd): nothing in /sys/module. */
static bool userspace_namespace(const char *module)
{
	static const char *const names[] = { "rd", "systemd", "udev", "plymouth", "luks", "vconsole" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(module, names[i]))
			return true;
	return false;
}

/* Whether name is MODULE.PARAM as module parameters are written. */
static bool module_param_name(const char *name)
{
	const char *dot = strchr(name, '.');

	if (!dot || dot == name || !dot[1] || strchr(dot + 1, '.'))
		return false;
	for (const char *p = name; *p; p++)
		if (p != dot && !((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
				  (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
			return false;
	return true;
}

bool proof_module_param_match(const char *key, const struct verify_arg *a)
{
	/* iommu.* are core parameters of the IOMMU layer, not a module's. */
	return a->value && module_param_name(key) && strncmp(key, "iommu.", 6);
}

/* kernel-parameters.txt ("module.param=value"); Documentation/ABI/stable/sysfs-module. */
void proof_module_param_judge(struct judge *j)
{
	char *module = xstrndup(j->key, (size_t)(strchr(j->key, '.') - j->key));
	char *where = xasprintf("/sys/module/%s/parameters/%s", module, strchr(j->key, '.') + 1);
	bool found = false;
	const char *value = snapshot_entry_get(&j->snap->params, j->key, &found);
	int want_bool = proof_boolean_value(j->a->value), have_bool = proof_boolean_value(value);

	if (!found || !value) {
		if (userspace_namespace(module))
			proof_check(j, VERIFY_NOTE, PROOF_CMDLINE, NULL, where,
				    "not a kernel module parameter: not verified");
		else
			MISSING(j, j->a->value, where, "absent (module not loaded, or the parameter is not readable)");
	} else {
		PROVE(j, want_bool >= 0 && have_bool >= 0 ? want_bool == have_bool : !strcmp(j->a->value, value),
		      j->a->value, where, "%s", value);
	}
	free(module);
	free(where);
}

void verify_snapshot_args(const struct verify_args *asked, struct strvec *words)
{
	for (size_t i = 0; i < asked->n; i++) {
		char *key;

		if (!asked->v[i].value || !module_param_name(asked->v[i].name))
			continue;
		key = proof_param_key(asked->v[i].name);
		if (strncmp(key, "iommu.", 6))
			strvec_pushf(words, "param:%s", key);
		free(key);
	}
}
