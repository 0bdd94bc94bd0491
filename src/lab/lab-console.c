/*
 * The guest's serial console as QEMU logs it (run/serial.log): the ready
 * marker, the lines that show a stopped boot, and its last lines.
 */

#include "lab/lab-internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/alloc.h"
#include "lib/strbuf.h"

static char *console_line(const char *s, size_t len);
static int read_tail(const char *path, size_t max, char **ret_data, size_t *ret_len);

/*
 * Whether the serial log grew a LAB_READY_MARKER line past *offset; moves
 * *offset to the last complete line read.
 */
bool lab_serial_marker_seen(const char *dir, off_t *offset)
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
bool lab_console_stopped(const char *log, off_t from, off_t size, char **ret_halt)
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
