#ifndef BOOTAB_LIB_STRBUF_H
#define BOOTAB_LIB_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

/*
 * A growable, always NUL-terminated byte buffer. STRBUF_INIT is a valid
 * empty buffer; strbuf_release() frees and re-initialises it.
 */
struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};

#define STRBUF_INIT { NULL, 0, 0 }

void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* Shortens to len bytes (no-op if already shorter). */
void strbuf_truncate(struct strbuf *sb, size_t len);
/* The contents, "" for an untouched buffer; borrowed. */
const char *strbuf_str(const struct strbuf *sb);
/* Hands the contents to the caller (never NULL) and re-initialises sb. */
char *strbuf_detach(struct strbuf *sb, size_t *ret_len);
void strbuf_release(struct strbuf *sb);

#endif
