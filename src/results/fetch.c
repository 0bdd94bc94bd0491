#include "results/fetch.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"

int fetch_name_valid(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > 255 || name[0] == '.')
		return 0;
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '.' && *p != '_' && *p != '-')
			return 0;
	return 1;
}

const struct fetched_file *fetch_find(const struct fetch *f, const char *name)
{
	for (size_t i = 0; i < f->n_files; i++)
		if (!strcmp(f->files[i].name, name))
			return &f->files[i];
	return NULL;
}

void fetch_release(struct fetch *f)
{
	for (size_t i = 0; i < f->n_files; i++) {
		free(f->files[i].name);
		free(f->files[i].data);
	}
	free(f->files);
	for (size_t i = 0; i < f->n_skipped; i++)
		free(f->skipped[i].name);
	free(f->skipped);
	memset(f, 0, sizeof(*f));
}

/* The line at *pos (without its newline), or NULL when there is none. */
static const char *next_line(const char *data, size_t len, size_t *pos, size_t *ret_len)
{
	const char *start = data + *pos, *nl;

	if (*pos >= len)
		return NULL;
	nl = memchr(start, '\n', len - *pos);
	if (!nl)
		return NULL;
	*ret_len = (size_t)(nl - start);
	*pos += *ret_len + 1;
	return start;
}

int fetch_parse(const char *data, size_t len, struct fetch *ret, struct parse_error *err)
{
	struct fetch f = { 0 };
	size_t pos = 0, ll;
	unsigned line = 1;
	const char *l;

	l = next_line(data, len, &pos, &ll);
	if (!l || ll != strlen("bootab-fetch 1") || memcmp(l, "bootab-fetch 1", ll)) {
		parse_error_set(err, 1, 0, "not a bootab-fetch 1 stream");
		return -EINVAL;
	}
	for (;;) {
		unsigned long long size = 0;
		struct fetched_file *file;
		const char *sp, *digits;
		char *name;
		bool skip;

		line++;
		l = next_line(data, len, &pos, &ll);
		if (!l) {
			parse_error_set(err, line, 0, "the stream ends without 'end': cut off");
			goto fail;
		}
		if (ll == 3 && !memcmp(l, "end", 3))
			break;
		/* "file NAME SIZE" or "skip NAME SIZE": single spaces, SIZE in decimal digits only. */
		sp = ll > 5 ? memchr(l + 5, ' ', ll - 5) : NULL;
		skip = ll > 5 && !memcmp(l, "skip ", 5);
		if (ll <= 5 || (memcmp(l, "file ", 5) && !skip) || !sp || sp + 1 >= l + ll || sp - (l + 5) > 255) {
			parse_error_set(err, line, 0, "expected 'file NAME SIZE' or 'skip NAME SIZE'");
			goto fail;
		}
		for (digits = sp + 1; digits < l + ll; digits++) {
			if (!isdigit((unsigned char)*digits) || size > (1ULL << 40)) {
				parse_error_set(err, line, 0, "expected 'file NAME SIZE' with a decimal SIZE");
				goto fail;
			}
			size = size * 10 + (unsigned)(*digits - '0');
		}
		name = xstrndup(l + 5, (size_t)(sp - (l + 5)));
		if (!fetch_name_valid(name)) {
			parse_error_set(err, line, 0, "'%s' is not a plain file name", name);
			free(name);
			goto fail;
		}
		if (skip) {
			if (size <= FETCH_FILE_LIMIT || f.n_skipped >= FETCH_MAX_FILES) {
				parse_error_set(err, line, 0, "file '%s' skipped at %llu bytes, within the limit", name, size);
				free(name);
				goto fail;
			}
			GROW(f.skipped, f.alloc_skipped, f.n_skipped + 1);
			f.skipped[f.n_skipped++] = (struct skipped_file){ name, size };
			continue;
		}
		if (fetch_find(&f, name) || f.n_files >= FETCH_MAX_FILES ||
		    size > len - pos || len - pos - size < 1 || data[pos + size] != '\n') {
			if (fetch_find(&f, name))
				parse_error_set(err, line, 0, "file '%s' sent twice", name);
			else if (f.n_files >= FETCH_MAX_FILES)
				parse_error_set(err, line, 0, "more than %d files", FETCH_MAX_FILES);
			else
				parse_error_set(err, line, 0, "file '%s': %llu bytes announced, the stream is shorter",
						name, size);
			free(name);
			goto fail;
		}
		GROW(f.files, f.alloc_files, f.n_files + 1);
		file = &f.files[f.n_files++];
		file->name = name;
		file->data = xmalloc(size + 1);
		memcpy(file->data, data + pos, size);
		file->data[size] = '\0';
		file->len = size;
		for (size_t i = 0; i < size; i++)
			line += data[pos + i] == '\n';
		pos += size + 1;
	}
	if (pos != len) {
		parse_error_set(err, line + 1, 0, "data after 'end'");
		goto fail;
	}
	*ret = f;
	return 0;
fail:
	fetch_release(&f);
	return -EINVAL;
}
