#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "lab/lab.h"
#include "lib/alloc.h"
#include "lib/file.h"
#include "lib/parse-number.h"
#include "lib/strbuf.h"
#include "cli/log.h"

static const char cmd_lab_usage[] =
	"usage: bootab lab [--guest busybox|debian] [--name NAME] SUBCOMMAND ...\n"
	"       bootab lab build [--force]\n"
	"       bootab lab up [--smt] [--timeout SECONDS]\n"
	"       bootab lab down [--timeout SECONDS]\n"
	"       bootab lab status [--json]\n"
	"       bootab lab ssh [COMMAND [ARG...]]\n"
	"       bootab lab power-cycle\n"
	"       bootab lab wait [--since BOOT_ID] [--timeout SECONDS]\n"
	"       bootab lab path\n"
	"\n"
	"The lab is a target box in QEMU (TCG): OVMF, an emulated Intel IOMMU and\n"
	"a disk behind it, reached over SSH on a random loopback port. Two guests:\n"
	"  busybox  (the default) systemd-boot with BLS entries on an ESP mounted\n"
	"           at /boot, the Debian kernel, a busybox initramfs with dropbear\n"
	"  debian   Debian 12 built with mmdebstrap (as root): systemd, GRUB with\n"
	"           update-grub, OpenSSH, sudo, two kernels (6.1 and 6.12), users\n"
	"           bench (sudo with a password) and benchnp (sudo NOPASSWD)\n"
	"--guest (before or right after the subcommand) picks the guest to build\n"
	"and the default directory; without it a directory keeps the guest it was\n"
	"built with.\n"
	"--name NAME (before or right after the subcommand) is one more box of the\n"
	"busybox lab, NAME of a-z 0-9 -: its own QEMU, port, monitor and state in\n"
	"DIR/boxes/NAME, its own copy of the disks the guest writes (made from the\n"
	"lab's build while the lab is down) and machine-id, reached as Host\n"
	"bootab-lab-NAME, and as target lab:NAME by the other commands and plans.\n"
	"Several boxes run at once.\n"
	"\n"
	"  build        build or refresh the lab's files (lab/build.sh; cached)\n"
	"  up           build if needed, start QEMU, wait until SSH answers, print\n"
	"               the SSH command (default timeout 240 s, debian 480 s); a\n"
	"               guest that does not answer: the last console lines\n"
	"               --smt: the two CPUs are two threads of one core (nosmt)\n"
	"  down         stop QEMU: nothing of the lab stays running\n"
	"  status       running or not, pid, port, boot_id; exit 1 when not running\n"
	"  ssh          run COMMAND in the guest as root (a shell without one)\n"
	"  power-cycle  hard-reset the guest through QEMU's monitor\n"
	"  wait         wait until the guest answers with a boot_id other than\n"
	"               BOOT_ID, print it (default timeout 240 s)\n"
	"  path         print the lab directory\n"
	"\n"
	"Other tools reach the lab with: ssh -F DIR/run/ssh_config bootab-lab\n"
	"(a box: ssh -F DIR/boxes/NAME/run/ssh_config bootab-lab-NAME)\n"
	"\n"
	"environment:\n"
	"  BOOTAB_LAB_DIR     the lab directory (default $XDG_CACHE_HOME/bootab/lab,\n"
	"                     else ~/.cache/bootab/lab; lab-debian for debian)\n"
	"  BOOTAB_LAB_DEB_CACHE  where downloads and the Debian system image are\n"
	"                     kept (default DIR/cache; labs may share one)\n"
	"  BOOTAB_LAB_SOURCE  the directory holding build.sh (default: lab/ of the\n"
	"                     source tree the binary was built in)\n";

#define DEFAULT_TIMEOUT_S 240
/* systemd, and on the first boot update-grub, under TCG. */
#define DEFAULT_TIMEOUT_DEBIAN_S 480
#define SERIAL_TAIL_LINES 15

static enum lab_guest guest;
static bool guest_given;
/* --name: the box, and the lab it is made from. */
static const char *box_name;
static char *base_dir;
#define STOP_TIMEOUT_S 20

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

/* Ctrl-C, SIGTERM and SIGHUP only set a flag: `up` then stops what it started. */
static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int parse_seconds(const char *opt, const char *value, int *ret_ms)
{
	long v;

	if (!value) {
		command_usage_error("lab", "lab: %s needs a value", opt);
		return -EINVAL;
	}
	if (number_parse_long(value, 1, INT_MAX / 1000, &v) < 0) {
		command_usage_error("lab", "lab: %s '%s': not a number of seconds", opt, value);
		return -EINVAL;
	}
	*ret_ms = (int)v * 1000;
	return 0;
}

__attribute__((format(printf, 1, 2)))
static int usage_error(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	command_usage_error("lab", "%s", strbuf_str(&sb));
	strbuf_release(&sb);
	return EXIT_USAGE;
}

static int run_builder(const char *dir, bool force, bool up)
{
	char *builder = NULL;
	int r = 0, code = 0;

	r = lab_builder_find(NULL, &builder);
	if (r < 0) {
		log_error("lab: cannot find lab/build.sh next to the binary; set BOOTAB_LAB_SOURCE "
			  "to the lab/ directory of bootab's source");
		return EXIT_USAGE;
	}
	/*
	 * A box: the lab's build first (its own --force is the box's), then the
	 * box's copy of it. up takes the lab as built when it is: boxes coming
	 * up at once would each run the builder, which builds one at a time.
	 */
	if (!box_name || !up || !lab_is_built(base_dir))
		r = lab_build(box_name ? base_dir : dir, builder, guest, box_name ? false : force, &code);
	if (r == 0 && code == 0 && !interrupted && box_name)
		r = lab_box_make(base_dir, box_name, builder, force, &code);
	if (r < 0) {
		log_error("lab: cannot run bash '%s': %s", builder, errno_string(r));
		free(builder);
		return EXIT_USAGE;
	}
	free(builder);
	if (interrupted)
		return 128 + SIGINT;
	if (code != 0) {
		log_error("lab: building the lab in '%s' failed (exit %d)", dir, code);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* Why a boot stopped is on its console: the last lines, then where the rest is. */
static void print_serial_tail(const char *dir)
{
	char **lines = NULL;

	if (lab_serial_tail(dir, SERIAL_TAIL_LINES, &lines) == 0 && lines[0]) {
		log_error("lab: the last lines of the serial console:");
		for (char **l = lines; *l; l++)
			log_error("  | %s", *l);
	} else {
		log_error("lab: the serial console printed nothing");
	}
	strv_free(lines);
	log_error("lab: the whole console log is '%s/run/serial.log'", dir);
}

static void print_destination(const char *dir)
{
	char *config = lab_ssh_config_path(dir), *host = lab_ssh_host(dir);

	printf("ssh -F %s %s\n", config, host);
	free(host);
	free(config);
}

static int lab_build_cmd(const char *dir, int argc, char **argv)
{
	bool force = false;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--force"))
			force = true;
		else
			return usage_error("lab build: unknown argument '%s'", argv[i]);
	}
	return run_builder(dir, force, false);
}

static int stop_quietly(const char *dir)
{
	bool was_running;
	int r = lab_stop(dir, STOP_TIMEOUT_S * 1000, &was_running);

	if (r < 0)
		log_error("lab: cannot stop QEMU: %s", errno_string(r));
	return r;
}

static int lab_up(const char *dir, int argc, char **argv)
{
	struct lab_status st;
	char *err = NULL, *boot_id = NULL, *halt = NULL;
	int timeout_ms = (guest == LAB_GUEST_DEBIAN ? DEFAULT_TIMEOUT_DEBIAN_S : DEFAULT_TIMEOUT_S) * 1000;
	int code, r;
	unsigned flags = 0;
	long long t0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--smt")) {
			flags |= LAB_SMT;
		} else if (!strcmp(argv[i], "--timeout")) {
			if (parse_seconds("--timeout", argv[i + 1], &timeout_ms) < 0)
				return EXIT_USAGE;
			i++;
		} else {
			return usage_error("lab up: unknown argument '%s'", argv[i]);
		}
	}
	catch_signals();
	lab_status_read(dir, &st);
	if (st.running) {
		log_info("lab: already running (pid %d, port %d)", (int)st.pid, st.port);
		print_destination(dir);
		return EXIT_OK;
	}
	code = run_builder(dir, false, true);
	if (code != EXIT_OK)
		return code;

	t0 = now_ms();
	r = lab_start(dir, flags, &st, &err);
	if (r < 0) {
		if (err && *err) {
			size_t n = strlen(err);

			while (n && err[n - 1] == '\n')
				err[--n] = '\0';
			log_error("lab: QEMU did not start: %s", err);
		} else {
			log_error("lab: QEMU did not start: %s", errno_string(r));
		}
		free(err);
		return EXIT_USAGE;
	}
	if (interrupted) {
		stop_quietly(dir);
		return 128 + SIGINT;
	}
	log_info("lab: QEMU started (pid %d, SSH on 127.0.0.1:%d), waiting for the guest",
		 (int)st.pid, st.port);
	r = lab_wait_ready(dir, NULL, timeout_ms, &interrupted, &boot_id, &halt);
	if (r < 0) {
		if (r == -ECANCELED)
			log_error("lab: interrupted, stopping QEMU");
		else if (r == -EPIPE)
			log_error("lab: the guest's boot stopped after %.0f s: its console shows \"%s\" "
				  "and has printed nothing for 20 s", (double)(now_ms() - t0) / 1000.0, halt);
		else if (r == -ESRCH)
			log_error("lab: QEMU exited while the guest booted");
		else
			log_error("lab: the guest did not answer over SSH within %d s", timeout_ms / 1000);
		free(halt);
		if (r != -ECANCELED)
			print_serial_tail(dir);
		stop_quietly(dir);
		return r == -ECANCELED ? 128 + SIGINT : EXIT_NOTHING;
	}
	log_info("lab: up in %.1f s, boot_id %s", (double)(now_ms() - t0) / 1000.0, boot_id);
	free(boot_id);
	print_destination(dir);
	return EXIT_OK;
}

static int lab_down(const char *dir, int argc, char **argv)
{
	int timeout_ms = STOP_TIMEOUT_S * 1000, r;
	bool was_running;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--timeout")) {
			if (parse_seconds("--timeout", argv[i + 1], &timeout_ms) < 0)
				return EXIT_USAGE;
			i++;
		} else {
			return usage_error("lab down: unknown argument '%s'", argv[i]);
		}
	}
	r = lab_stop(dir, timeout_ms, &was_running);
	if (r < 0) {
		log_error("lab: cannot stop QEMU: %s", errno_string(r));
		return EXIT_USAGE;
	}
	log_info(was_running ? "lab: stopped" : "lab: was not running");
	return EXIT_OK;
}

static int lab_status_cmd(const char *dir, int argc, char **argv)
{
	struct lab_status st;
	char *boot_id = NULL, *config, *host;
	bool json = false;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else
			return usage_error("lab status: unknown argument '%s'", argv[i]);
	}
	lab_status_read(dir, &st);
	if (st.running && lab_boot_id(dir, 10000, &boot_id) < 0)
		boot_id = NULL;
	config = lab_ssh_config_path(dir);
	host = lab_ssh_host(dir);
	if (json) {
		json_t *o = json_object();

		json_object_set_new(o, "running", json_boolean(st.running));
		json_object_set_new(o, "dir", json_string(dir));
		if (st.running) {
			json_object_set_new(o, "pid", json_integer(st.pid));
			json_object_set_new(o, "port", json_integer(st.port));
			json_object_set_new(o, "ssh_config", json_string(config));
			json_object_set_new(o, "ssh_host", json_string(host));
			json_object_set_new(o, "boot_id", boot_id ? json_string(boot_id) : json_null());
		}
		json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
		json_decref(o);
	} else if (st.running) {
		printf("running: yes\npid: %d\nport: %d\nssh: ssh -F %s %s\nboot_id: %s\n",
		       (int)st.pid, st.port, config, host,
		       boot_id ? boot_id : "(no answer over SSH)");
	} else {
		printf("running: no\n");
	}
	free(host);
	free(config);
	free(boot_id);
	return st.running ? EXIT_OK : EXIT_NOTHING;
}

static int require_running(const char *dir)
{
	struct lab_status st;

	lab_status_read(dir, &st);
	if (!st.running) {
		if (box_name)
			log_error("lab: box %s is not running in '%s' ('bootab lab --name %s up' starts it)", box_name, dir,
				  box_name);
		else
			log_error("lab: not running in '%s' ('bootab lab up' starts it)", dir);
		return EXIT_NOTHING;
	}
	return EXIT_OK;
}

static int lab_ssh(const char *dir, int argc, char **argv)
{
	char *config = lab_ssh_config_path(dir), *host;
	const char **args;
	int code = require_running(dir), n = 0;

	if (code != EXIT_OK) {
		free(config);
		return code;
	}
	host = lab_ssh_host(dir);
	/* ssh joins the words after the host into one remote shell line,
	 * exactly as a user typing `ssh host CMD...` expects. */
	args = xcalloc((size_t)argc + 5, sizeof(*args));
	args[n++] = "ssh";
	args[n++] = "-F";
	args[n++] = config;
	args[n++] = host;
	for (int i = 1; i < argc; i++)
		args[n++] = argv[i];
	args[n] = NULL;
	fflush(NULL);
	execvp("ssh", (char *const *)args);
	log_error("lab: cannot run ssh: %s", strerror(errno));
	free(args);
	free(host);
	free(config);
	return EXIT_USAGE;
}

static int lab_power_cycle_cmd(const char *dir, int argc, char **argv)
{
	int code, r;

	if (argc > 1)
		return usage_error("lab power-cycle: unknown argument '%s'", argv[1]);
	code = require_running(dir);
	if (code != EXIT_OK)
		return code;
	r = lab_power_cycle(dir);
	if (r < 0) {
		log_error("lab: system_reset through '%s/run/monitor.sock' failed: %s", dir,
			  errno_string(r));
		return EXIT_USAGE;
	}
	log_info("lab: reset");
	return EXIT_OK;
}

static int lab_wait(const char *dir, int argc, char **argv)
{
	const char *since = NULL;
	char *boot_id = NULL;
	int timeout_ms = (guest == LAB_GUEST_DEBIAN ? DEFAULT_TIMEOUT_DEBIAN_S : DEFAULT_TIMEOUT_S) * 1000;
	int code, r;
	long long t0 = now_ms();

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--timeout")) {
			if (parse_seconds("--timeout", argv[i + 1], &timeout_ms) < 0)
				return EXIT_USAGE;
			i++;
		} else if (!strcmp(argv[i], "--since")) {
			since = argv[++i];
			if (!since)
				return usage_error("lab wait: %s needs a boot_id", "--since");
		} else {
			return usage_error("lab wait: unknown argument '%s'", argv[i]);
		}
	}
	code = require_running(dir);
	if (code != EXIT_OK)
		return code;
	catch_signals();
	r = lab_wait_ready(dir, since, timeout_ms, &interrupted, &boot_id, NULL);
	if (r < 0) {
		if (r == -ECANCELED)
			return 128 + SIGINT;
		if (r == -ESRCH)
			log_error("lab: QEMU is not running any more");
		else
			log_error("lab: no new boot_id within %d s", timeout_ms / 1000);
		return EXIT_NOTHING;
	}
	log_info("lab: boot_id after %.1f s", (double)(now_ms() - t0) / 1000.0);
	printf("%s\n", boot_id);
	free(boot_id);
	return EXIT_OK;
}

static int lab_path_cmd(const char *dir, int argc, char **argv)
{
	if (argc > 1)
		return usage_error("lab path: unknown argument '%s'", argv[1]);
	printf("%s\n", dir);
	return EXIT_OK;
}

/* The subcommands, each run with the lab directory and its own argv (argv[0] its name). */
static const struct lab_subcommand {
	const char *name;
	int (*run)(const char *dir, int argc, char **argv);
} lab_subcommands[] = {
	{ "build", lab_build_cmd },
	{ "down", lab_down },
	{ "path", lab_path_cmd },
	{ "power-cycle", lab_power_cycle_cmd },
	{ "ssh", lab_ssh },
	{ "status", lab_status_cmd },
	{ "up", lab_up },
	{ "wait", lab_wait },
};

static const struct lab_subcommand *lab_subcommand_find(const char *name)
{
	for (size_t i = 0; i < sizeof(lab_subcommands) / sizeof(lab_subcommands[0]); i++)
		if (!strcmp(lab_subcommands[i].name, name))
			return &lab_subcommands[i];
	return NULL;
}

static int cmd_lab(int argc, char **argv)
{
	const struct lab_subcommand *sub;
	char *dir = NULL;
	int r, code;

	/* --guest NAME and --name NAME, each before the subcommand or right after it. */
	for (bool again = true; again;) {
		again = false;
		for (int at = 1; at <= 2 && at < argc; at++) {
			bool is_guest = !strcmp(argv[at], "--guest");

			if (!is_guest && strcmp(argv[at], "--name"))
				continue;
			if (is_guest && (at + 1 >= argc || lab_guest_parse(argv[at + 1], &guest) < 0))
				return usage_error("lab: --guest wants busybox or debian, not '%s'",
						   at + 1 < argc ? argv[at + 1] : "");
			if (!is_guest && (at + 1 >= argc || !lab_box_name_valid(argv[at + 1])))
				return usage_error("lab: --name wants 1 to %d of a-z 0-9 - (not starting with -), not '%s'",
						   LAB_BOX_NAME_MAX, at + 1 < argc ? argv[at + 1] : "");
			if (is_guest)
				guest_given = true;
			else
				box_name = argv[at + 1];
			memmove(argv + at, argv + at + 2, (size_t)(argc - at - 2) * sizeof(*argv));
			argc -= 2;
			argv[argc] = NULL;
			again = true;
			break;
		}
	}
	if (argc < 2)
		return usage_error("lab: %s", "missing subcommand");
	if (box_name && guest_given && guest == LAB_GUEST_DEBIAN)
		return usage_error("lab: --name boxes are busybox guests (the Debian guest keeps its machine-id on its root file system)");
	r = lab_dir_resolve_guest(guest, &dir);
	if (r < 0) {
		log_error("lab: set BOOTAB_LAB_DIR or HOME to place the lab directory");
		return EXIT_USAGE;
	}
	if (box_name) {
		base_dir = dir;
		dir = lab_box_dir(base_dir, box_name);
		if (lab_guest_read(base_dir) == LAB_GUEST_DEBIAN) {
			log_error("lab: '%s' holds the Debian guest; --name boxes are busybox guests", base_dir);
			free(dir);
			free(base_dir);
			return EXIT_USAGE;
		}
	}
	if (!guest_given)
		guest = lab_guest_read(dir);
	sub = lab_subcommand_find(argv[1]);
	code = sub ? sub->run(dir, argc - 1, argv + 1) : usage_error("lab: unknown subcommand '%s'", argv[1]);
	free(dir);
	free(base_dir);
	base_dir = NULL;
	return code;
}

const struct command cmd_lab_entry = {
	.name = "lab",
	.run = cmd_lab,
	.summary = "build, start, stop and reach the QEMU lab target",
	.usage = cmd_lab_usage,
};
