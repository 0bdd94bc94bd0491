/*
 * Running the lab's guest: QEMU started with its devices and sockets,
 * its status, its monitor, a power cycle, and stopped.
 */

#include "lab/lab-internal.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
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

#define OVMF_CODE "/usr/share/OVMF/OVMF_CODE_4M.fd"
#define QEMU_BINARY "qemu-system-x86_64"
/* How long QEMU's daemonizing parent may take to set the machine up. */
#define QEMU_START_TIMEOUT_MS 60000
#define MONITOR_TIMEOUT_MS 5000

/* Files in run/ that only mean something while QEMU runs. */
static const char *const run_files[] = {
	"qemu.pid", "monitor.sock", "qmp.sock", "gdb.sock", "serial.sock", "ssh_config", "port", "started", NULL,
};

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
		lab_watch_start(dir);
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
