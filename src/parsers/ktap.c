/*
 * KTAP, the kernel's Test Anything Protocol (Documentation/dev-tools/
 * ktap.rst), as KUnit and kselftest print it, also TAP 13/14:
 *
 *   KTAP version 1
 *   1..1
 *     KTAP version 1
 *     # Subtest: example
 *     1..2
 *     ok 1 test_1
 *     not ok 2 test_2 # TIMEOUT 30 seconds
 *   not ok 1 example
 *
 * A test with subtests prints them, indented, before its own result line.
 * Results are checks, not numbers: every leaf test is passed, failed,
 * skipped (SKIP) or expected to fail ("not ok" with TODO or XFAIL); a
 * parent counts only when it fails with no failing subtest. A plan whose
 * tests do not all report (a crash, a hang) is one failure more. Failures
 * are named by their path, "example.test_2".
 *
 * Text before the first version line is skipped (boot messages); when that
 * line has a prefix (dmesg's "[    0.060000] "), as many bytes are cut from
 * every later line, as kunit.py does. Unknown lines and diagnostics ("# ...")
 * are allowed anywhere. Several documents one after another are reps.
 */
#include "parsers/parser-internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/strlist.h"

#define KTAP_TESTS_MAX 1000000UL
#define KTAP_NAME_MAX 100
#define KTAP_PATH_MAX 200

struct level {
	size_t indent;
	size_t at;                  /* where it opened, for messages */
	bool has_plan;
	unsigned long planned;
	size_t plan_at;
	unsigned long next;         /* the next test number expected */
	bool results;               /* a result line was read at this level */
	char *header_name;          /* TAP 14 "# Subtest: NAME" */
	struct strlist failed;      /* failures inside, named from this level down */
	size_t counts[CHECK_OUTCOMES];
};

struct ktap {
	const char *data;
	struct level *stack;        /* open levels, the root first: as deep as the input nests */
	size_t depth, alloc;
	bool has_pending;           /* a closed level waiting for its parent's result line */
	struct level pending;
	struct metric_set *set;
	struct parse_error *err;
	unsigned documents;
};

static void level_open(struct level *l, size_t indent, size_t at)
{
	memset(l, 0, sizeof(*l));
	l->indent = indent;
	l->at = at;
	l->next = 1;
}

static void level_release(struct level *l)
{
	free(l->header_name);
	strlist_release(&l->failed);
	memset(l, 0, sizeof(*l));
}

/* The version line: "KTAP version N" or "TAP version N" starting at p. */
static bool is_version(const char *data, size_t begin, size_t end)
{
	size_t p = begin;

	if (text_starts(data, p, end, "KTAP version "))
		p += 13;
	else if (text_starts(data, p, end, "TAP version "))
		p += 12;
	else
		return false;
	if (p == end)
		return false;
	for (; p < end; p++)
		if (!isdigit((unsigned char)data[p]))
			return false;
	return true;
}

/* Where in the line a version line starts (after a prefix), or end. */
static size_t version_start(const char *data, size_t begin, size_t end)
{
	for (size_t p = begin; p < end; p++)
		if ((data[p] == 'K' || data[p] == 'T') && is_version(data, p, end))
			return p;
	return end;
}

bool ktap_recognise(const char *data, size_t len)
{
	size_t pos = 0, begin, end;

	while (text_next_line(data, len, &pos, &begin, &end)) {
		text_trim(data, &begin, &end);
		if (version_start(data, begin, end) < end)
			return true;
	}
	return false;
}

static size_t indent_of(const char *data, size_t *begin, size_t end)
{
	size_t w = 0;

	while (*begin < end && (data[*begin] == ' ' || data[*begin] == '\t')) {
		w = data[*begin] == '\t' ? (w / 8 + 1) * 8 : w + 1;
		(*begin)++;
	}
	return w;
}

static void add_failure(struct level *l, const char *name)
{
	l->counts[CHECK_FAILED]++;
	strlist_add(&l->failed, name);
}

/* A level's missing planned tests are one failure, named after where it stands. */
static void check_plan_named(struct level *l)
{
	char *name;

	if (!l->has_plan || l->next - 1 >= l->planned)
		return;
	if (l->next == l->planned)
		name = xasprintf("(test %lu of 1..%lu did not report)", l->next, l->planned);
	else
		name = xasprintf("(tests %lu-%lu of 1..%lu did not report)", l->next, l->planned, l->planned);
	add_failure(l, name);
	free(name);
}

/* Moves child's outcomes into parent, its failures named "prefix.NAME". */
static void level_absorb(struct level *parent, struct level *child, const char *prefix)
{
	for (size_t k = 0; k < CHECK_OUTCOMES; k++)
		if (k != CHECK_FAILED)
			parent->counts[k] += child->counts[k];
	for (size_t i = 0; i < child->failed.n; i++) {
		/*
		 * Paths are cut at KTAP_PATH_MAX in the end: one byte more is kept
		 * here, so a name nested thousands deep is not copied whole at each level.
		 */
		if (prefix && *prefix)
			strlist_addf(&parent->failed, "%s.%.*s", prefix,
				     (int)(strlen(prefix) < KTAP_PATH_MAX ? KTAP_PATH_MAX - strlen(prefix) : 0),
				     child->failed.items[i]);
		else
			strlist_add(&parent->failed, child->failed.items[i]);
		parent->counts[CHECK_FAILED]++;
	}
	/* Failures counted without a name (none are) would be lost otherwise. */
	if (child->counts[CHECK_FAILED] > child->failed.n)
		parent->counts[CHECK_FAILED] += child->counts[CHECK_FAILED] - child->failed.n;
	level_release(child);
}

/*
 * A pending child that no result line claimed: its subtests ended
 * without their parent's result (a crash between them); it is absorbed
 * under its TAP 14 name, or none, with one failure for the missing result.
 */
static void drop_pending(struct ktap *k)
{
	struct level *top = &k->stack[k->depth - 1];
	char *name;

	if (!k->has_pending)
		return;
	name = k->pending.header_name ? xstrdup(k->pending.header_name) : NULL;
	add_failure(&k->pending, "(no result line after these subtests)");
	level_absorb(top, &k->pending, name);
	free(name);
	k->has_pending = false;
}

/* Closes the top level, which becomes the pending child of the one below. */
static void close_top(struct ktap *k)
{
	struct level *top = &k->stack[k->depth - 1];

	drop_pending(k);
	check_plan_named(top);
	k->pending = *top;
	memset(top, 0, sizeof(*top));
	k->has_pending = true;
	k->depth--;
}

/* Ends a document: every open level is closed, the root's outcomes go to the set. */
static void finish_document(struct ktap *k)
{
	struct level *root;

	if (!k->depth)
		return;
	while (k->depth > 1)
		close_top(k);
	drop_pending(k);
	root = &k->stack[0];
	check_plan_named(root);
	for (size_t o = 0; o < CHECK_OUTCOMES; o++) {
		if (o == CHECK_FAILED)
			continue;
		k->set->has_checks = true;
		k->set->checks[o] += root->counts[o];
	}
	for (size_t i = 0; i < root->failed.n; i++) {
		const char *name = root->failed.items[i];

		/* A path of long names is cut, as results files keep names of at most 200 bytes. */
		if (strlen(name) > KTAP_PATH_MAX) {
			char *cut = xasprintf("%.*s...", KTAP_PATH_MAX - 3, name);

			metric_set_add_check(k->set, CHECK_FAILED, cut);
			free(cut);
		} else {
			metric_set_add_check(k->set, CHECK_FAILED, name);
		}
	}
	k->set->has_checks = true;
	level_release(root);
	k->depth = 0;
	k->documents++;
}

static int push(struct ktap *k, size_t indent, size_t at)
{
	/* No bound on depth: each level is indented deeper, so the input holds its square. */
	xgrow((void **)&k->stack, &k->alloc, k->depth + 1, sizeof(*k->stack));
	/* A pending child not claimed before a new block opens at its parent's level is dropped. */
	if (k->has_pending && k->depth && k->pending.indent <= indent)
		drop_pending(k);
	level_open(&k->stack[k->depth++], indent, at);
	return 0;
}

/* Closes levels deeper than indent; then the top is at indent, or a new one is opened there. */
static int level_at(struct ktap *k, size_t indent, size_t at)
{
	struct level *top;

	while (k->depth > 1 && k->stack[k->depth - 1].indent > indent)
		close_top(k);
	top = &k->stack[k->depth - 1];
	if (top->indent >= indent)
		return 0;
	/* A subtest block whose results are indented deeper than its version line: its indent is theirs. */
	if (k->depth > 1 && !top->results) {
		top->indent = indent;
		return 0;
	}
	return push(k, indent, at);
}

static int read_number(const char *data, size_t *p, size_t end, unsigned long *ret)
{
	unsigned long n = 0;
	size_t start = *p;

	while (*p < end && isdigit((unsigned char)data[*p])) {
		n = n * 10 + (unsigned long)(data[*p] - '0');
		if (n > KTAP_TESTS_MAX)
			return -ERANGE;
		(*p)++;
	}
	if (*p == start)
		return -EINVAL;
	*ret = n;
	return 0;
}

static int on_plan(struct ktap *k, size_t indent, size_t begin, size_t end)
{
	const char *data = k->data;
	size_t p = begin + 3;
	unsigned long n;
	struct level *top;
	int r;

	r = read_number(data, &p, end, &n);
	if (r < 0 || (p < end && data[p] != ' ' && data[p] != '\t' && data[p] != '#')) {
		parser_error_at(k->err, data, begin + 3, "a plan line is '1..N', N the number of tests%s",
				r == -ERANGE ? " (at most 1000000)" : "");
		return -EINVAL;
	}
	if (level_at(k, indent, begin) < 0)
		return -EINVAL;
	top = &k->stack[k->depth - 1];
	if (top->has_plan) {
		unsigned line, column;

		text_position(data, top->plan_at, &line, &column);
		parser_error_at(k->err, data, begin, "a second plan for the same tests (the first is on line %u)", line);
		return -EINVAL;
	}
	if (top->results && n < top->next - 1) {
		parser_error_at(k->err, data, begin, "the plan 1..%lu comes after %lu results", n, top->next - 1);
		return -EINVAL;
	}
	top->has_plan = true;
	top->planned = n;
	top->plan_at = begin;
	return 0;
}

/* The directive after '#': its outcome for a result that is ok or not. */
static enum check_outcome outcome_of(const char *data, size_t p, size_t end, bool ok)
{
	size_t w = p;

	while (w < end && isalpha((unsigned char)data[w]))
		w++;
	if (w - p >= 4 && !strncasecmp(data + p, "SKIP", 4))
		return CHECK_SKIPPED;
	if (!ok && ((w - p == 4 && !strncasecmp(data + p, "TODO", 4)) ||
		    (w - p == 5 && !strncasecmp(data + p, "XFAIL", 5))))
		return CHECK_XFAIL;
	return ok ? CHECK_PASSED : CHECK_FAILED;
}

static int on_result(struct ktap *k, size_t indent, size_t begin, size_t end)
{
	const char *data = k->data;
	bool ok = text_starts(data, begin, end, "ok");
	size_t p = begin + (ok ? 2 : 6), name_begin, name_end;
	enum check_outcome outcome = ok ? CHECK_PASSED : CHECK_FAILED;
	unsigned long n;
	struct level *top;
	char *name;
	int r;

	while (p < end && data[p] == ' ')
		p++;
	r = read_number(data, &p, end, &n);
	if (r < 0 || (p < end && data[p] != ' ' && data[p] != '\t')) {
		parser_error_at(k->err, data, p, "expected the test's number after '%s'%s", ok ? "ok" : "not ok",
				r == -ERANGE ? " (at most 1000000)" : "");
		return -EINVAL;
	}
	if (level_at(k, indent, begin) < 0)
		return -EINVAL;
	top = &k->stack[k->depth - 1];
	if (n != top->next) {
		parser_error_at(k->err, data, begin, "test number %lu where %lu was expected (numbers count up from 1)",
				n, top->next);
		return -EINVAL;
	}
	if (top->has_plan && n > top->planned) {
		unsigned line, column;

		text_position(data, top->plan_at, &line, &column);
		parser_error_at(k->err, data, begin, "test %lu is beyond the plan 1..%lu of line %u", n, top->planned,
				line);
		return -EINVAL;
	}
	top->next++;
	top->results = true;
	/* "ok 1 - name # DIRECTIVE diagnostic": TAP 14 puts a hyphen before the name. */
	name_begin = p;
	name_end = name_begin;
	while (name_end < end && data[name_end] != '#')
		name_end++;
	if (name_end < end)
		outcome = outcome_of(data, name_end + 1 + strspn(data + name_end + 1, " \t"), end, ok);
	text_trim(data, &name_begin, &name_end);
	if (name_begin + 1 < name_end && data[name_begin] == '-' && data[name_begin + 1] == ' ')
		name_begin += 2;
	text_trim(data, &name_begin, &name_end);
	if (name_begin == name_end) {
		name = xasprintf("test %lu", n);
	} else {
		name = text_quote_max(data, name_begin, name_end, KTAP_NAME_MAX);
	}
	if (k->has_pending && k->pending.indent > indent) {
		struct level *child = &k->pending;
		bool child_failed = child->counts[CHECK_FAILED] > 0;
		size_t child_total = 0;

		for (size_t o = 0; o < CHECK_OUTCOMES; o++)
			child_total += child->counts[o];
		k->has_pending = false;
		level_absorb(top, child, name);
		if (outcome == CHECK_FAILED && !child_failed)
			add_failure(top, name);
		else if (outcome == CHECK_SKIPPED && child_total == 0)
			top->counts[CHECK_SKIPPED]++;
	} else {
		drop_pending(k);
		if (outcome == CHECK_FAILED)
			add_failure(top, name);
		else
			top->counts[outcome]++;
	}
	free(name);
	return 0;
}

static int on_subtest_header(struct ktap *k, size_t indent, size_t begin, size_t end)
{
	size_t p = begin + strlen("# Subtest:");
	struct level *top = &k->stack[k->depth - 1];

	/* KUnit prints the version line first, then "# Subtest:" at the same indent. */
	if (!(top->indent == indent && !top->results && !top->has_plan && !top->header_name && k->depth > 1)) {
		if (level_at(k, indent, begin) < 0)
			return -EINVAL;
		top = &k->stack[k->depth - 1];
		if (top->results || top->has_plan || top->header_name || k->depth == 1) {
			if (push(k, indent, begin) < 0)
				return -EINVAL;
			top = &k->stack[k->depth - 1];
		}
	}
	while (p < end && (k->data[p] == ' ' || k->data[p] == '\t'))
		p++;
	free(top->header_name);
	top->header_name = text_quote_max(k->data, p, end, KTAP_NAME_MAX);
	return 0;
}

static int on_version(struct ktap *k, size_t indent, size_t begin)
{
	struct level *top;

	if (!k->depth)
		return push(k, indent, begin);
	top = &k->stack[k->depth - 1];
	if (indent <= k->stack[0].indent) {
		/* Another document: a row's next rep. */
		finish_document(k);
		return push(k, indent, begin);
	}
	/* The version line of a level "# Subtest:" already opened. */
	if (k->depth > 1 && top->indent == indent && !top->results && !top->has_plan)
		return 0;
	while (k->depth > 1 && k->stack[k->depth - 1].indent >= indent)
		close_top(k);
	return push(k, indent, begin);
}

int ktap_parse(const char *data, size_t len, struct metric_set *set, struct parse_error *err,
	       struct parse_error *warning)
{
	struct ktap k = { .data = data, .set = set, .err = err };
	size_t pos = 0, begin, end, prefix = 0;
	bool started = false;
	int r = 0;

	(void)warning;
	while (r == 0 && text_next_line(data, len, &pos, &begin, &end)) {
		size_t indent, content, content_end;

		if (!started) {
			size_t v = version_start(data, begin, end);

			if (v == end)
				continue;
			started = true;
			prefix = v - begin;
		}
		/* As kunit.py: the version line's prefix is cut from every line. */
		begin = end - begin > prefix ? begin + prefix : end;
		content = begin;
		indent = indent_of(data, &content, end);
		content_end = end;
		text_trim(data, &content, &content_end);
		if (content == content_end)
			continue;
		if (is_version(data, content, content_end)) {
			r = on_version(&k, indent, content);
		} else if (!k.depth) {
			continue;
		} else if (text_starts(data, content, content_end, "1..")) {
			r = on_plan(&k, indent, content, content_end);
		} else if (text_starts(data, content, content_end, "ok") &&
			   (content_end - content == 2 || data[content + 2] == ' ' || data[content + 2] == '\t')) {
			r = on_result(&k, indent, content, content_end);
		} else if (text_starts(data, content, content_end, "not ok") &&
			   (content_end - content == 6 || data[content + 6] == ' ' || data[content + 6] == '\t')) {
			r = on_result(&k, indent, content, content_end);
		} else if (text_starts(data, content, content_end, "# Subtest:")) {
			r = on_subtest_header(&k, indent, content, content_end);
		} else if (text_starts(data, content, content_end, "Bail out!")) {
			add_failure(&k.stack[k.depth - 1], "(bail out)");
		}
		/* Anything else is a diagnostic or an unknown line: allowed, and not a result. */
	}
	if (r == 0 && !started) {
		parse_error_set(err, 0, 0, "no KTAP or TAP version line ('KTAP version 1'): not KTAP output");
		r = -EINVAL;
	}
	if (r == 0)
		finish_document(&k);
	for (size_t i = 0; i < k.depth; i++)
		level_release(&k.stack[i]);
	if (k.has_pending)
		level_release(&k.pending);
	free(k.stack);
	return r;
}
