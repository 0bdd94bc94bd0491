/*
 * POSIX extended regular expressions that come from a plan, a command line
 * or a file, compiled only when regcomp(3) can hold them. glibc's regcomp()
 * copies the pattern once for each repeat, so a short hostile line grows to
 * gigabytes before regcomp() returns; every pattern bootab takes goes
 * through pattern_compile(), which measures that growth first.
 */
#include "lib/pattern.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "lib/alloc.h"

#define PATTERN_GROUPS_MAX 64

/*
 * One group (or the whole pattern) as the measure reads it. "Empty" means
 * it can match the empty string: an anchor, a '*', '?' or {0,n} repeat, a
 * group with such an alternative.
 */
struct pattern_frame {
	unsigned long total;    /* what the group holds before its last atom */
	unsigned long last;     /* its last atom: what a repeat after it copies */
	bool has_last;          /* an atom stands before the next repeat */
	bool last_empty;        /* that atom can match the empty string (true with none) */
	bool seq_empty;         /* so can every atom of this alternative before it */
	bool alt_empty;         /* so can an earlier alternative ('|') */
};

struct pattern_shape {
	unsigned long size;     /* more than PATTERN_SIZE_MAX: too big */
	bool repeats_empty;     /* a repeat of what can match the empty string */
	char backref;           /* the digit of its first back-reference (\1-\9), or 0 */
};

static const struct pattern_frame frame_start = { 0, 0, false, true, true, false };

static unsigned long saturate(unsigned long x)
{
	return x > PATTERN_SIZE_MAX ? PATTERN_SIZE_MAX + 1 : x;
}

/* A new atom of size, empty or not, after the frame's last one. */
static void atom(struct pattern_frame *f, unsigned long size, bool empty)
{
	f->seq_empty = f->seq_empty && f->last_empty;
	f->total = saturate(f->total + f->last);
	f->last = size;
	f->has_last = true;
	f->last_empty = empty;
}

static bool frame_empty(const struct pattern_frame *f)
{
	return f->alt_empty || (f->seq_empty && f->last_empty);
}

/* The group f closes (or is left open) as one atom of its parent. */
static void close_group(struct pattern_frame *parent, const struct pattern_frame *f)
{
	atom(parent, saturate(f->total + f->last + 1), frame_empty(f));
}

/* A repeat of the last atom: copies it times over; min_zero: it may match nothing. */
static void repeat(struct pattern_frame *f, unsigned long times, bool min_zero, struct pattern_shape *ret)
{
	if (!f->has_last)
		return;        /* a repeat of nothing: regcomp() says so */
	if (f->last_empty)
		ret->repeats_empty = true;
	f->last = saturate(f->last * times);
	f->last_empty = f->last_empty || min_zero;
}

/* Escapes that match a position, not a character: \b \B \< \> \` \' and back-references. */
static bool escape_empty(char c)
{
	return strchr("bB<>`'123456789", c) != NULL;
}

/*
 * What glibc's regcomp() makes of the pattern, roughly.
 *
 * Its size: every atom counts 1, and a repeat copies what it repeats ('+'
 * once more, {m,n} n times), so "a++++" or "((a{255}){255}){255}" grow
 * without bound (gigabytes for a line of pattern).
 *
 * Whether it repeats what can match the empty string ("a**", "(a?)*",
 * "(a|)+", "^*"): regcomp()'s time then grows with the fourth power of
 * such repeats ("^a" and 100 stars took 1.8 s; "^" and 50 of "a**", more
 * than 30 s), and the repeat adds nothing a single one would not match.
 */
static void pattern_measure(const char *p, struct pattern_shape *ret)
{
	struct pattern_frame stack[PATTERN_GROUPS_MAX], cur = frame_start;
	size_t depth = 0;

	*ret = (struct pattern_shape){ 0, false, 0 };
	for (; *p; p++) {
		switch (*p) {
		case '(':
			if (depth == PATTERN_GROUPS_MAX) {
				ret->size = PATTERN_SIZE_MAX + 1;
				return;
			}
			stack[depth++] = cur;
			cur = frame_start;
			break;
		case ')':
			if (!depth) {
				atom(&cur, 1, false);      /* a lone ')' is an ordinary character */
				break;
			}
			close_group(&stack[depth - 1], &cur);
			cur = stack[--depth];
			break;
		case '|':
			cur.alt_empty = frame_empty(&cur);
			cur.total = saturate(cur.total + cur.last + 1);
			cur.last = 0;
			cur.has_last = false;
			cur.last_empty = true;
			cur.seq_empty = true;
			break;
		case '*':
		case '?':
			repeat(&cur, 1, true, ret);
			break;
		case '+':
			repeat(&cur, 2, false, ret);
			cur.last = saturate(cur.last + 1);
			break;
		case '{': {
			unsigned long bound = 0, n = 0, min = 0;
			bool first = true;

			for (p++; *p && *p != '}'; p++) {
				if (*p >= '0' && *p <= '9') {
					n = saturate(n * 10 + (unsigned long)(*p - '0'));
				} else {
					if (first)
						min = n, first = false;
					bound = n > bound ? n : bound, n = 0;
				}
			}
			if (first)
				min = n;
			bound = n > bound ? n : bound;
			repeat(&cur, bound + 1, min == 0, ret);
			if (!*p)
				p--;
			break;
		}
		case '[':
			/* A bracket expression is one atom: "[]a]" and "[^]a]" hold a ']'. */
			p++;
			if (*p == '^')
				p++;
			if (*p == ']')
				p++;
			while (*p && *p != ']')
				p++;
			atom(&cur, 1, false);
			if (!*p)
				p--;
			break;
		case '^':
		case '$':
			atom(&cur, 1, true);
			break;
		case '\\':
			if (p[1]) {
				p++;
				if (*p >= '1' && *p <= '9' && !ret->backref)
					ret->backref = *p;
				atom(&cur, 1, escape_empty(*p));
				break;
			}
			/* fall through */
		default:
			atom(&cur, 1, false);
		}
	}
	/* regcomp() builds (and copies) an unclosed group's insides before it says "Unmatched (". */
	while (depth) {
		close_group(&stack[depth - 1], &cur);
		cur = stack[--depth];
	}
	ret->size = saturate(cur.total + cur.last);
}

int pattern_compile(regex_t *re, const char *pattern, int cflags, char **ret_error)
{
	struct pattern_shape shape;
	char msg[256];
	int r;

	if (strlen(pattern) > PATTERN_LENGTH_MAX) {
		*ret_error = xasprintf("the pattern is longer than %d bytes", PATTERN_LENGTH_MAX);
		return -E2BIG;
	}
	pattern_measure(pattern, &shape);
	if (shape.size > PATTERN_SIZE_MAX) {
		*ret_error = xasprintf("the pattern's repeats ('+', {m,n}) copy it more than %lu times over",
				       PATTERN_SIZE_MAX);
		return -E2BIG;
	}
	/*
	 * POSIX extended patterns have no back-references (XBD 9.4: "\\1" is
	 * undefined there); glibc takes them, and matches them by trying every
	 * way to split the line: "((a+)+)+\\2b" on one 1,000-byte line ran for
	 * minutes.
	 */
	if (shape.backref) {
		*ret_error = xasprintf("the pattern holds a back-reference ('\\%c'): POSIX extended patterns have none, "
				       "and matching one can take exponential time", shape.backref);
		return -EINVAL;
	}
	if (shape.repeats_empty) {
		*ret_error = xstrdup("the pattern repeats what can match nothing ('a**', 'a*?', '(a?)+', '(a|)*', '^*'); "
				     "one repeat does the same (POSIX has no lazy '*?')");
		return -E2BIG;
	}
	r = regcomp(re, pattern, REG_EXTENDED | cflags);
	if (r != 0) {
		regerror(r, re, msg, sizeof(msg));
		regfree(re);
		*ret_error = xstrdup(msg);
		return -EINVAL;
	}
	return 0;
}
