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

#include "lab/lab-internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/alloc.h"
#include "lib/file.h"
#include "lib/strbuf.h"

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
void lab_watch_start(const char *dir)
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
