#include "lab/lab.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/alloc.h"
#include "lib/parse-number.h"
#include "lib/file.h"
#include "lib/process.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"

extern char **environ;

#define OVMF_CODE "/usr/share/OVMF/OVMF_CODE_4M.fd"
#define QEMU_BINARY "qemu-system-x86_64"
/* How long QEMU's daemonizing parent may take to set the machine up. */
#define QEMU_START_TIMEOUT_MS 60000
#define MONITOR_TIMEOUT_MS 5000
#define SSH_ATTEMPT_TIMEOUT_MS 12000
#define SSH_RETRY_MS 10000
#define SSH_RETRY_AFTER_MARKER_MS 1000
/* A console that shows a stopped boot and stays silent this long has stopped. */
#define HALT_QUIET_MS 20000

static char *console_line(const char *s, size_t len);
static int read_tail(const char *path, size_t max, char **ret_data, size_t *ret_len);

static const char *const built_files[] = {
	"vmlinuz", "initrd", "esp.img", "vars.fd", "data.img", "stamp",
	"keys/id_ed25519", "known_hosts", NULL,
};

static const char *const built_files_debian[] = {
	"disk.img", "vars.fd", "data.img", "stamp", "guest", "keys/id_ed25519", "known_hosts", NULL,
};

/* Files in run/ that only mean something while QEMU runs. */
static const char *const run_files[] = {
	"qemu.pid", "monitor.sock", "qmp.sock", "gdb.sock", "serial.sock", "ssh_config", "port", "started", NULL,
};

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	/* An interrupting signal ends the nap early; callers re-check. */
	nanosleep(&ts, NULL);
}

static char *run_path(const char *dir, const char *name)
{
	return xasprintf("%s/run/%s", dir, name);
}

int lab_guest_parse(const char *name, enum lab_guest *ret)
{
	if (!strcmp(name, "busybox"))
		*ret = LAB_GUEST_BUSYBOX;
	else if (!strcmp(name, "debian"))
		*ret = LAB_GUEST_DEBIAN;
	else
		return -EINVAL;
	return 0;
}

enum lab_guest lab_guest_read(const char *dir)
{
	char *p = path_join(dir, "guest"), *data = NULL;
	size_t len = 0;
	enum lab_guest g = LAB_GUEST_BUSYBOX;

	if (file_read(p, 64, &data, &len) == 0 && len >= 6 && !strncmp(data, "debian", 6) &&
	    (len == 6 || data[6] == '\n'))
		g = LAB_GUEST_DEBIAN;
	free(data);
	free(p);
	return g;
}

int lab_dir_resolve_guest(enum lab_guest guest, char **ret_dir)
{
	const char *v = getenv("BOOTAB_LAB_DIR");
	const char *name = guest == LAB_GUEST_DEBIAN ? "lab-debian" : "lab";

	if (v && *v) {
		*ret_dir = xstrdup(v);
		return 0;
	}
	v = getenv("XDG_CACHE_HOME");
	if (v && *v) {
		*ret_dir = xasprintf("%s/bootab/%s", v, name);
		return 0;
	}
	v = getenv("HOME");
	if (v && *v) {
		*ret_dir = xasprintf("%s/.cache/bootab/%s", v, name);
		return 0;
	}
	return -ENOENT;
}

int lab_dir_resolve(char **ret_dir)
{
	return lab_dir_resolve_guest(LAB_GUEST_BUSYBOX, ret_dir);
}

char *lab_ssh_config_path(const char *dir)
{
	return run_path(dir, "ssh_config");
}

static bool is_regular_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int lab_builder_find(const char *exe, char **ret_path)
{
	static const char *const relative[] = {
		"../lab/build.sh", "lab/build.sh", "../share/bootab/lab/build.sh", NULL,
	};
	const char *source = getenv("BOOTAB_LAB_SOURCE");
	char resolved[PATH_MAX], *slash;

	if (source && *source) {
		char *p = path_join(source, "build.sh");

		if (!is_regular_file(p)) {
			free(p);
			return -ENOENT;
		}
		*ret_path = p;
		return 0;
	}
	if (!realpath(exe ? exe : "/proc/self/exe", resolved))
		return -errno;
	slash = strrchr(resolved, '/');
	if (!slash)
		return -ENOENT;
	*slash = '\0';
	for (size_t i = 0; relative[i]; i++) {
		char *p = path_join(resolved, relative[i]), canonical[PATH_MAX];

		if (is_regular_file(p) && realpath(p, canonical)) {
			free(p);
			*ret_path = xstrdup(canonical);
			return 0;
		}
		free(p);
	}
	return -ENOENT;
}

/* The script next to the builder: build-debian.sh, box.sh. */
static char *sibling_script(const char *builder, const char *name)
{
	const char *slash = strrchr(builder, '/');

	return slash ? xasprintf("%.*s/%s", (int)(slash - builder), builder, name) : xstrdup(name);
}

/*
 * Runs bash script [--force] in this process group with our environment,
 * but for the BOOTAB_LAB_* variables, which come from extra (NULL-ended
 * "NAME=VALUE" strings).
 */
static int run_lab_script(const char *script, bool force, const char *const *extra, int *ret_exit)
{
	const char *argv[] = { "bash", script, force ? "--force" : NULL, NULL };
	const char **envp;
	size_t n = 0, k = 0, m = 0;
	pid_t pid;
	int status, r;

	while (environ[n])
		n++;
	while (extra[m])
		m++;
	envp = xcalloc(n + m + 1, sizeof(*envp));
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "BOOTAB_LAB_DIR=", 15) && strncmp(environ[i], "BOOTAB_LAB_BOOTAB=", 18) &&
		    strncmp(environ[i], "BOOTAB_LAB_BOX", 14) && strncmp(environ[i], "BOOTAB_LAB_RUNNING=", 19))
			envp[k++] = environ[i];
	for (size_t i = 0; i < m; i++)
		envp[k++] = extra[i];
	envp[k] = NULL;
	/* posix_spawn keeps the child in our process group: Ctrl-C ends both. */
	r = posix_spawnp(&pid, "bash", NULL, NULL, (char *const *)argv, (char *const *)envp);
	free(envp);
	if (r)
		return -r;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status))
		*ret_exit = WEXITSTATUS(status);
	else
		*ret_exit = 128 + WTERMSIG(status);
	return 0;
}

int lab_build(const char *dir, const char *builder, enum lab_guest guest, bool force, int *ret_exit)
{
	char *script = guest == LAB_GUEST_DEBIAN ? sibling_script(builder, "build-debian.sh") : xstrdup(builder);
	char *lab = xasprintf("BOOTAB_LAB_DIR=%s", dir), *self = NULL, exe[PATH_MAX];
	const char *extra[3] = { lab, NULL, NULL };
	int r;

	/* The Debian guest carries this very binary (target = local inside it). */
	if (realpath("/proc/self/exe", exe)) {
		self = xasprintf("BOOTAB_LAB_BOOTAB=%s", exe);
		extra[1] = self;
	}
	r = run_lab_script(script, force, extra, ret_exit);
	free(self);
	free(lab);
	free(script);
	return r;
}

bool lab_box_name_valid(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > LAB_BOX_NAME_MAX || name[0] == '-')
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= '0' && name[i] <= '9') || name[i] == '-'))
			return false;
	return true;
}

char *lab_box_dir(const char *lab_dir, const char *name)
{
	return xasprintf("%s/boxes/%s", lab_dir, name);
}

int lab_box_make(const char *lab_dir, const char *name, const char *builder, bool force, int *ret_exit)
{
	char *script = sibling_script(builder, "box.sh"), *box = lab_box_dir(lab_dir, name);
	char *lab = xasprintf("BOOTAB_LAB_DIR=%s", lab_dir), *box_env = xasprintf("BOOTAB_LAB_BOX=%s", box);
	char *name_env = xasprintf("BOOTAB_LAB_BOX_NAME=%s", name);
	struct lab_status st;
	const char *extra[5] = { lab, box_env, name_env, NULL, NULL };
	int r;

	lab_status_read(lab_dir, &st);
	if (st.running)
		extra[3] = "BOOTAB_LAB_RUNNING=1";
	r = run_lab_script(script, force, extra, ret_exit);
	free(name_env);
	free(box_env);
	free(lab);
	free(box);
	free(script);
	return r;
}

char *lab_ssh_host(const char *dir)
{
	char *p = path_join(dir, "name"), *data = NULL, *host;
	size_t len = 0;

	if (file_read(p, 64, &data, &len) == 0 && len > 1 && data[len - 1] == '\n') {
		data[len - 1] = '\0';
		if (lab_box_name_valid(data)) {
			host = xasprintf("%s-%s", LAB_SSH_HOST, data);
			free(data);
			free(p);
			return host;
		}
	}
	free(data);
	free(p);
	return xstrdup(LAB_SSH_HOST);
}

bool lab_is_built(const char *dir)
{
	const char *const *files = lab_guest_read(dir) == LAB_GUEST_DEBIAN ? built_files_debian : built_files;

	for (size_t i = 0; files[i]; i++) {
		char *p = path_join(dir, files[i]);
		bool ok = path_exists(p);

		free(p);
		if (!ok)
			return false;
	}
	return true;
}

bool lab_cmdline_is_ours(const char *cmdline, size_t len, const char *run_dir)
{
	const char *end = cmdline + len, *arg = cmdline, *base;
	char *pidfile;
	bool prev_pidfile = false, found = false;

	if (len == 0 || cmdline[len - 1] != '\0')
		return false;
	base = strrchr(arg, '/');
	base = base ? base + 1 : arg;
	if (strncmp(base, "qemu-system-", 12))
		return false;
	pidfile = xasprintf("%s/qemu.pid", run_dir);
	for (; arg < end; arg += strlen(arg) + 1) {
		if (prev_pidfile && !strcmp(arg, pidfile)) {
			found = true;
			break;
		}
		prev_pidfile = !strcmp(arg, "-pidfile");
	}
	free(pidfile);
	return found;
}

/* Whether pid is alive and is the QEMU this lab started (a zombie is not). */
static bool pid_is_ours(pid_t pid, const char *dir)
{
	char path[64], *data = NULL, *run;
	size_t len = 0;
	bool ours;

	if (pid <= 0)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	if (file_read(path, 1 << 20, &data, &len) < 0)
		return false;
	run = path_join(dir, "run");
	ours = lab_cmdline_is_ours(data, len, run);
	free(run);
	free(data);
	return ours;
}

/* A positive decimal number from a small file; 0 when absent or malformed. */
static long read_number_file(const char *path)
{
	char *data = NULL;
	const char *end;
	size_t len;
	long v;

	if (file_read(path, 64, &data, &len) < 0)
		return 0;
	if (number_scan_long(data, 10, 1, INT_MAX, &v, &end) < 0 || (*end && *end != '\n'))
		v = 0;
	free(data);
	return v;
}

int lab_status_read(const char *dir, struct lab_status *ret)
{
	char *pidfile = run_path(dir, "qemu.pid"), *portfile = run_path(dir, "port");
	struct lab_status st = { 0 };

	st.pid = (pid_t)read_number_file(pidfile);
	st.port = (int)read_number_file(portfile);
	st.running = pid_is_ours(st.pid, dir);
	free(pidfile);
	free(portfile);
	*ret = st;
	return 0;
}

char *lab_ssh_config_format(const char *dir, int port)
{
	struct strbuf sb = STRBUF_INIT;
	char *host = lab_ssh_host(dir);

	/*
	 * -F with this file replaces ~/.ssh/config and /etc/ssh/ssh_config, so
	 * the block says everything: the lab's own key and known_hosts, under
	 * an alias that does not depend on the random port (a named box's
	 * guest has the lab's host key: the same alias checks it).
	 */
	strbuf_addf(&sb,
		    "# Written by 'bootab lab up'; valid while the lab runs.\n"
		    "Host %s\n"
		    "\tHostName 127.0.0.1\n"
		    "\tPort %d\n"
		    "\tUser root\n"
		    "\tIdentityFile \"%s/keys/id_ed25519\"\n"
		    "\tIdentitiesOnly yes\n"
		    "\tUserKnownHostsFile \"%s/known_hosts\"\n"
		    "\tGlobalKnownHostsFile /dev/null\n"
		    "\tHostKeyAlias %s\n"
		    "\tStrictHostKeyChecking yes\n"
		    "\tBatchMode yes\n"
		    "\tConnectTimeout 5\n"
		    "\tLogLevel ERROR\n",
		    host, port, dir, dir, LAB_SSH_HOST);
	free(host);
	return strbuf_detach(&sb, NULL);
}

/* A free TCP port on 127.0.0.1, as the kernel hands it out for port 0. */
static int free_loopback_port(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);
	int fd, port;

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    getsockname(fd, (struct sockaddr *)&sa, &len) < 0) {
		port = -errno;
		close(fd);
		return port;
	}
	port = ntohs(sa.sin_port);
	close(fd);
	return port;
}

/* QEMU's option syntax: a comma inside a value is written twice. */
static char *qemu_escape(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	for (; *s; s++) {
		strbuf_addch(&sb, *s);
		if (*s == ',')
			strbuf_addch(&sb, ',');
	}
	return strbuf_detach(&sb, NULL);
}

static void qemu_argv(struct strvec *a, const char *dir, int port, unsigned flags)
{
	char *d = qemu_escape(dir), *host = lab_ssh_host(dir);
	static const char *const fixed[] = {
		QEMU_BINARY,
		/* /dev/kvm does not work on every host (nested, no MSR
		 * access): TCG is slower but always there. kernel-irqchip=split
		 * is what intel-iommu's interrupt remapping needs. */
		"-machine", "q35,accel=tcg,kernel-irqchip=split",
		"-m", "1024",
		/* Before the PCI devices, so they sit behind it. */
		"-device", "intel-iommu,intremap=on",
		"-drive", "if=pflash,format=raw,unit=0,readonly=on,file=" OVMF_CODE,
		NULL,
	};

	for (size_t i = 0; fixed[i]; i++) {
		strvec_push(a, fixed[i]);
		if (i == 0) {
			strvec_push(a, "-name");
			strvec_push(a, host);
		}
	}
	/* TCG's "max" CPU is an AMD one, and an AMD CPU shows SMT siblings
	 * only with the topology extensions, which TCG lacks: with SMT the
	 * guest gets the same CPU under Intel's vendor string, whose SMT the
	 * kernel reads from the CPUID topology leaves QEMU fills from -smp. */
	strvec_push(a, "-cpu");
	strvec_push(a, flags & LAB_SMT ? "max,vendor=GenuineIntel" : "max");
	strvec_push(a, "-smp");
	strvec_push(a, flags & LAB_SMT ? "2,sockets=1,cores=1,threads=2" : "2");
	strvec_push(a, "-drive");
	strvec_pushf(a, "if=pflash,format=raw,unit=1,file=%s/vars.fd", d);
	if (lab_guest_read(dir) == LAB_GUEST_DEBIAN) {
		/* One GPT disk: the ESP with GRUB, the ext4 root. */
		strvec_push(a, "-drive");
		strvec_pushf(a, "if=none,id=disk,format=raw,file=%s/disk.img", d);
		strvec_push(a, "-device");
		strvec_push(a, "virtio-blk-pci,drive=disk,serial=bootab-disk,bootindex=0");
	} else {
		strvec_push(a, "-drive");
		strvec_pushf(a, "if=none,id=esp,format=raw,file=%s/esp.img", d);
		strvec_push(a, "-device");
		strvec_push(a, "virtio-blk-pci,drive=esp,serial=bootab-esp,bootindex=0");
	}
	/* The DMA-path disk: only a virtio device with iommu_platform=on has
	 * its DMA translated by the emulated IOMMU. */
	strvec_push(a, "-drive");
	strvec_pushf(a, "if=none,id=data,format=raw,file=%s/data.img,cache=none,aio=native", d);
	strvec_push(a, "-device");
	strvec_push(a, "virtio-blk-pci,drive=data,serial=bootab-data,"
		       "iommu_platform=on,disable-legacy=on");
	strvec_push(a, "-netdev");
	strvec_pushf(a, "user,id=n0,hostfwd=tcp:127.0.0.1:%d-:22", port);
	/* romfile= : no option ROM, so OVMF does not try a network boot. */
	strvec_push(a, "-device");
	strvec_push(a, "virtio-net-pci,netdev=n0,romfile=,addr=03.0,multifunction=on");
	/* A second function beside the NIC (so in its IOMMU group, and the
	 * group count stays the same): a virtio RNG nothing else uses, which
	 * the guest hands to vfio-pci at boot. vfio needs an IOMMU group, so
	 * with intel_iommu=off its bind fails: a device one mode breaks. */
	strvec_push(a, "-device");
	strvec_push(a, "virtio-rng-pci,disable-legacy=on,addr=03.1");
	strvec_push(a, "-display");
	strvec_push(a, "none");
	strvec_push(a, "-vga");
	strvec_push(a, "none");
	/* Sockets by relative path (QEMU runs in run/): a unix socket path is
	 * limited to 107 bytes and lab directories can be longer. */
	strvec_push(a, "-chardev");
	strvec_pushf(a, "socket,id=serial0,path=serial.sock,server=on,wait=off,"
			"logfile=%s/run/serial.log,logappend=on", d);
	strvec_push(a, "-serial");
	strvec_push(a, "chardev:serial0");
	strvec_push(a, "-monitor");
	strvec_push(a, "unix:monitor.sock,server=on,wait=off");
	/* For the reset watcher (QMP's RESET event). */
	strvec_push(a, "-qmp");
	strvec_push(a, "unix:qmp.sock,server=on,wait=off");
	strvec_push(a, "-pidfile");
	strvec_pushf(a, "%s/run/qemu.pid", dir);
	strvec_push(a, "-daemonize");
	free(host);
	free(d);
}

static void remove_run_files(const char *dir)
{
	for (size_t i = 0; run_files[i]; i++) {
		char *p = run_path(dir, run_files[i]);

		unlink(p);
		free(p);
	}
}

/* Ends pid (only if it is our QEMU): SIGTERM, then SIGKILL. */
static int kill_ours(pid_t pid, const char *dir)
{
	static const int signals[] = { SIGTERM, SIGKILL };

	for (size_t s = 0; s < 2; s++) {
		if (!pid_is_ours(pid, dir))
			return 0;
		kill(pid, signals[s]);
		for (int i = 0; i < 50 && pid_is_ours(pid, dir); i++)
			sleep_ms(100);
	}
	return pid_is_ours(pid, dir) ? -EBUSY : 0;
}

static int write_text(const char *dir, const char *name, const char *text)
{
	char *p = run_path(dir, name);
	int r = file_write_atomic(p, text, strlen(text), 0600);

	free(p);
	return r;
}

/*
 * The reset watcher. QEMU 7.2's TCG keeps the code it translated for the
 * boot before a system reset: after a guest has run for a while, RAM holds
 * pages with many of those translations, and every store the firmware
 * makes into such a page takes TCG's self-modifying-code path, milliseconds
 * per byte. OVMF decompresses itself into low memory where the kernel ran,
 * so a reset after a long boot crawled for minutes in the firmware (a fresh
 * QEMU process reaches the boot loader in seconds). Nothing in QEMU's
 * monitor flushes that code, but a single step through its gdbstub does
 * (QEMU flushes every translation when single-stepping goes on). So a
 * process per QEMU waits for QMP's RESET event and then opens the gdbstub
 * on a socket in run/, steps one instruction, detaches and closes it. It
 * ends when QEMU does (QMP's socket closes), and logs each reset to
 * run/resets.
 */

static int watch_write_all(int fd, const char *s, size_t len)
{
	while (len) {
		ssize_t n = write(fd, s, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		s += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * Reads from fd into sb until sb holds needle past *from (then *from moves
 * past it), EOF or timeout_ms (-1: none).
 */
static int watch_read_until(int fd, struct strbuf *sb, size_t *from, const char *needle, int timeout_ms)
{
	long long deadline = timeout_ms < 0 ? 0 : now_ms() + timeout_ms;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		char *hit = sb->len > *from ? memmem(sb->buf + *from, sb->len - *from, needle, strlen(needle)) : NULL;
		char buf[4096];
		ssize_t n;
		int r;

		if (hit) {
			*from = (size_t)(hit - sb->buf) + strlen(needle);
			return 0;
		}
		if (timeout_ms >= 0 && now_ms() >= deadline)
			return -ETIMEDOUT;
		r = poll(&p, 1, timeout_ms < 0 ? -1 : (int)(deadline - now_ms()));
		if (r < 0 && errno != EINTR)
			return -errno;
		if (r <= 0)
			continue;
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -ECONNRESET;
		/* Only what is past *from is still looked at. */
		if (*from > 1 << 16) {
			memmove(sb->buf, sb->buf + *from, sb->len - *from);
			strbuf_truncate(sb, sb->len - *from);
			*from = 0;
		}
		strbuf_add(sb, buf, (size_t)n);
	}
}

static int watch_connect(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int r = -errno;

		close(fd);
		return r;
	}
	return fd;
}

/* An HMP command through QMP; waits for its return. */
static int watch_hmp(int qmp, struct strbuf *sb, size_t *from, const char *command)
{
	char *line = xasprintf("{\"execute\": \"human-monitor-command\", "
			       "\"arguments\": {\"command-line\": \"%s\"}}\n", command);
	int r = watch_write_all(qmp, line, strlen(line));

	free(line);
	return r < 0 ? r : watch_read_until(qmp, sb, from, "\"return\"", 10000);
}

/*
 * One gdbstub step: QEMU stops the machine when the debugger connects,
 * flushes its translations for the step, and lets the machine run again
 * at the detach. Returns 0 or -errno.
 */
static int watch_flush(const char *run, int qmp, struct strbuf *sb, size_t *from)
{
	char *sock = xasprintf("%s/gdb.sock", run), *cmd;
	struct strbuf g = STRBUF_INIT;
	size_t gfrom = 0;
	int r, fd = -1;

	if (strlen(sock) >= sizeof(((struct sockaddr_un *)0)->sun_path) || strchr(sock, ',') || strchr(sock, '"') ||
	    strchr(sock, '\\')) {
		free(sock);
		return -ENAMETOOLONG;
	}
	/* QEMU runs in / once daemonized: the socket by its full path. */
	unlink(sock);
	cmd = xasprintf("gdbserver unix:%s,server=on,wait=off", sock);
	r = watch_hmp(qmp, sb, from, cmd);
	free(cmd);
	if (r < 0)
		goto out;
	fd = watch_connect(sock);
	if (fd < 0) {
		r = fd;
		goto stop;
	}
	/* "s": step (the stop reply is a T packet); "D": detach. */
	r = watch_write_all(fd, "+$s#73", 6);
	if (r == 0)
		r = watch_read_until(fd, &g, &gfrom, "$T", 30000);
	if (r == 0)
		r = watch_write_all(fd, "+$D#44", 6);
	if (r == 0)
		r = watch_read_until(fd, &g, &gfrom, "$OK#9a", 10000);
	close(fd);
stop:
	{
		int r2 = watch_hmp(qmp, sb, from, "gdbserver none");

		if (r == 0)
			r = r2;
	}
out:
	unlink(sock);
	strbuf_release(&g);
	free(sock);
	return r;
}

static void watch_log(const char *run, const char *text)
{
	char *path = xasprintf("%s/resets", run);
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	struct timespec wall;
	char *line;

	free(path);
	if (fd < 0)
		return;
	clock_gettime(CLOCK_REALTIME, &wall);
	line = xasprintf("%lld.%03ld %s\n", (long long)wall.tv_sec, wall.tv_nsec / 1000000, text);
	watch_write_all(fd, line, strlen(line));
	free(line);
	close(fd);
}

/*
 * One flush at the RESET event is not always enough. On the Debian guest
 * (1 GiB, two vCPUs, after a boot of minutes) OVMF still crawled after it:
 * 100 s after a reset `info jit` counted 1.5 million translation blocks
 * and 4.8 million invalidations, and no line of the firmware had reached
 * the console; one more flush by hand and the boot manager printed its line
 * 10 s later. So after a reset the watcher flushes again every few seconds
 * until the kernel runs its init (the console's "Run /init as init
 * process"), for at most WATCH_PHASE_MS.
 *
 * A kexec reboot is no reset: QEMU sends no RESET event, yet the next
 * kernel is copied over the pages the previous one ran from and then
 * writes all of RAM, through the same self-modifying-code path (a kexec'd
 * 6.1 took 130 s from its first line to systemd, the same kernel after a
 * reset 24 s; one flush at the kexec left the next kernel 146 s from its
 * first line to init). The kernel logs "kexec_core: Starting new kernel" on
 * the console right before it jumps (kernel/kexec_core.c): the watcher
 * follows run/serial.log too, and from that line on flushes as after a
 * reset.
 */
#define WATCH_TICK_MS 250
#define WATCH_FLUSH_MS 3000
#define WATCH_PHASE_MS 300000

enum { CONSOLE_KEXEC = 1, CONSOLE_INIT = 2 };

static const struct {
	const char *text;
	unsigned event;
} console_marks[] = {
	{ "kexec_core: Starting new kernel", CONSOLE_KEXEC },
	{ " as init process", CONSOLE_INIT },
};

struct watch_serial {
	char *path;
	off_t offset;
	char tail[64];		/* the end of the last read: a line split between reads */
	size_t tail_len;
};

static void watch_serial_init(struct watch_serial *w, const char *run)
{
	struct stat st;

	w->path = xasprintf("%s/serial.log", run);
	/* What the console said before the watcher started is not news. */
	w->offset = stat(w->path, &st) == 0 ? st.st_size : 0;
	w->tail_len = 0;
}

/*
 * The console marks in buf[0, len) that end past its first skip bytes (the
 * carried tail, looked at already).
 */
static unsigned console_scan(const char *buf, size_t len, size_t skip)
{
	unsigned events = 0;

	for (size_t i = 0; i < sizeof(console_marks) / sizeof(console_marks[0]); i++) {
		size_t n = strlen(console_marks[i].text);
		const char *p = buf, *end = buf + len;

		while (p < end && (p = memmem(p, (size_t)(end - p), console_marks[i].text, n))) {
			if ((size_t)(p - buf) + n > skip) {
				events |= console_marks[i].event;
				break;
			}
			p++;
		}
	}
	return events;
}

/* The console events logged since the last call (CONSOLE_*). */
static unsigned watch_serial_events(struct watch_serial *w)
{
	int fd = open(w->path, O_RDONLY | O_CLOEXEC);
	unsigned events = 0;
	char buf[sizeof(w->tail) + 8192];

	if (fd < 0)
		return 0;
	for (;;) {
		size_t len;
		ssize_t n;

		memcpy(buf, w->tail, w->tail_len);
		n = pread(fd, buf + w->tail_len, sizeof(buf) - w->tail_len, w->offset);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		if (n == 0) {
			struct stat st;

			/* A log cut shorter (a new lab) is read from its start. */
			if (fstat(fd, &st) == 0 && st.st_size < w->offset) {
				w->offset = 0;
				w->tail_len = 0;
				continue;
			}
			break;
		}
		w->offset += n;
		len = w->tail_len + (size_t)n;
		events |= console_scan(buf, len, w->tail_len);
		w->tail_len = len < sizeof(w->tail) ? len : sizeof(w->tail);
		memcpy(w->tail, buf + len - w->tail_len, w->tail_len);
	}
	close(fd);
	return events;
}

static _Noreturn void watch_run(const char *run)
{
	char *qmp_path = xasprintf("%s/qmp.sock", run);
	struct strbuf sb = STRBUF_INIT;
	struct watch_serial serial;
	long long phase_since = 0, last_flush = 0;
	const char *phase = NULL;	/* "reset" or "kexec" until the kernel runs init */
	int flushes = 0;
	size_t from = 0;
	int qmp = -1;

	/* QEMU has made its sockets before its parent returned. */
	for (int i = 0; i < 50 && qmp < 0; i++) {
		qmp = watch_connect(qmp_path);
		if (qmp < 0)
			sleep_ms(100);
	}
	if (qmp < 0 || watch_read_until(qmp, &sb, &from, "\"QMP\"", 10000) < 0 ||
	    watch_write_all(qmp, "{\"execute\": \"qmp_capabilities\"}\n", 32) < 0 ||
	    watch_read_until(qmp, &sb, &from, "\"return\"", 10000) < 0) {
		watch_log(run, "watcher: no QMP connection; translations are not flushed after a reset");
		_exit(1);
	}
	{
		char *text = xasprintf("watcher %d: flushing the translations after each reset and kexec", (int)getpid());

		watch_log(run, text);
		free(text);
	}
	watch_serial_init(&serial, run);
	/* Until QEMU ends and closes the socket. */
	for (;;) {
		int r = watch_read_until(qmp, &sb, &from, "\"event\": \"RESET\"", WATCH_TICK_MS);
		unsigned events;

		if (r != 0 && r != -ETIMEDOUT)
			break;
		events = watch_serial_events(&serial);
		if (r == 0 || events & CONSOLE_KEXEC) {
			phase = r == 0 ? "reset" : "kexec";
			r = watch_flush(run, qmp, &sb, &from);
			{
				char *text = xasprintf("%s: translations %s", phase, r == 0 ? "flushed" : "not flushed (failed)");

				watch_log(run, text);
				free(text);
			}
			phase_since = now_ms();
			last_flush = phase_since;
			flushes = 0;
			continue;
		}
		if (!phase)
			continue;
		if (events & CONSOLE_INIT || now_ms() - phase_since > WATCH_PHASE_MS) {
			char *text = events & CONSOLE_INIT
					     ? xasprintf("%s: %d more flushes, init ran %.1f s after it", phase, flushes,
							 (double)(now_ms() - phase_since) / 1000)
					     : xasprintf("%s: %d more flushes, no init on the console within %d s", phase,
							 flushes, WATCH_PHASE_MS / 1000);

			watch_log(run, text);
			free(text);
			phase = NULL;
		} else if (now_ms() - last_flush >= WATCH_FLUSH_MS) {
			if (watch_flush(run, qmp, &sb, &from) == 0)
				flushes++;
			last_flush = now_ms();
		}
	}
	_exit(0);
}

/* Starts the reset watcher for the QEMU just started: detached, no descriptor of ours. */
static void watch_start(const char *dir)
{
	char *run = path_join(dir, "run");
	pid_t pid;

	if (run[0] != '/') {
		char cwd[PATH_MAX];
		char *abs;

		if (!getcwd(cwd, sizeof(cwd))) {
			free(run);
			return;
		}
		abs = xasprintf("%s/%s", cwd, run);
		free(run);
		run = abs;
	}
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);

		setsid();
		if (fork() != 0)
			_exit(0);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
			dup2(null, 2);
		}
		for (int fd = 3; fd < 1024; fd++)
			close(fd);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGPIPE, SIG_IGN);
		watch_run(run);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
	free(run);
}

int lab_start(const char *dir, unsigned flags, struct lab_status *ret, char **ret_err)
{
	struct lab_status st;
	char *run = NULL, *err_text = NULL;
	int r, port = 0;

	if (ret_err)
		*ret_err = NULL;
	r = lab_status_read(dir, &st);
	if (r < 0)
		return r;
	if (st.running)
		return -EALREADY;
	if (!lab_is_built(dir))
		return -ENOENT;
	run = path_join(dir, "run");
	r = dir_create_all(run, 0700);
	if (r < 0)
		goto out;
	remove_run_files(dir);
	{
		/* One log per QEMU process: a fresh start begins an empty one. */
		char *log = run_path(dir, "serial.log"), *resets = run_path(dir, "resets");

		unlink(log);
		unlink(resets);
		free(log);
		free(resets);
	}

	/* A port can be taken between our probe and QEMU's bind: retry. */
	for (int attempt = 0; attempt < 3; attempt++) {
		struct strvec a = STRVEC_INIT;
		struct process_options o = { .timeout_ms = QEMU_START_TIMEOUT_MS, .cwd = run };
		struct process_result res;
		char *config, *port_text, *started;
		struct timespec wall;

		port = free_loopback_port();
		if (port < 0) {
			r = port;
			goto out;
		}
		config = lab_ssh_config_format(dir, port);
		port_text = xasprintf("%d\n", port);
		clock_gettime(CLOCK_REALTIME, &wall);
		started = xasprintf("%lld.%03ld\n", (long long)wall.tv_sec, wall.tv_nsec / 1000000);
		r = write_text(dir, "ssh_config", config);
		if (r == 0)
			r = write_text(dir, "port", port_text);
		if (r == 0)
			r = write_text(dir, "started", started);
		free(config);
		free(port_text);
		free(started);
		if (r < 0)
			goto out;

		qemu_argv(&a, dir, port, flags);
		r = process_run(strvec_argv(&a), &o, &res);
		strvec_release(&a);
		if (r < 0)
			goto out;
		if (res.exit_code == 0 && !res.timed_out) {
			process_result_release(&res);
			r = 0;
			break;
		}
		{
			bool timed_out = res.timed_out;
			bool port_clash = !timed_out && strstr(res.err, "forward") != NULL;

			free(err_text);
			err_text = timed_out ? xstrdup("QEMU did not finish starting in time\n")
					     : xstrdup(res.err);
			r = timed_out ? -ETIMEDOUT : -EIO;
			process_result_release(&res);
			if (!port_clash)
				break;
		}
	}
	if (r < 0)
		goto out;
	r = lab_status_read(dir, &st);
	if (r == 0 && !st.running) {
		err_text = xstrdup("QEMU exited right after starting; see run/serial.log\n");
		r = -ESRCH;
	}
	if (r == 0) {
		watch_start(dir);
		*ret = st;
	}
out:
	if (r < 0) {
		/* Whatever got started under our pid file ends here. */
		lab_status_read(dir, &st);
		kill_ours(st.pid, dir);
		remove_run_files(dir);
		if (ret_err)
			*ret_err = err_text;
		else
			free(err_text);
		err_text = NULL;
	}
	free(err_text);
	free(run);
	return r;
}

static bool is_boot_id(const char *s, size_t len)
{
	/* /proc/sys/kernel/random/boot_id: a UUID, 8-4-4-4-12 lowercase hex. */
	if (len != 36)
		return false;
	for (size_t i = 0; i < len; i++) {
		bool dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash ? s[i] != '-' : !strchr("0123456789abcdef", s[i]))
			return false;
	}
	return true;
}

int lab_boot_id(const char *dir, int timeout_ms, char **ret_boot_id)
{
	char *config = lab_ssh_config_path(dir), *host = lab_ssh_host(dir);
	const char *argv[] = {
		"ssh", "-F", config, host, "cat /proc/sys/kernel/random/boot_id", NULL,
	};
	struct process_options o = { .timeout_ms = timeout_ms, .max_output = 4096 };
	struct process_result res;
	size_t len;
	int r;

	r = process_run(argv, &o, &res);
	free(config);
	free(host);
	if (r < 0)
		return r;
	len = res.out_len;
	while (len && (res.out[len - 1] == '\n' || res.out[len - 1] == '\r'))
		len--;
	if (res.exit_code != 0 || res.timed_out)
		r = -EHOSTUNREACH;
	else if (!is_boot_id(res.out, len))
		r = -EBADMSG;
	else
		*ret_boot_id = xstrndup(res.out, len);
	process_result_release(&res);
	return r;
}

/*
 * Whether the serial log grew a LAB_READY_MARKER line past *offset; moves
 * *offset to the last complete line read.
 */
static bool serial_marker_seen(const char *dir, off_t *offset)
{
	char *log = run_path(dir, "serial.log"), buf[65536];
	bool seen = false;
	int fd = open(log, O_RDONLY | O_CLOEXEC);

	free(log);
	if (fd < 0)
		return false;
	for (;;) {
		ssize_t n = pread(fd, buf, sizeof(buf) - 1, *offset);
		char *last_nl;

		if (n <= 0)
			break;
		buf[n] = '\0';
		last_nl = memrchr(buf, '\n', (size_t)n);
		if (!last_nl) {
			if ((size_t)n < sizeof(buf) - 1)
				break;
			/* A line longer than the buffer: skip it. */
			*offset += n;
			continue;
		}
		*last_nl = '\0';
		if (memmem(buf, (size_t)(last_nl - buf), LAB_READY_MARKER, strlen(LAB_READY_MARKER)))
			seen = true;
		*offset += last_nl - buf + 1;
	}
	close(fd);
	return seen;
}

/*
 * What a console shows when a boot stopped to wait for someone at the
 * keyboard: GRUB 2's menu once its default and fallback entries failed to
 * boot, its command line and rescue prompts, a kernel panic that does not
 * reboot (panic=0, the kernel's default), systemd's emergency shell and
 * sulogin's prompt. A boot_marks line after one means the machine went on
 * (the kernel's "Rebooting in N seconds" after a panic, a reset's firmware,
 * GRUB, a kernel starting).
 */
static const char *const halt_marks[] = {
	"Failed to boot both default and fallback entries",
	"grub> ",
	"grub rescue> ",
	"Kernel panic - not syncing",
	"You are in emergency mode",
	"Give root password for maintenance",
	NULL,
};
static const char *const boot_marks[] = {
	"Rebooting in ",
	"reboot: Restarting system",
	"BdsDxe: loading",
	"Welcome to GRUB",
	"Linux version ",
	NULL,
};

static bool line_has_mark(const char *line, const char *const *marks)
{
	for (const char *const *m = marks; *m; m++)
		if (strstr(line, *m))
			return true;
	return false;
}

char *lab_console_halted(const char *text, size_t len)
{
	char *halt = NULL;
	size_t start = 0;

	while (start < len) {
		const char *nl = memchr(text + start, '\n', len - start);
		size_t end = nl ? (size_t)(nl - text) : len;
		char *line = console_line(text + start, end - start);

		if (line_has_mark(line, halt_marks)) {
			/* The first line of a stop says most (the panic's reason). */
			if (!halt) {
				halt = line;
				line = NULL;
			}
		} else if (halt && line_has_mark(line, boot_marks)) {
			free(halt);
			halt = NULL;
		}
		free(line);
		start = end + 1;
	}
	if (halt) {
		size_t a = 0, b = strlen(halt);

		while (halt[a] == ' ' || halt[a] == '\t')
			a++;
		while (b > a && (halt[b - 1] == ' ' || halt[b - 1] == '\t'))
			b--;
		memmove(halt, halt + a, b - a);
		halt[b - a] = '\0';
	}
	return halt;
}

/*
 * Whether what the console printed past from (the log being size bytes
 * long) shows a stopped boot; sets *ret_halt to its line.
 */
static bool console_stopped(const char *log, off_t from, off_t size, char **ret_halt)
{
	char *data = NULL;
	size_t len = 0, skip = 0;
	bool stopped = false;

	if (size > from && read_tail(log, 64 * 1024, &data, &len) == 0) {
		if ((off_t)len > size - from)
			skip = len - (size_t)(size - from);
		*ret_halt = lab_console_halted(data + skip, len - skip);
		stopped = *ret_halt != NULL;
	}
	free(data);
	return stopped;
}

int lab_wait_ready(const char *dir, const char *not_boot_id, int timeout_ms,
		   const volatile sig_atomic_t *cancel, char **ret_boot_id, char **ret_halt)
{
	long long start = now_ms(), deadline = start + timeout_ms;
	long long next_ssh = start + SSH_RETRY_MS, grew = start;
	char *log = run_path(dir, "serial.log");
	off_t offset = 0, from, size = -1;
	bool marker = false, halt_checked = false;
	struct stat lst;
	int r;

	if (not_boot_id && stat(log, &lst) == 0)
		offset = lst.st_size;   /* only markers printed from now on count */
	from = offset;
	for (;;) {
		struct lab_status st;
		long long now = now_ms();

		if (cancel && *cancel) {
			r = -ECANCELED;
			break;
		}
		if (lab_status_read(dir, &st) < 0 || !st.running) {
			r = -ESRCH;
			break;
		}
		if (ret_halt && stat(log, &lst) == 0 && lst.st_size != size) {
			size = lst.st_size;
			grew = now;
			halt_checked = false;
		}
		if (ret_halt && !halt_checked && now - grew >= HALT_QUIET_MS) {
			halt_checked = true;
			if (console_stopped(log, from, size, ret_halt)) {
				r = -EPIPE;
				break;
			}
		}
		if (serial_marker_seen(dir, &offset)) {
			marker = true;
			next_ssh = now;
		}
		if (now >= next_ssh || now >= deadline) {
			long long left = deadline - now;
			char *boot_id = NULL;

			r = lab_boot_id(dir, left < SSH_ATTEMPT_TIMEOUT_MS && left > 1000
					? (int)left : SSH_ATTEMPT_TIMEOUT_MS, &boot_id);
			if (r == 0 && (!not_boot_id || strcmp(boot_id, not_boot_id))) {
				*ret_boot_id = boot_id;
				break;
			}
			free(boot_id);
			now = now_ms();
			next_ssh = now + (marker ? SSH_RETRY_AFTER_MARKER_MS : SSH_RETRY_MS);
		}
		if (now >= deadline) {
			r = -ETIMEDOUT;
			break;
		}
		sleep_ms(200);
	}
	free(log);
	return r;
}

/* Reads from fd until the buffer ends with the HMP prompt, EOF or timeout. */
static int monitor_read_prompt(int fd, struct strbuf *sb, bool eof_ok)
{
	static const char prompt[] = "(qemu) ";
	long long deadline = now_ms() + MONITOR_TIMEOUT_MS;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		long long left = deadline - now_ms();
		char buf[4096];
		ssize_t n;

		if (sb->len >= sizeof(prompt) - 1 &&
		    !memcmp(sb->buf + sb->len - (sizeof(prompt) - 1), prompt, sizeof(prompt) - 1))
			return 0;
		if (left <= 0)
			return -ETIMEDOUT;
		if (poll(&p, 1, (int)left) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		n = read(fd, buf, sizeof(buf));
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return eof_ok && errno == ECONNRESET ? 0 : -errno;
		}
		if (n == 0)
			return eof_ok ? 0 : -ECONNRESET;
		if (sb->len < 1 << 20)
			strbuf_add(sb, buf, (size_t)n);
	}
}

int lab_monitor_command(const char *dir, const char *command, char **ret_reply)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct strbuf sb = STRBUF_INIT;
	char *run = path_join(dir, "run"), *line = NULL;
	int dfd, fd = -1, r;
	size_t off = 0;

	if (strchr(command, '\n')) {
		free(run);
		return -EINVAL;
	}
	/*
	 * Through /proc/self/fd/N: sun_path holds 107 bytes, a lab directory
	 * can be longer.
	 */
	dfd = open(run, O_PATH | O_DIRECTORY | O_CLOEXEC);
	free(run);
	if (dfd < 0)
		return -errno;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "/proc/self/fd/%d/monitor.sock", dfd);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		r = -errno;
		goto out;
	}
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		r = -errno;
		goto out;
	}
	r = monitor_read_prompt(fd, &sb, false);
	if (r < 0)
		goto out;
	strbuf_release(&sb);
	line = xasprintf("%s\n", command);
	while (off < strlen(line)) {
		ssize_t n = write(fd, line + off, strlen(line) - off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			goto out;
		}
		off += (size_t)n;
	}
	/* "quit" closes the connection instead of prompting again. */
	r = monitor_read_prompt(fd, &sb, true);
	if (r < 0)
		goto out;
	if (ret_reply)
		*ret_reply = strbuf_detach(&sb, NULL);
out:
	strbuf_release(&sb);
	free(line);
	if (fd >= 0)
		close(fd);
	close(dfd);
	return r;
}

/* The last max bytes of path. */
static int read_tail(const char *path, size_t max, char **ret_data, size_t *ret_len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	off_t from;
	ssize_t n;
	char *buf;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		int r = -errno;

		close(fd);
		return r;
	}
	from = st.st_size > (off_t)max ? st.st_size - (off_t)max : 0;
	buf = xmalloc(max + 1);
	n = pread(fd, buf, max, from);
	close(fd);
	if (n < 0) {
		free(buf);
		return -EIO;
	}
	buf[n] = '\0';
	*ret_data = buf;
	*ret_len = (size_t)n;
	return 0;
}

/*
 * A console line without terminal control sequences (ESC [ ... final byte,
 * ESC + one byte) and CRs, a run of more than 8 spaces (a full-screen
 * menu's padding) cut to 8.
 */
static char *console_line(const char *s, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	size_t spaces = 0;

	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\x1b' && i + 1 < len && s[i + 1] == '[') {
			i += 2;
			while (i < len && !(s[i] >= 0x40 && s[i] <= 0x7e))
				i++;
			continue;
		}
		if (s[i] == '\x1b' && i + 1 < len && s[i + 1] >= 0x40 && s[i + 1] <= 0x5f) {
			i++;    /* a two-byte escape, ESC M (reverse line feed) and the like */
			continue;
		}
		if (s[i] == '\r')
			continue;
		spaces = s[i] == ' ' ? spaces + 1 : 0;
		if (spaces <= 8)
			strbuf_addch(&sb, s[i]);
	}
	return strbuf_detach(&sb, NULL);
}

int lab_serial_tail(const char *dir, size_t max_lines, char ***ret_lines)
{
	char *log = run_path(dir, "serial.log"), *data = NULL, **lines;
	size_t len = 0, n = 0, start, end;
	int r;

	/* The end of the log is what tells why a boot stopped. */
	r = read_tail(log, 64 * 1024, &data, &len);
	free(log);
	if (r < 0)
		return r;
	lines = xcalloc(max_lines + 1, sizeof(*lines));
	end = len;
	while (end > 0 && n < max_lines) {
		size_t e = end;

		while (e > 0 && (data[e - 1] == '\n' || data[e - 1] == '\r'))
			e--;
		start = e;
		while (start > 0 && data[start - 1] != '\n')
			start--;
		end = start;
		if (e > start) {
			char *line = console_line(data + start, e - start);

			if (!*line) {
				free(line);
				continue;
			}
			memmove(lines + 1, lines, n * sizeof(*lines));
			lines[0] = line;
			n++;
		}
	}
	free(data);
	*ret_lines = lines;
	return 0;
}

int lab_power_cycle(const char *dir)
{
	struct lab_status st;
	int r = lab_status_read(dir, &st);

	if (r < 0)
		return r;
	if (!st.running)
		return -ESRCH;
	return lab_monitor_command(dir, "system_reset", NULL);
}

int lab_stop(const char *dir, int timeout_ms, bool *ret_was_running)
{
	struct lab_status st;
	long long deadline = now_ms() + timeout_ms;
	int r = lab_status_read(dir, &st);

	if (r < 0)
		return r;
	if (!st.running) {
		remove_run_files(dir);
		*ret_was_running = false;
		return 0;
	}
	{
		/* The guest's page cache holds what bootab wrote to /boot. */
		char *config = lab_ssh_config_path(dir), *host = lab_ssh_host(dir);
		const char *argv[] = { "ssh", "-F", config, "-o", "ConnectTimeout=2",
				       host, "sync", NULL };
		struct process_options o = { .timeout_ms = 5000, .max_output = 4096 };
		struct process_result res;

		if (path_exists(config) && process_run(argv, &o, &res) == 0)
			process_result_release(&res);
		free(config);
		free(host);
	}
	lab_monitor_command(dir, "quit", NULL);
	while (pid_is_ours(st.pid, dir) && now_ms() < deadline)
		sleep_ms(100);
	r = kill_ours(st.pid, dir);
	if (r < 0)
		return r;
	remove_run_files(dir);
	*ret_was_running = true;
	return 0;
}
