/*
 * grub.cfg as grub-mkconfig writes it, read: its menu entries and their
 * linux lines, the submenus around them, the kernels it boots and the
 * entry a GRUB default names.
 */

#include "boot/grub-internal.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/parse-number.h"
#include "lib/strbuf.h"

static char *quoted_word(const char *p, const char **ret_end)
{
	char q = *p;
	const char *end;

	if (q != '\'' && q != '"')
		return NULL;
	end = strchr(p + 1, q);
	if (!end)
		return NULL;
	*ret_end = end + 1;
	return xstrndup(p + 1, (size_t)(end - p - 1));
}

static void strv_append(char ***v, size_t *n, char *s)
{
	*v = xrealloc(*v, (*n + 2) * sizeof(char *));
	(*v)[(*n)++] = s;
	(*v)[*n] = NULL;
}

int grub_cfg_entries(const char *text, char ***ret_titles, char ***ret_ids, char ***ret_args)
{
	char **titles = xcalloc(1, sizeof(char *)), **ids = xcalloc(1, sizeof(char *));
	char **args = xcalloc(1, sizeof(char *));
	char *title = NULL, *id = NULL;
	size_t n = 0, n_ids = 0, n_args = 0;

	for (size_t pos = 0; text[pos];) {
		size_t end = line_end(text, pos);
		char *line = xstrndup(text + pos, end - pos);
		const char *p = line;

		while (blank(*p))
			p++;
		if (!strncmp(p, "menuentry", 9) && blank(p[9])) {
			const char *q = p + 10, *after = NULL, *o;

			while (blank(*q))
				q++;
			free(title);
			free(id);
			title = quoted_word(q, &after);
			id = NULL;
			o = strstr(p, "$menuentry_id_option");
			if (o) {
				o += strlen("$menuentry_id_option");
				while (blank(*o))
					o++;
				id = quoted_word(o, &after);
			}
		} else if (title && (!strncmp(p, "linux", 5) || !strncmp(p, "linuxefi", 8))) {
			const char *q = p + (strncmp(p, "linuxefi", 8) ? 5 : 8);

			if (blank(*q)) {
				while (blank(*q))
					q++;
				while (*q && !blank(*q))  /* the kernel image */
					q++;
				while (blank(*q))
					q++;
				strv_append(&titles, &n, xstrdup(title));
				strv_append(&ids, &n_ids, xstrdup(id ? id : ""));
				strv_append(&args, &n_args, xstrdup(q));
				free(title);
				title = NULL;
			}
		}
		free(line);
		pos = end + (text[end] == '\n');
	}
	free(title);
	free(id);
	*ret_titles = titles;
	*ret_ids = ids;
	*ret_args = args;
	return 0;
}

/* ---- grub.cfg's menu ---- */

void grub_menu_entry_release(struct menu_entry *e)
{
	for (size_t i = 0; i < e->depth; i++) {
		free(e->levels[i].title);
		free(e->levels[i].id);
	}
	free(e->image);
	free(e->initrd);
}

/* The title and $menuentry_id_option id of a menuentry/submenu line (p after the keyword). */
static void menu_title_id(const char *p, char **ret_title, char **ret_id)
{
	const char *after = NULL, *o;

	while (blank(*p))
		p++;
	*ret_title = quoted_word(p, &after);
	*ret_id = NULL;
	o = strstr(p, "$menuentry_id_option");
	if (o) {
		o += strlen("$menuentry_id_option");
		while (blank(*o))
			o++;
		*ret_id = quoted_word(o, &after);
	}
}

/* The word after a linux/initrd keyword: the image path. */
static char *first_word(const char *q)
{
	const char *start;

	while (blank(*q))
		q++;
	start = q;
	while (*q && !blank(*q))
		q++;
	return q > start ? xstrndup(start, (size_t)(q - start)) : NULL;
}

/* An image path in grub.cfg is relative to the partition GRUB reads: a
 * separate /boot shows as "/vmlinuz-...". */
static char *boot_path(const char *p)
{
	if (!strncmp(p, "/boot/", 6))
		return xstrdup(p);
	return xasprintf("/boot%s%s", p[0] == '/' ? "" : "/", p);
}

/* Every menuentry with a linux line, with the submenus around it. */
size_t grub_cfg_menu(const char *text, struct menu_entry **ret)
{
	struct menu_entry *v = NULL, cur = { 0 };
	struct menu_item open[GRUB_MENU_DEPTH] = { 0 };
	size_t counts[GRUB_MENU_DEPTH + 1] = { 0 };
	/* What each '{' opened: 's' submenu, 'm' menuentry, 'o' anything else. */
	char stack[64];
	size_t n = 0, alloc = 0, depth = 0, menus = 0;
	bool in_entry = false;

	for (size_t pos = 0; text[pos];) {
		size_t end = line_end(text, pos);
		char *line = xstrndup(text + pos, end - pos);
		const char *p = line;
		size_t len;

		while (blank(*p))
			p++;
		len = strlen(p);
		while (len && blank(p[len - 1]))
			len--;
		if ((!strncmp(p, "submenu", 7) && blank(p[7])) || (!strncmp(p, "menuentry", 9) && blank(p[9]))) {
			bool sub = p[0] == 's';
			char *title, *id;

			menu_title_id(p + (sub ? 8 : 10), &title, &id);
			if (menus < GRUB_MENU_DEPTH) {
				open[menus].title = title ? title : xstrdup("");
				open[menus].id = id ? id : xstrdup("");
				open[menus].index = counts[menus]++;
				counts[menus + 1] = 0;
			} else {
				free(title);
				free(id);
			}
			menus++;
			if (depth < sizeof(stack))
				stack[depth] = sub ? 's' : 'm';
			depth++;
			if (!sub && menus <= GRUB_MENU_DEPTH) {
				memset(&cur, 0, sizeof(cur));
				cur.body_start = end + (text[end] == '\n');
				in_entry = true;
			}
		} else if (len == 1 && p[0] == '}') {
			if (depth) {
				char kind = depth <= sizeof(stack) ? stack[depth - 1] : 'o';

				depth--;
				if (kind == 's' || kind == 'm') {
					menus--;
					if (kind == 'm' && in_entry && cur.image && menus < GRUB_MENU_DEPTH) {
						cur.depth = menus + 1;
						cur.body_end = pos;
						for (size_t i = 0; i < cur.depth; i++) {
							cur.levels[i].title = xstrdup(open[i].title);
							cur.levels[i].id = xstrdup(open[i].id);
							cur.levels[i].index = open[i].index;
						}
						cur.recovery = strstr(open[menus].id, "-recovery-") ||
							       strstr(open[menus].title, "(recovery mode)");
						GROW(v, alloc, n + 1);
						v[n++] = cur;
						memset(&cur, 0, sizeof(cur));
					} else if (kind == 'm') {
						free(cur.image);
						free(cur.initrd);
						memset(&cur, 0, sizeof(cur));
					}
					if (kind == 'm')
						in_entry = false;
					if (menus < GRUB_MENU_DEPTH) {
						free(open[menus].title);
						free(open[menus].id);
						open[menus].title = open[menus].id = NULL;
					}
				}
			}
		} else if (len && p[len - 1] == '{') {
			/* if/function blocks */
			if (depth < sizeof(stack))
				stack[depth] = 'o';
			depth++;
		} else if (in_entry && (!strncmp(p, "linux", 5) || !strncmp(p, "linuxefi", 8))) {
			const char *q = p + (strncmp(p, "linuxefi", 8) ? 5 : 8);

			if (blank(*q) && !cur.image) {
				char *w = first_word(q);

				cur.image = w ? boot_path(w) : NULL;
				free(w);
			}
		} else if (in_entry && (!strncmp(p, "initrd", 6) || !strncmp(p, "initrdefi", 9))) {
			const char *q = p + (strncmp(p, "initrdefi", 9) ? 6 : 9);

			if (blank(*q) && !cur.initrd) {
				char *w = first_word(q);

				cur.initrd = w ? boot_path(w) : NULL;
				free(w);
			}
		}
		free(line);
		pos = end + (text[end] == '\n');
	}
	free(cur.image);
	free(cur.initrd);
	for (size_t i = 0; i < GRUB_MENU_DEPTH; i++) {
		free(open[i].title);
		free(open[i].id);
	}
	*ret = v;
	return n;
}

/* "gnulinux-advanced-UUID>gnulinux-6.1.0-18-amd64-advanced-UUID": ids where
 * every level has one, else titles (as grub-reboot and GRUB_DEFAULT take them). */
char *grub_menu_path(const struct menu_entry *e)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < e->depth; i++) {
		if (i)
			strbuf_addch(&sb, '>');
		strbuf_addstr(&sb, *e->levels[i].id ? e->levels[i].id : e->levels[i].title);
	}
	return strbuf_detach(&sb, NULL);
}

/* Whether a GRUB default ("0", "1>2", an id or title path) names entry e. */
static bool menu_matches(const struct menu_entry *e, const char *spec)
{
	size_t level = 0;

	for (const char *p = spec;; level++) {
		const char *gt = strchr(p, '>');
		size_t len = gt ? (size_t)(gt - p) : strlen(p);
		const struct menu_item *it;
		char *part;
		long num;

		if (level >= e->depth)
			return false;
		it = &e->levels[level];
		part = xstrndup(p, len);
		if (!((number_parse_long(part, 0, LONG_MAX, &num) == 0 && (size_t)num == it->index) ||
		      !strcmp(part, it->id) ||
		      !strcmp(part, it->title))) {
			free(part);
			return false;
		}
		free(part);
		if (!gt)
			return level + 1 == e->depth;
		p = gt + 1;
	}
}

int grub_cfg_kernels(const char *text, struct boot_kernels *ret)
{
	struct menu_entry *menu = NULL;
	size_t n = grub_cfg_menu(text, &menu);
	struct boot_kernels kernels = BOOT_KERNELS_INIT;

	for (size_t i = 0; i < n; i++) {
		const struct menu_entry *e = &menu[i];
		char *release = boot_image_release(e->image), *path;
		bool later = false;

		if (e->recovery) {
			free(release);
			continue;
		}
		/* The top-level entry follows the newest kernel; the submenu entry
		 * of a kernel keeps its id when another kernel is installed. */
		for (size_t k = i + 1; k < n && release && e->depth == 1; k++) {
			char *other = boot_image_release(menu[k].image);

			later = later || (other && !strcmp(other, release) && !menu[k].recovery &&
					  menu[k].depth > 1);
			free(other);
		}
		if (!later) {
			path = grub_menu_path(e);
			boot_kernels_add(&kernels, release, e->image, e->initrd, path,
					 e->levels[e->depth - 1].title);
			free(path);
		}
		free(release);
	}
	for (size_t i = 0; i < n; i++)
		grub_menu_entry_release(&menu[i]);
	free(menu);
	*ret = kernels;
	return 0;
}

char *grub_cfg_default_kernel(const char *text, const char *spec)
{
	struct menu_entry *menu = NULL;
	size_t n = grub_cfg_menu(text, &menu);
	char *found = NULL;

	for (size_t i = 0; i < n && !found; i++)
		if (menu_matches(&menu[i], spec))
			found = menu[i].image ? (boot_image_release(menu[i].image) ?: xstrdup(menu[i].image))
					      : NULL;
	/* "0" when the first item is a submenu: GRUB boots nothing by it; leave it unknown. */
	for (size_t i = 0; i < n; i++)
		grub_menu_entry_release(&menu[i]);
	free(menu);
	return found;
}
