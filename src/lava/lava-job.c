#include "lava/lava.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/base64.h"
#include "lib/shell-quote.h"
#include "lib/strbuf.h"
#include "target/target.h"

/* Where the test script works on the device: tmpfs on a LAVA tmpfs deploy. */
#define LAVA_WORK_DIR "/tmp/bootab-lava"

/* The test script's text travels in steps of at most this many base64 characters. */
#define LAVA_STEP_CHUNK 4000

/*
 * A double-quoted YAML scalar (YAML 1.2 section 7.3.1): '\' and '"'
 * escaped, every control character and DEL as \xNN, so no value of a
 * plan can end the scalar or start a key of its own.
 */
static void yaml_quote_append(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '\\' || *p == '"')
			strbuf_addf(sb, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			strbuf_addf(sb, "\\x%02x", *p);
		else
			strbuf_addch(sb, (char)*p);
	}
	strbuf_addch(sb, '"');
}

/* "cat > FILE <<'DELIM'", the text, DELIM: with a delimiter no line of text is. */
static void add_file(struct strbuf *sb, const char *file, const char *text)
{
	char delim[64];

	for (unsigned n = 0;; n++) {
		size_t dl;
		const char *p;
		bool clash = false;

		snprintf(delim, sizeof(delim), "BOOTAB_LAVA_EOF_%u", n);
		dl = strlen(delim);
		for (p = text; (p = strstr(p, delim)); p += dl)
			if ((p == text || p[-1] == '\n') && (p[dl] == '\n' || p[dl] == '\0'))
				clash = true;
		if (!clash)
			break;
	}
	strbuf_addf(sb, "cat > %s <<'%s'\n%s", file, delim, text);
	if (*text && text[strlen(text) - 1] != '\n')
		strbuf_addch(sb, '\n');
	strbuf_addf(sb, "%s\n", delim);
}

static void add_script(struct strbuf *sb, const char *name)
{
	char *text = target_script_render(NULL, name), *file = xasprintf("%s.sh", name);

	add_file(sb, file, text ? text : "");
	free(file);
	free(text);
}

char *lava_boot_script(const struct lava_boot *b)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "#!/bin/sh\n"
		    "# bootab's LAVA test script: campaign %s, boot %zu of %zu, %s (mode %s).\n"
		    "# In LAVA's test shell, as root: the snapshot scripts, the per-boot script\n"
		    "# (the rows), and each output printed base64-encoded between\n"
		    "# 'bootab-lava-begin NAME SIZE' and 'bootab-lava-end NAME' lines.\n"
		    "set -u\nLC_ALL=C\nexport LC_ALL\n"
		    "d=" LAVA_WORK_DIR "\nrm -rf \"$d\"\nmkdir -p \"$d/run\" || exit 1\ncd \"$d\" || exit 1\n",
		    b->campaign, b->boot_index + 1, b->n_boots, b->label, b->mode);
	for (size_t i = 0; target_snapshot_scripts[i]; i++)
		add_script(&sb, target_snapshot_scripts[i]);
	add_script(&sb, "run-fetch");
	add_file(&sb, "run/run.sh", b->runner ? b->runner : "");
	strbuf_addstr(&sb,
		      "bootab_put() {\n"
		      "\tlevel=$(cut -f1 /proc/sys/kernel/printk 2>/dev/null)\n"
		      /* Kernel messages on the console would land inside the blocks. */
		      "\techo 1 > /proc/sys/kernel/printk 2>/dev/null\n"
		      "\tprintf 'bootab-lava-begin %s %s\\n' \"$1\" \"$(wc -c < \"$2\" | tr -d ' ')\"\n"
		      "\tbase64 \"$2\"\n"
		      "\tprintf 'bootab-lava-end %s\\n' \"$1\"\n"
		      "\t[ -z \"$level\" ] || echo \"$level\" > /proc/sys/kernel/printk 2>/dev/null\n"
		      "}\n"
		      "bootab_case() {\n"
		      "\tif [ \"$2\" -eq 0 ]; then lava-test-case \"$1\" --result pass; else lava-test-case \"$1\" --result fail; fi\n"
		      "}\n");
	strbuf_addstr(&sb, "sh snapshot.sh");
	for (size_t i = 0; b->snapshot_args && b->snapshot_args[i]; i++) {
		strbuf_addch(&sb, ' ');
		shell_quote_append(&sb, b->snapshot_args[i]);
	}
	strbuf_addstr(&sb, " > snapshot.out 2> snapshot.err\nbootab_case bootab-snapshot $?\n"
		      "sh kernel-id.sh > kernel-id.out 2> kernel-id.err\nbootab_case bootab-kernel-id $?\n"
		      "sh inventory.sh > inventory.out 2> inventory.err\nbootab_case bootab-inventory $?\n"
		      "bootab_put snapshot snapshot.out\nbootab_put kernel-id kernel-id.out\n"
		      "bootab_put inventory inventory.out\n"
		      "sh run/run.sh > runner.out 2>&1\nbootab_case bootab-rows $?\n"
		      "while read -r kind row rep rc start end secs; do\n"
		      "\t[ \"$kind\" = rep ] || continue\n"
		      "\tif [ \"$rc\" = 0 ]; then res=pass; else res=fail; fi\n"
		      "\tlava-test-case \"$row.$rep\" --result \"$res\" --measurement \"$secs\" --units s\n"
		      "done < run/results\n");
	strbuf_addf(&sb, "sh run-fetch.sh \"$d/run\" %llu > fetch.out\nbootab_case bootab-fetch $?\n"
		    "bootab_put fetch fetch.out\n", b->fetch_limit);
	return strbuf_detach(&sb, NULL);
}

static void add_key(struct strbuf *sb, const char *indent, const char *key, const char *value)
{
	strbuf_addf(sb, "%s%s: ", indent, key);
	yaml_quote_append(sb, value);
	strbuf_addch(sb, '\n');
}

/* The command line of the boot: [lava] kernel_args, then the mode's args. */
static char *boot_cmdline(const struct plan *plan, const struct lava_boot *b)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, plan->lava.kernel_args ? plan->lava.kernel_args : "");
	for (size_t i = 0; b->args && b->args[i]; i++)
		strbuf_addf(&sb, "%s%s", sb.len ? " " : "", b->args[i]);
	return strbuf_detach(&sb, NULL);
}

static void add_test_action(struct strbuf *sb, const struct plan *plan, const struct lava_boot *b)
{
	char *script = lava_boot_script(b), *step;
	struct strbuf enc = STRBUF_INIT;

	base64_encode_append(&enc, script, strlen(script));
	free(script);
	strbuf_addf(sb, "- test:\n    timeout:\n      seconds: %u\n    definitions:\n    - repository:\n"
		    "        metadata:\n          format: \"Lava-Test Test Definition 1.0\"\n"
		    "          name: \"bootab\"\n", plan->lava.job_timeout_s);
	step = xasprintf("bootab %s boot %zu/%zu %s", b->campaign, b->boot_index + 1, b->n_boots, b->label);
	add_key(sb, "          ", "description", step);
	free(step);
	strbuf_addstr(sb, "        run:\n          steps:\n");
	strbuf_addstr(sb, "          - ");
	yaml_quote_append(sb, "rm -f " LAVA_WORK_DIR ".b64");
	strbuf_addch(sb, '\n');
	for (size_t off = 0; off < enc.len; off += LAVA_STEP_CHUNK) {
		size_t n = enc.len - off < LAVA_STEP_CHUNK ? enc.len - off : LAVA_STEP_CHUNK;

		step = xasprintf("printf '%%s' '%.*s' >> " LAVA_WORK_DIR ".b64", (int)n, enc.buf + off);
		strbuf_addstr(sb, "          - ");
		yaml_quote_append(sb, step);
		strbuf_addch(sb, '\n');
		free(step);
	}
	strbuf_addstr(sb, "          - ");
	yaml_quote_append(sb, "base64 -d " LAVA_WORK_DIR ".b64 > " LAVA_WORK_DIR ".sh && sh " LAVA_WORK_DIR ".sh");
	strbuf_addstr(sb, "\n      from: inline\n      name: \"bootab\"\n      path: \"inline/bootab.yaml\"\n");
	strbuf_release(&enc);
}

char *lava_job_definition(const struct plan *plan, const struct lava_boot *b)
{
	const struct plan_lava *l = &plan->lava;
	struct strbuf sb = STRBUF_INIT;
	char *cmdline = boot_cmdline(plan, b), *text;

	strbuf_addf(&sb, "# bootab: campaign %s, boot %zu of %zu, %s (mode %s)\n", b->campaign,
		    b->boot_index + 1, b->n_boots, b->label, b->mode);
	add_key(&sb, "", "device_type", l->device_type ? l->device_type : "qemu");
	text = xasprintf("bootab %s boot %zu/%zu %s", b->campaign, b->boot_index + 1, b->n_boots, b->label);
	add_key(&sb, "", "job_name", text);
	free(text);
	strbuf_addstr(&sb, "priority: medium\nvisibility: public\n");
	if (l->tags.n) {
		strbuf_addstr(&sb, "tags:\n");
		for (size_t i = 0; i < l->tags.n; i++) {
			strbuf_addstr(&sb, "- ");
			yaml_quote_append(&sb, l->tags.items[i]);
			strbuf_addch(&sb, '\n');
		}
	}
	strbuf_addf(&sb, "timeouts:\n  job:\n    seconds: %u\n  action:\n    seconds: %u\n"
		    "  connection:\n    seconds: 120\n", l->job_timeout_s, l->job_timeout_s);
	strbuf_addstr(&sb, "context:\n");
	add_key(&sb, "  ", "arch", l->arch ? l->arch : "amd64");
	/* Read by the bootloader device types; LAVA's qemu boot takes -append below. */
	add_key(&sb, "  ", "extra_kernel_args", cmdline);
	strbuf_addstr(&sb, "actions:\n- deploy:\n    timeout:\n      seconds: 600\n    to: tmpfs\n    images:\n"
		      "      kernel:\n");
	/* QEMU's -append takes one argument: the command line in double quotes (the plan has none in it). */
	text = xasprintf("-kernel {kernel} -append \"%s\"", cmdline);
	add_key(&sb, "        ", "image_arg", text);
	free(text);
	add_key(&sb, "        ", "url", l->kernel);
	strbuf_addstr(&sb, "      ramdisk:\n");
	add_key(&sb, "        ", "image_arg", "-initrd {ramdisk}");
	add_key(&sb, "        ", "url", l->initramfs);
	strbuf_addstr(&sb, "        compression: gz\n        format: cpio.newc\n        overlays:\n          lava: true\n");
	strbuf_addf(&sb, "- boot:\n    timeout:\n      seconds: %u\n    method: qemu\n    media: tmpfs\n    prompts:\n",
		    plan->boot_timeout_s);
	strbuf_addstr(&sb, "    - ");
	yaml_quote_append(&sb, l->prompt);
	strbuf_addch(&sb, '\n');
	add_test_action(&sb, plan, b);
	free(cmdline);
	return strbuf_detach(&sb, NULL);
}
