/*
 * Ansible INI inventories (ansible_inventory_parse()): host lines with
 * their ranges and variables, [group], [group:vars] and [group:children]
 * sections, the group tree resolved (cycles refused), and the hosts of one
 * group as a fleet's boxes.
 */
#include "fleet/ansible-inventory.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"
#include "lib/strlist.h"
#include "target/target.h"

/* An inventory stays this small (each box of a fleet is a process of its own). */
#define INVENTORY_MAX_HOSTS 1000
#define INVENTORY_MAX_GROUPS 1000

/* The variables that map onto OpenSSH, each with Ansible's older ansible_ssh_ spelling. */
enum inventory_var { VAR_HOST, VAR_USER, VAR_PORT, VAR_COUNT };
static const char *const var_names[VAR_COUNT] = { "ansible_host", "ansible_user", "ansible_port" };
static const char *const var_old_names[VAR_COUNT] = { "ansible_ssh_host", "ansible_ssh_user", "ansible_ssh_port" };

/* Values of the mapped variables at one level (a host line, a group's vars). */
struct var_set {
	char *value[VAR_COUNT];
	bool by_new_name[VAR_COUNT];
	unsigned line[VAR_COUNT];
};

struct inv_host {
	char *name;
	unsigned line;
	struct var_set vars;
};

struct inv_group {
	char *name;
	unsigned line;
	struct strlist hosts;      /* direct members */
	struct strlist children;   /* child groups, as written */
	unsigned children_line;
	struct var_set vars;
	unsigned depth;
};

struct inventory {
	const char *file;
	struct parse_error *err;
	struct inv_host *hosts;
	size_t n_hosts, alloc_hosts;
	struct inv_group *groups;
	size_t n_groups, alloc_groups;
	bool *member;              /* [group * n_hosts + host]: host is in the group or one of its children */
	size_t *child, *child_start; /* the groups' children as indices (resolve_children()) */
};

static int fail(struct inventory *inv, unsigned line, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(struct inventory *inv, unsigned line, const char *field, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (field)
		strbuf_addf(&sb, "%s: ", field);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	parse_error_set(inv->err, line, 0, "%s", strbuf_str(&sb));
	strbuf_release(&sb);
	return -EINVAL;
}

static void var_set_release(struct var_set *v)
{
	for (int i = 0; i < VAR_COUNT; i++)
		free(v->value[i]);
}

static struct inv_group *find_group(struct inventory *inv, const char *name)
{
	for (size_t i = 0; i < inv->n_groups; i++)
		if (!strcmp(inv->groups[i].name, name))
			return &inv->groups[i];
	return NULL;
}

static struct inv_group *get_group(struct inventory *inv, const char *name, unsigned line)
{
	struct inv_group *g = find_group(inv, name);

	if (g)
		return g;
	if (inv->n_groups >= INVENTORY_MAX_GROUPS)
		return NULL;
	GROW(inv->groups, inv->alloc_groups, inv->n_groups + 1);
	g = &inv->groups[inv->n_groups++];
	memset(g, 0, sizeof(*g));
	g->name = xstrdup(name);
	g->line = line;
	return g;
}

static struct inv_host *find_host(struct inventory *inv, const char *name)
{
	for (size_t i = 0; i < inv->n_hosts; i++)
		if (!strcmp(inv->hosts[i].name, name))
			return &inv->hosts[i];
	return NULL;
}

/*
 * One word of a host or vars line: Ansible splits those lines as a shell
 * would (shlex), so quotes group and are removed. Returns the word (the
 * caller's) and moves *p past it, or NULL at the end of the line or at a
 * comment; *ret_open is set when a quote is not closed.
 */
static char *next_word(const char **p, bool *ret_open)
{
	struct strbuf sb = STRBUF_INIT;
	const char *s = *p;
	char quote = 0;

	*ret_open = false;
	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s || *s == '#') {
		*p = s;
		return NULL;
	}
	for (; *s; s++) {
		if (quote) {
			if (*s == quote)
				quote = 0;
			else
				strbuf_addch(&sb, *s);
		} else if (*s == '"' || *s == '\'') {
			quote = *s;
		} else if (*s == ' ' || *s == '\t') {
			break;
		} else {
			strbuf_addch(&sb, *s);
		}
	}
	*p = s;
	if (quote) {
		*ret_open = true;
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}

/* Strips one pair of matching quotes around a [group:vars] value (those values are not split). */
static char *unquote(const char *v)
{
	size_t n = strlen(v);

	if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0])
		return xstrndup(v + 1, n - 2);
	return xstrdup(v);
}

/*
 * Sets key = value in vars when key is a variable bootab maps; refuses
 * those that would make bootab reach the box otherwise than Ansible does
 * (a key, ssh arguments, another connection) or that hold a password.
 * Other variables belong to the playbooks and are ignored.
 */
static int set_var(struct inventory *inv, unsigned line, struct var_set *vars, const char *key, const char *value)
{
	static const char *const refused_ssh[] = {
		"ansible_ssh_private_key_file", "ansible_private_key_file", "ansible_ssh_common_args",
		"ansible_ssh_extra_args", "ansible_ssh_args", "ansible_ssh_executable", "ansible_ssh_host_key_checking",
		"ansible_host_key_checking", NULL,
	};

	for (int i = 0; i < VAR_COUNT; i++) {
		bool new_name = !strcmp(key, var_names[i]);

		if (!new_name && strcmp(key, var_old_names[i]))
			continue;
		if (!*value)
			return fail(inv, line, key, "empty");
		if (i == VAR_PORT) {
			char *end;
			long port = strtol(value, &end, 10);

			/* Digits only: strtol would also take " 22" or "+22". */
			if (*end || !isdigit((unsigned char)value[0]) || port < 1 || port > 65535)
				return fail(inv, line, key, "'%s' is not a port from 1 to 65535", value);
		} else if (!target_destination_acceptable(value) || strchr(value, '@') ||
			   (i == VAR_USER && (strchr(value, ':') || strchr(value, '/')))) {
			return fail(inv, line, key, "'%s' is not a %s ssh can be given (none starts with '-' or holds '@', spaces or control characters)",
				    value, i == VAR_HOST ? "host name or address" : "user name");
		}
		/* The current name wins over the old one at the same level. */
		if (vars->value[i] && vars->by_new_name[i] && !new_name)
			return 0;
		free(vars->value[i]);
		vars->value[i] = xstrdup(value);
		vars->by_new_name[i] = new_name;
		vars->line[i] = line;
		return 0;
	}
	if (!strcmp(key, "ansible_connection")) {
		if (strcmp(value, "ssh") && strcmp(value, "smart"))
			return fail(inv, line, key, "'%s': bootab reaches boxes with OpenSSH only (ssh or smart)", value);
		return 0;
	}
	for (size_t i = 0; refused_ssh[i]; i++)
		if (!strcmp(key, refused_ssh[i]))
			return fail(inv, line, key, "bootab runs ssh with the user's own configuration: put this in ~/.ssh/config for the host");
	if (!strncmp(key, "ansible_", 8) && (strstr(key, "pass") || strstr(key, "secret")))
		return fail(inv, line, key, "bootab takes no password from a file (sudo asks on the terminal; ssh uses keys or its agent)");
	return 0;
}

/* key=value, the key a variable name. */
static int split_assignment(struct inventory *inv, unsigned line, const char *word, char **ret_key, const char **ret_value)
{
	const char *eq = strchr(word, '=');

	if (!eq || eq == word)
		return fail(inv, line, NULL, "'%s' is not a key=value variable", word);
	for (const char *k = word; k < eq; k++)
		if (!((*k >= 'a' && *k <= 'z') || (*k >= 'A' && *k <= 'Z') || (*k >= '0' && *k <= '9') || *k == '_'))
			return fail(inv, line, NULL, "'%.*s' is not a variable name", (int)(eq - word), word);
	*ret_key = xstrndup(word, (size_t)(eq - word));
	*ret_value = eq + 1;
	return 0;
}

/*
 * Expands Ansible's host ranges: "web[01:03]" is web01 web02 web03 (the
 * width of the first bound is kept), "db-[a:c]" is db-a db-b db-c, and
 * "[start:end:step]" steps. Several ranges in one name multiply.
 */
static int expand_ranges(struct inventory *inv, unsigned line, const char *name, struct strlist *out)
{
	const char *open = strchr(name, '['), *close;
	char *inner, *parts[3];
	struct strlist fields = STRLIST_INIT;
	size_t n_parts, colons = 0;
	int r = 0;

	if (!open) {
		if (strchr(name, ']'))
			return fail(inv, line, "host", "'%s' has a ']' without '['", name);
		strlist_add(out, name);
		return 0;
	}
	close = strchr(open, ']');
	if (!close)
		return fail(inv, line, "host", "'%s' has a '[' without ']'", name);
	inner = xstrndup(open + 1, (size_t)(close - open - 1));
	for (const char *c = inner; *c; c++)
		colons += *c == ':';
	strlist_split(&fields, inner, ":");
	n_parts = fields.n;
	if (n_parts < 2 || n_parts > 3 || n_parts != colons + 1) {
		r = fail(inv, line, "host", "'%s': a range is [START:END] or [START:END:STEP]", name);
		goto out;
	}
	for (size_t i = 0; i < n_parts; i++)
		parts[i] = fields.items[i];
	{
		bool letters = strlen(parts[0]) == 1 && strlen(parts[1]) == 1 &&
			       ((parts[0][0] >= 'a' && parts[0][0] <= 'z') || (parts[0][0] >= 'A' && parts[0][0] <= 'Z'));
		long start, end, step = 1;
		char *e1, *e2;
		int width = 0;

		if (letters) {
			start = parts[0][0];
			end = parts[1][0];
		} else {
			start = strtol(parts[0], &e1, 10);
			end = strtol(parts[1], &e2, 10);
			if (*e1 || *e2 || parts[0][0] == '-' || parts[1][0] == '-' || parts[0][0] == '+' || parts[1][0] == '+') {
				r = fail(inv, line, "host", "'%s': a range's bounds are numbers or single letters", name);
				goto out;
			}
			if (parts[0][0] == '0' && parts[0][1])
				width = (int)strlen(parts[0]);
		}
		if (n_parts == 3) {
			char *e3;

			step = strtol(parts[2], &e3, 10);
			if (*e3 || step < 1) {
				r = fail(inv, line, "host", "'%s': a range's step is a whole number above 0", name);
				goto out;
			}
		}
		if (end < start || (end - start) / step + 1 > INVENTORY_MAX_HOSTS) {
			r = fail(inv, line, "host", "'%s': a range runs from its start up to its end, at most %d hosts", name,
				 INVENTORY_MAX_HOSTS);
			goto out;
		}
		for (long v = start; r == 0; v += step) {
			char *item = letters ? xasprintf("%.*s%c%s", (int)(open - name), name, (char)v, close + 1)
					     : xasprintf("%.*s%0*ld%s", (int)(open - name), name, width, v, close + 1);

			r = expand_ranges(inv, line, item, out);
			free(item);
			if (out->n > INVENTORY_MAX_HOSTS)
				r = fail(inv, line, "host", "'%s': more than %d hosts", name, INVENTORY_MAX_HOSTS);
			/* The next value, unless past the end (a step as large as LONG_MAX must not overflow). */
			if (end - v < step)
				break;
		}
	}
out:
	free(inner);
	strlist_release(&fields);
	return r;
}

static int host_line(struct inventory *inv, unsigned line, struct inv_group *group, const char *text)
{
	struct strlist names = STRLIST_INIT;
	struct var_set vars = { 0 };
	const char *p = text;
	char *first, *word, *colon;
	bool open;
	int r = 0;

	first = next_word(&p, &open);
	if (!first)
		return fail(inv, line, "host", "a quote is not closed");
	/* "host:2222": the port Ansible takes from the name (not for IPv6 addresses, which hold colons). */
	colon = strchr(first, ':');
	if (colon && !strchr(colon + 1, ':') && !strchr(first, '[')) {
		*colon = '\0';
		r = set_var(inv, line, &vars, "ansible_port", colon + 1);
	}
	if (r == 0 && !plan_group_name_valid(first) && !strchr(first, '['))
		r = fail(inv, line, "host", "'%s' is not a host name bootab can name a directory after (letters, digits and _ . -)",
			 first);
	while (r == 0 && (word = next_word(&p, &open))) {
		char *key;
		const char *value;

		r = split_assignment(inv, line, word, &key, &value);
		if (r == 0) {
			r = set_var(inv, line, &vars, key, value);
			free(key);
		}
		free(word);
	}
	if (r == 0 && open)
		r = fail(inv, line, "host", "a quote is not closed");
	if (r == 0)
		r = expand_ranges(inv, line, first, &names);
	for (size_t i = 0; r == 0 && i < names.n; i++) {
		struct inv_host *h = find_host(inv, names.items[i]);

		if (!plan_group_name_valid(names.items[i])) {
			r = fail(inv, line, "host", "'%s' is not a host name bootab can name a directory after (letters, digits and _ . -)",
				 names.items[i]);
			break;
		}
		/* The name is the ssh destination when no ansible_host is given, and a directory's name. */
		if (names.items[i][0] == '-') {
			r = fail(inv, line, "host", "'%s' starts with '-': ssh would read it as an option", names.items[i]);
			break;
		}
		if (!h) {
			if (inv->n_hosts >= INVENTORY_MAX_HOSTS) {
				r = fail(inv, line, "host", "more than %d hosts", INVENTORY_MAX_HOSTS);
				break;
			}
			GROW(inv->hosts, inv->alloc_hosts, inv->n_hosts + 1);
			h = &inv->hosts[inv->n_hosts++];
			memset(h, 0, sizeof(*h));
			h->name = xstrdup(names.items[i]);
			h->line = line;
		}
		/* A host named again adds to its variables; a later value wins, as in Ansible. */
		for (int k = 0; k < VAR_COUNT; k++)
			if (vars.value[k]) {
				free(h->vars.value[k]);
				h->vars.value[k] = xstrdup(vars.value[k]);
				h->vars.line[k] = line;
			}
		if (group && strlist_find(&group->hosts, h->name) < 0)
			strlist_add(&group->hosts, h->name);
	}
	free(first);
	strlist_release(&names);
	var_set_release(&vars);
	return r;
}

static int vars_line(struct inventory *inv, unsigned line, struct inv_group *group, const char *text)
{
	char *key, *value;
	const char *raw;
	size_t n = strlen(text);
	int r;

	while (n && (text[n - 1] == ' ' || text[n - 1] == '\t'))
		n--;
	{
		char *trimmed = xstrndup(text, n), *eq = strchr(trimmed, '=');

		/* "key = value" and "key=value" alike. */
		if (eq) {
			char *k_end = eq;

			while (k_end > trimmed && (k_end[-1] == ' ' || k_end[-1] == '\t'))
				k_end--;
			raw = eq + 1;
			while (*raw == ' ' || *raw == '\t')
				raw++;
			{
				char *joined = xasprintf("%.*s=%s", (int)(k_end - trimmed), trimmed, raw);

				free(trimmed);
				trimmed = joined;
			}
		}
		r = split_assignment(inv, line, trimmed, &key, &raw);
		if (r == 0) {
			value = unquote(raw);
			r = set_var(inv, line, &group->vars, key, value);
			free(value);
			free(key);
		}
		free(trimmed);
	}
	return r;
}

static int parse_text(struct inventory *inv, const char *text)
{
	enum { SECTION_HOSTS, SECTION_VARS, SECTION_CHILDREN } kind = SECTION_HOSTS;
	struct inv_group *group = NULL;
	unsigned line = 0;
	int r = 0;

	for (const char *p = text; *p && r == 0;) {
		size_t len = strcspn(p, "\n");
		char *l = xstrndup(p, len), *s = l, *end;

		line++;
		p += len + (p[len] == '\n');
		if (len && l[len - 1] == '\r')
			l[len - 1] = '\0';
		while (*s == ' ' || *s == '\t')
			s++;
		end = s + strlen(s);
		while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
			*--end = '\0';
		if (!*s || *s == '#' || *s == ';') {
			free(l);
			continue;
		}
		for (const unsigned char *c = (const unsigned char *)s; *c; c++)
			if ((*c < ' ' && *c != '\t') || *c == 0x7f) {
				r = fail(inv, line, NULL, "a control character");
				break;
			}
		if (r < 0) {
			free(l);
			break;
		}
		if (*s == '[' && end[-1] == ']' && !strchr(s + 1, '[')) {
			char *name = xstrndup(s + 1, (size_t)(end - s - 2)), *colon = strchr(name, ':');

			kind = SECTION_HOSTS;
			if (colon) {
				if (!strcmp(colon + 1, "vars")) {
					kind = SECTION_VARS;
				} else if (!strcmp(colon + 1, "children")) {
					kind = SECTION_CHILDREN;
				} else {
					r = fail(inv, line, "section", "'[%s]' is not [GROUP], [GROUP:vars] or [GROUP:children]", name);
					free(name);
					free(l);
					break;
				}
				*colon = '\0';
			}
			if (!plan_group_name_valid(name)) {
				r = fail(inv, line, "section", "'%s' is not a group name (letters, digits and _ . -)", name);
			} else if (!strcmp(name, "ungrouped") && kind == SECTION_CHILDREN) {
				r = fail(inv, line, "section", "ungrouped has no children");
			} else if (!(group = get_group(inv, name, line))) {
				r = fail(inv, line, "section", "more than %d groups", INVENTORY_MAX_GROUPS);
			} else {
				if (kind == SECTION_CHILDREN && !group->children_line)
					group->children_line = line;
			}
			free(name);
			free(l);
			continue;
		}
		if (kind == SECTION_HOSTS)
			r = host_line(inv, line, group, s);
		else if (kind == SECTION_VARS)
			r = vars_line(inv, line, group, s);
		else if (!plan_group_name_valid(s))
			r = fail(inv, line, "children", "'%s' is not a group name (letters, digits and _ . -)", s);
		else if (!strcmp(s, "all") || !strcmp(s, group->name))
			r = fail(inv, line, "children", "'%s' cannot be a child of %s", s, group->name);
		else if (strlist_find(&group->children, s) < 0)
			strlist_add(&group->children, s);
		free(l);
	}
	return r;
}

/* A group's index by name: the groups sorted once, then a binary search. */
struct group_index {
	const struct inventory *inv;
	size_t *sorted;
};

static const struct inventory *sort_inv;

static int by_group_name(const void *a, const void *b)
{
	return strcmp(sort_inv->groups[*(const size_t *)a].name, sort_inv->groups[*(const size_t *)b].name);
}

static long group_index_find(const struct group_index *gi, const char *name)
{
	size_t lo = 0, hi = gi->inv->n_groups;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(gi->inv->groups[gi->sorted[mid]].name, name);

		if (c == 0)
			return (long)gi->sorted[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/*
 * Every group's children as indices (child[start[g]] .. child[start[g + 1]]),
 * each name looked up once: an inventory of many groups stays linear in
 * its size (n log n).
 */
static int resolve_children(struct inventory *inv)
{
	struct group_index gi = { inv, xcalloc(inv->n_groups ? inv->n_groups : 1, sizeof(size_t)) };
	size_t edges = 0;
	int r = 0;

	for (size_t i = 0; i < inv->n_groups; i++) {
		gi.sorted[i] = i;
		edges += inv->groups[i].children.n;
	}
	sort_inv = inv;
	qsort(gi.sorted, inv->n_groups, sizeof(size_t), by_group_name);
	sort_inv = NULL;
	inv->child_start = xcalloc(inv->n_groups + 1, sizeof(size_t));
	inv->child = xcalloc(edges ? edges : 1, sizeof(size_t));
	edges = 0;
	for (size_t i = 0; i < inv->n_groups && r == 0; i++) {
		const struct inv_group *g = &inv->groups[i];

		inv->child_start[i] = edges;
		for (size_t c = 0; c < g->children.n && r == 0; c++) {
			long k = group_index_find(&gi, g->children.items[c]);

			if (k < 0)
				r = fail(inv, g->children_line, "children", "'%s' is not a group of the inventory",
					 g->children.items[c]);
			else
				inv->child[edges++] = (size_t)k;
		}
	}
	inv->child_start[inv->n_groups] = edges;
	free(gi.sorted);
	return r;
}

/*
 * The groups of a cycle, named: every group Kahn's order left (done[] false)
 * has a parent it left too, so walking parents from one of them comes back
 * round; the cycle is said in the children's direction.
 */
static int cycle_error(struct inventory *inv, const bool *done)
{
	size_t *parent = xcalloc(inv->n_groups, sizeof(size_t)), *seen = xcalloc(inv->n_groups, sizeof(size_t));
	struct strbuf sb = STRBUF_INIT;
	size_t g = 0, step = 1;
	int r;

	for (size_t p = 0; p < inv->n_groups; p++)
		for (size_t e = inv->child_start[p]; e < inv->child_start[p + 1]; e++)
			if (!done[p] && !done[inv->child[e]])
				parent[inv->child[e]] = p;
	while (done[g])
		g++;
	/* Walk up until a group comes round again: seen[] holds the step it was met at. */
	while (!seen[g]) {
		seen[g] = step++;
		g = parent[g];
	}
	/* g is on the cycle: from g, parents lead back to g; say it child-wards. */
	{
		size_t *path = xcalloc(inv->n_groups + 1, sizeof(size_t)), n = 0, x = g;

		do {
			path[n++] = x;
			x = parent[x];
		} while (x != g);
		/* A long cycle is named by its first groups and its length: the error stays one line. */
		strbuf_addstr(&sb, inv->groups[g].name);
		for (size_t i = n; i-- > 0;) {
			if (n > 8 && i == n - 7) {
				strbuf_addf(&sb, " -> ... -> %s (%zu groups)", inv->groups[g].name, n);
				break;
			}
			strbuf_addf(&sb, " -> %s", inv->groups[path[i]].name);
		}
		free(path);
	}
	r = fail(inv, inv->groups[g].children_line, "children", "the groups' children form a cycle: %s",
		 strbuf_str(&sb));
	strbuf_release(&sb);
	free(parent);
	free(seen);
	return r;
}

/*
 * A group's depth: all is 0, every other group 1, a child one deeper than
 * its deepest parent. Ansible's precedence between groups of a host goes
 * by depth (then by name), and a group's variables override its parents'.
 * Kahn's topological order: each group and each child link once; a cycle
 * leaves groups unvisited and is an error naming them.
 */
static int compute_depths(struct inventory *inv)
{
	size_t *indegree, *queue, head = 0, tail = 0;
	bool *done;
	int r = resolve_children(inv);

	if (r < 0)
		return r;
	indegree = xcalloc(inv->n_groups ? inv->n_groups : 1, sizeof(size_t));
	queue = xcalloc(inv->n_groups ? inv->n_groups : 1, sizeof(size_t));
	done = xcalloc(inv->n_groups ? inv->n_groups : 1, sizeof(bool));
	for (size_t i = 0; i < inv->n_groups; i++)
		inv->groups[i].depth = strcmp(inv->groups[i].name, "all") ? 1 : 0;
	for (size_t e = 0; e < inv->child_start[inv->n_groups]; e++)
		indegree[inv->child[e]]++;
	for (size_t i = 0; i < inv->n_groups; i++)
		if (!indegree[i])
			queue[tail++] = i;
	while (head < tail) {
		size_t g = queue[head++];

		done[g] = true;
		for (size_t e = inv->child_start[g]; e < inv->child_start[g + 1]; e++) {
			struct inv_group *child = &inv->groups[inv->child[e]];

			if (child->depth < inv->groups[g].depth + 1)
				child->depth = inv->groups[g].depth + 1;
			if (--indegree[inv->child[e]] == 0)
				queue[tail++] = inv->child[e];
		}
	}
	if (tail < inv->n_groups)
		r = cycle_error(inv, done);
	free(indegree);
	free(queue);
	free(done);
	return r;
}

static bool host_in_group(const struct inv_group *g, const char *host)
{
	return strlist_find(&g->hosts, host) >= 0;
}

static bool host_grouped(const struct inventory *inv, const char *host)
{
	for (size_t i = 0; i < inv->n_groups; i++)
		if (strcmp(inv->groups[i].name, "all") && strcmp(inv->groups[i].name, "ungrouped") &&
		    host_in_group(&inv->groups[i], host))
			return true;
	return false;
}

static long host_index(const struct inventory *inv, const char *name)
{
	for (size_t i = 0; i < inv->n_hosts; i++)
		if (!strcmp(inv->hosts[i].name, name))
			return (long)i;
	return -1;
}

static int by_depth_deepest_first(const void *a, const void *b)
{
	const struct inv_group *const *x = a, *const *y = b;

	return (*x)->depth < (*y)->depth ? 1 : (*x)->depth > (*y)->depth ? -1 : 0;
}

/*
 * Which hosts each group holds, its children's included: all holds every
 * host, ungrouped those in no other group (and any named in it). Children
 * are deeper than their parents, so deepest first each child is complete
 * before its parents take it in.
 */
static void compute_members(struct inventory *inv)
{
	struct inv_group **order = xcalloc(inv->n_groups ? inv->n_groups : 1, sizeof(*order));
	size_t cells = inv->n_groups * inv->n_hosts;

	inv->member = xcalloc(cells ? cells : 1, sizeof(bool));
	for (size_t i = 0; i < inv->n_groups; i++)
		order[i] = &inv->groups[i];
	qsort(order, inv->n_groups, sizeof(*order), by_depth_deepest_first);
	for (size_t k = 0; k < inv->n_groups; k++) {
		struct inv_group *g = order[k];
		bool *row = inv->member + (size_t)(g - inv->groups) * inv->n_hosts;

		for (size_t h = 0; h < g->hosts.n; h++)
			row[host_index(inv, g->hosts.items[h])] = true;
		for (size_t e = inv->child_start[g - inv->groups]; e < inv->child_start[g - inv->groups + 1]; e++) {
			const bool *child_row = inv->member + inv->child[e] * inv->n_hosts;

			for (size_t h = 0; h < inv->n_hosts; h++)
				row[h] = row[h] || child_row[h];
		}
		if (!strcmp(g->name, "all"))
			for (size_t h = 0; h < inv->n_hosts; h++)
				row[h] = true;
		else if (!strcmp(g->name, "ungrouped"))
			for (size_t h = 0; h < inv->n_hosts; h++)
				row[h] = row[h] || !host_grouped(inv, inv->hosts[h].name);
	}
	free(order);
}

static bool host_member(const struct inventory *inv, const struct inv_group *g, const struct inv_host *h)
{
	return inv->member[(size_t)(g - inv->groups) * inv->n_hosts + (size_t)(h - inv->hosts)];
}

/*
 * A variable of host: its own line's value, else that of the deepest
 * group it belongs to (groups of one depth in the order of their names,
 * the last winning, as Ansible merges them), else all's.
 */
static const char *host_var(const struct inventory *inv, const struct inv_host *h, enum inventory_var var)
{
	const struct inv_group *best = NULL;

	if (h->vars.value[var])
		return h->vars.value[var];
	for (size_t i = 0; i < inv->n_groups; i++) {
		const struct inv_group *g = &inv->groups[i];

		if (!g->vars.value[var] || !host_member(inv, g, h))
			continue;
		if (!best || g->depth > best->depth || (g->depth == best->depth && strcmp(g->name, best->name) > 0))
			best = g;
	}
	return best ? best->vars.value[var] : NULL;
}

static char *destination_of(const char *host, const char *user, const char *port)
{
	bool v6 = strchr(host, ':') != NULL;

	if (port)
		return xasprintf("ssh://%s%s%s%s%s:%s", user ? user : "", user ? "@" : "", v6 ? "[" : "", host,
				 v6 ? "]" : "", port);
	return xasprintf("%s%s%s", user ? user : "", user ? "@" : "", host);
}

static void inventory_release(struct inventory *inv)
{
	for (size_t i = 0; i < inv->n_hosts; i++) {
		free(inv->hosts[i].name);
		var_set_release(&inv->hosts[i].vars);
	}
	for (size_t i = 0; i < inv->n_groups; i++) {
		free(inv->groups[i].name);
		strlist_release(&inv->groups[i].hosts);
		strlist_release(&inv->groups[i].children);
		var_set_release(&inv->groups[i].vars);
	}
	free(inv->hosts);
	free(inv->groups);
	free(inv->member);
	free(inv->child);
	free(inv->child_start);
}

int ansible_inventory_parse(const char *name, const char *text, const char *group, struct fleet *ret,
		    struct parse_error *err)
{
	struct inventory inv = { .file = name, .err = err };
	struct fleet fleet = { 0 };
	struct inv_group *selected;
	int r;

	parse_error_set_file(err, name);
	/* A UTF-8 byte-order mark, as some editors on Windows write one, is no part of the first line. */
	if (!strncmp(text, "\xEF\xBB\xBF", 3))
		text += 3;
	r = parse_text(&inv, text);
	if (r == 0)
		r = compute_depths(&inv);
	if (r < 0)
		goto out;
	compute_members(&inv);
	if (!group)
		group = "all";
	selected = find_group(&inv, group);
	if (!selected && strcmp(group, "all") && strcmp(group, "ungrouped")) {
		r = fail(&inv, 0, "group", "'%s' is not a group of the inventory", group);
		goto out;
	}
	fleet.boxes = xcalloc(inv.n_hosts ? inv.n_hosts : 1, sizeof(*fleet.boxes));
	for (size_t i = 0; i < inv.n_hosts; i++) {
		const struct inv_host *h = &inv.hosts[i];
		bool in = false;

		if (!strcmp(group, "all"))
			in = true;
		else if (!strcmp(group, "ungrouped") && !selected)
			in = !host_grouped(&inv, h->name);
		else
			in = host_member(&inv, selected, h);
		if (!in)
			continue;
		{
			const char *address = host_var(&inv, h, VAR_HOST);

			fleet.boxes[fleet.n].name = xstrdup(h->name);
			fleet.boxes[fleet.n].destination = destination_of(address ? address : h->name,
									  host_var(&inv, h, VAR_USER),
									  host_var(&inv, h, VAR_PORT));
			fleet.boxes[fleet.n].line = h->line;
			fleet.n++;
		}
	}
	*ret = fleet;
out:
	if (r < 0)
		fleet_release(&fleet);
	inventory_release(&inv);
	return r;
}
