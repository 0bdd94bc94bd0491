#include "campaign/journal.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/alloc.h"
#include "lib/file.h"
#include "lib/strbuf.h"

static int line_valid(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (iscntrl((unsigned char)s[i]) && s[i] != '\t')
			return 0;
	return 1;
}

int journal_read(const char *path, struct journal *ret, struct parse_error *err)
{
	struct journal j = { 0 };
	char *data;
	size_t len, pos = 0;
	unsigned line = 0;
	int r;

	r = file_read(path, JOURNAL_MAX_BYTES, &data, &len);
	if (r < 0)
		return r;
	while (pos < len) {
		const char *start = data + pos, *nl = memchr(start, '\n', len - pos);
		size_t n;

		line++;
		if (!nl) {
			j.torn = 1;
			break;
		}
		n = (size_t)(nl - start);
		if (!line_valid(start, n)) {
			parse_error_set_file(err, path);
			parse_error_set(err, line, 0, "a control character in the journal: not written by bootab");
			journal_release(&j);
			free(data);
			return -EINVAL;
		}
		GROW(j.lines, j.alloc_lines, j.n_lines + 1);
		j.lines[j.n_lines++] = xstrndup(start, n);
		pos += n + 1;
	}
	free(data);
	*ret = j;
	return 0;
}

int journal_append(const char *path, const char *line)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	size_t n = strlen(line), first;
	off_t end = 0;
	int fd, r = 0;

	if (!line_valid(line, n))
		return -EINVAL;
	fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		r = -errno;
		goto out;
	}
	if (st.st_size > 0) {
		/* Cut an incomplete last line (a crash mid-append) before adding to it. */
		char tail[4096];

		end = st.st_size;
		while (end > 0) {
			size_t chunk = (size_t)end < sizeof(tail) ? (size_t)end : sizeof(tail);
			const char *nl;

			if (pread(fd, tail, chunk, end - (off_t)chunk) != (ssize_t)chunk) {
				r = -EIO;
				goto out;
			}
			nl = memrchr(tail, '\n', chunk);
			if (nl) {
				end -= (off_t)(chunk - (size_t)(nl - tail) - 1);
				break;
			}
			end -= (off_t)chunk;
		}
		if (end != st.st_size && ftruncate(fd, end) < 0) {
			r = -errno;
			goto out;
		}
	}
	strbuf_add(&sb, line, n);
	strbuf_addch(&sb, '\n');
	/* Tests split the line to let a kill land between its halves. */
	first = file_test_write_delay_on() ? sb.len / 2 : sb.len;
	for (size_t done = 0; done < sb.len;) {
		size_t stop = done < first ? first : sb.len;
		ssize_t w = write(fd, sb.buf + done, stop - done);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			break;
		}
		done += (size_t)w;
		if (done == first && first < sb.len)
			file_test_write_delay();
	}
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	/* A failed append (a full disk) takes back what it wrote: whole lines only. */
	if (r < 0 && ftruncate(fd, end) == 0)
		(void)fsync(fd);
out:
	strbuf_release(&sb);
	close(fd);
	return r;
}

int journal_appendf(const char *path, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	int r;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	r = journal_append(path, strbuf_str(&sb));
	strbuf_release(&sb);
	return r;
}

void journal_release(struct journal *j)
{
	for (size_t i = 0; i < j->n_lines; i++)
		free(j->lines[i]);
	free(j->lines);
	memset(j, 0, sizeof(*j));
}
