#include "judge/costs.h"

#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/pattern.h"
#include "lib/strbuf.h"

#define NOISE_EXAMPLES 5

const char *found_kind_name(enum found_kind kind)
{
	switch (kind) {
	case FOUND_DRIVER:
		return "driver";
	case FOUND_DEVICE_GONE:
		return "device-gone";
	case FOUND_NODE_GONE:
		return "node-gone";
	case FOUND_NETIF_GONE:
		return "netif-gone";
	case FOUND_LINK_DOWN:
		return "link-down";
	case FOUND_KLOG_NEW:
		return "kernel-log";
	case FOUND_UNIT_FAILED:
		return "unit-failed";
	case FOUND_UNIT_RECOVERED:
		return "unit-recovered";
	case FOUND_KLOG_GONE:
		break;
	}
	return "kernel-log-gone";
}

int costs_pattern_check(const char *pattern, char **ret_error)
{
	regex_t re;
	char *error = NULL;
	int r = pattern_compile(&re, pattern, REG_NOSUB, &error);

	if (r == -EINVAL)
		*ret_error = xasprintf("'%s' is not an extended regular expression: %s", pattern, error);
	else if (r < 0)
		*ret_error = xasprintf("'%s': %s", pattern, error);
	free(error);
	if (r < 0)
		return -EINVAL;
	regfree(&re);
	return 0;
}

/* What the search needs: the sides, the baseline and the patterns. */
struct search {
	const struct side *sides;
	size_t n_sides;
	size_t *base;          /* baseline sides with devices / klog / units */
	size_t n_base_dev, n_base_klog, n_base_units;
	size_t *base_klog, *base_units;
	regex_t *ignore;
	size_t n_ignore;
	struct costs_result *res;
	size_t alloc;
};

static bool is_baseline(const struct search *s, size_t k)
{
	return !strcmp(s->sides[k].mode, s->sides[0].mode);
}

/* "pt, pt2", or "all 5 boots of pt" for many. */
static char *labels_of(const struct search *s, const size_t *idx, size_t n)
{
	struct strbuf sb = STRBUF_INIT;

	if (n > 3) {
		strbuf_addf(&sb, "all %zu boots of %s", n, s->sides[0].mode);
		return strbuf_detach(&sb, NULL);
	}
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", s->sides[idx[i]].label);
	return strbuf_detach(&sb, NULL);
}

static bool ignored(struct search *s, const char *subject)
{
	for (size_t i = 0; i < s->n_ignore; i++) {
		if (regexec(&s->ignore[i], subject, 0, NULL, 0) == 0) {
			s->res->n_ignored++;
			return true;
		}
	}
	return false;
}

/* Adds a finding; takes subject and text. */
static struct found *add(struct search *s, size_t side, enum found_kind kind, char *subject, char *text)
{
	struct found *f;

	if (ignored(s, subject)) {
		free(subject);
		free(text);
		return NULL;
	}
	GROW(s->res->found, s->alloc, s->res->n_found + 1);
	f = &s->res->found[s->res->n_found++];
	*f = (struct found){ .side = side, .kind = kind, .gain = kind == FOUND_KLOG_GONE || kind == FOUND_UNIT_RECOVERED,
			     .subject = subject, .text = text, .level = -1, .time = NAN };
	s->res->n_costs += !f->gain;
	return f;
}

/* "0000:c7:00.1 Strix/Krackan/Strix Halo Neural Processing Unit", from whichever boot named it. */
static char *device_title(const struct search *s, size_t side, const char *address)
{
	const struct inventory_pci *d = inventory_find_pci(&s->sides[side].inventory, address);

	for (size_t i = 0; (!d || !d->name) && i < s->n_base_dev; i++) {
		const struct inventory_pci *b = inventory_find_pci(&s->sides[s->base[i]].inventory, address);

		if (b && (b->name || !d))
			d = b;
	}
	for (size_t i = 0; (!d || !d->class_name) && i < s->n_base_dev; i++) {
		const struct inventory_pci *b = inventory_find_pci(&s->sides[s->base[i]].inventory, address);

		if (b && b->class_name && !(d && d->name))
			d = b;
	}
	if (d && d->name)
		return xasprintf("%s %s", address, d->name);
	/* A device newer than pci.ids: its class and numbers, as lspci prints them. */
	if (d && d->vendor != IOMMU_ID_ABSENT && d->device != IOMMU_ID_ABSENT)
		return xasprintf("%s %s%s[%04x:%04x]", address, d->class_name ? d->class_name : "",
				 d->class_name ? " " : "", d->vendor, d->device);
	return xstrdup(address);
}

static void find_devices(struct search *s, size_t k)
{
	const struct inventory *first = &s->sides[s->base[0]].inventory, *inv = &s->sides[k].inventory;
	char *on = labels_of(s, s->base, s->n_base_dev);

	for (size_t i = 0; i < first->n_pci; i++) {
		const struct inventory_pci *d0 = &first->pci[i], *d;
		const char *driver = d0->driver;
		bool everywhere = true;
		char *title;
		struct found *f;

		for (size_t b = 1; b < s->n_base_dev && everywhere; b++) {
			const struct inventory_pci *db = inventory_find_pci(&s->sides[s->base[b]].inventory, d0->address);

			everywhere = db && (!driver == !db->driver) && (!driver || !strcmp(driver, db->driver));
		}
		if (!everywhere)
			continue;
		d = inventory_find_pci(inv, d0->address);
		if (d && (!driver == !d->driver) && (!driver || !strcmp(driver, d->driver)))
			continue;
		title = device_title(s, k, d0->address);
		if (!d) {
			f = add(s, k, FOUND_DEVICE_GONE, xstrdup(title), xasprintf("%s: gone (on %s)", title, on));
		} else if (!driver) {
			/* A device that gained a driver is no cost. */
			free(title);
			continue;
		} else if (!d->driver) {
			f = add(s, k, FOUND_DRIVER, xstrdup(title),
				xasprintf("%s: no driver (%s bound on %s)", title, driver, on));
		} else {
			f = add(s, k, FOUND_DRIVER, xstrdup(title),
				xasprintf("%s: driver %s (%s bound on %s)", title, d->driver, driver, on));
		}
		if (f) {
			f->address = xstrdup(d0->address);
			f->baseline_value = driver ? xstrdup(driver) : NULL;
			f->value = d && d->driver ? xstrdup(d->driver) : NULL;
		}
		free(title);
	}
	for (size_t i = 0; i < first->n_nodes; i++) {
		const char *dev = first->nodes[i].dev;
		bool everywhere = true, here = false;

		for (size_t b = 1; b < s->n_base_dev && everywhere; b++) {
			const struct inventory *ib = &s->sides[s->base[b]].inventory;
			bool found = false;

			for (size_t j = 0; j < ib->n_nodes && !found; j++)
				found = !strcmp(ib->nodes[j].dev, dev);
			everywhere = found;
		}
		for (size_t j = 0; j < inv->n_nodes && !here; j++)
			here = !strcmp(inv->nodes[j].dev, dev);
		if (everywhere && !here)
			add(s, k, FOUND_NODE_GONE, xstrdup(dev), xasprintf("%s gone (present on %s)", dev, on));
	}
	for (size_t i = 0; i < first->n_netifs; i++) {
		const struct inventory_netif *n0 = &first->netifs[i], *n = NULL;
		bool everywhere = true, up = !strcmp(n0->operstate, "up");
		struct found *f;

		/* Virtual interfaces (no device) come and go with their users. */
		if (!n0->device)
			continue;
		for (size_t b = 1; b < s->n_base_dev && everywhere; b++) {
			const struct inventory *ib = &s->sides[s->base[b]].inventory;
			const struct inventory_netif *nb = NULL;

			for (size_t j = 0; j < ib->n_netifs && !nb; j++)
				if (!strcmp(ib->netifs[j].name, n0->name))
					nb = &ib->netifs[j];
			everywhere = nb != NULL;
			up &= nb && !strcmp(nb->operstate, "up");
		}
		if (!everywhere)
			continue;
		for (size_t j = 0; j < inv->n_netifs && !n; j++)
			if (!strcmp(inv->netifs[j].name, n0->name))
				n = &inv->netifs[j];
		if (!n) {
			add(s, k, FOUND_NETIF_GONE, xstrdup(n0->name),
			    xasprintf("interface %s gone (present on %s)", n0->name, on));
		} else if (up && strcmp(n->operstate, "up")) {
			f = add(s, k, FOUND_LINK_DOWN, xstrdup(n0->name),
				xasprintf("interface %s %s (up on %s)", n0->name, n->operstate, on));
			if (f) {
				f->baseline_value = xstrdup("up");
				f->value = xstrdup(n->operstate);
			}
		}
	}
	free(on);
}

/* The first line of inv with key, and how many there are; NULL when none. */
static const struct klog_line *klog_find(const struct inventory *inv, const char *key, size_t *ret_count)
{
	const struct klog_line *first = NULL;
	size_t n = 0;

	for (size_t i = 0; i < inv->n_klog; i++) {
		if (strcmp(inv->klog[i].key, key))
			continue;
		if (!first)
			first = &inv->klog[i];
		n++;
	}
	if (ret_count)
		*ret_count = n;
	return first;
}

/* Whether line i of inv is the first with its key. */
static bool klog_first(const struct inventory *inv, size_t i)
{
	return klog_find(inv, inv->klog[i].key, NULL) == &inv->klog[i];
}

static bool klog_truncated(const struct inventory *inv)
{
	return inv->klog_count > inv->n_klog;
}

static const char *level_word(int level)
{
	return level <= 3 ? "error" : "warning";
}

static void find_klog(struct search *s, size_t k)
{
	const struct inventory *inv = &s->sides[k].inventory;
	bool base_truncated = false;

	for (size_t b = 0; b < s->n_base_klog; b++)
		base_truncated |= klog_truncated(&s->sides[s->base_klog[b]].inventory);
	/* A baseline log cut at its limit may hold any line: claim nothing new. */
	if (!base_truncated) {
		for (size_t i = 0; i < inv->n_klog; i++) {
			const struct klog_line *l = &inv->klog[i];
			bool on_base = false;
			struct found *f;
			size_t count;
			int level = l->level;

			if (!klog_first(inv, i))
				continue;
			for (size_t b = 0; b < s->n_base_klog && !on_base; b++)
				on_base = klog_find(&s->sides[s->base_klog[b]].inventory, l->key, NULL) != NULL;
			if (on_base)
				continue;
			/* The line at its most severe. */
			klog_find(inv, l->key, &count);
			for (size_t j = i; j < inv->n_klog; j++)
				if (!strcmp(inv->klog[j].key, l->key) && inv->klog[j].level < level)
					level = inv->klog[j].level;
			f = add(s, k, FOUND_KLOG_NEW, xstrdup(l->text),
				xasprintf("new kernel %s: %s", level_word(level), l->text));
			if (f) {
				f->level = level;
				f->time = l->time;
				f->count = count;
				if (count > 1) {
					char *t = xasprintf("%s (%zu times)", f->text, count);

					free(f->text);
					f->text = t;
				}
			}
		}
	}
}

/* Lines every baseline boot printed and the side did not: the mode made them go away. */
static void find_klog_gone(struct search *s, size_t k)
{
	const struct inventory *inv = &s->sides[k].inventory;
	char *on;

	if (klog_truncated(inv))
		return;
	on = labels_of(s, s->base_klog, s->n_base_klog);
	{
		const struct inventory *first = &s->sides[s->base_klog[0]].inventory;

		for (size_t i = 0; i < first->n_klog; i++) {
			const struct klog_line *l = &first->klog[i];
			bool everywhere = true;
			struct found *f;
			size_t count;

			if (!klog_first(first, i))
				continue;
			for (size_t b = 1; b < s->n_base_klog && everywhere; b++)
				everywhere = klog_find(&s->sides[s->base_klog[b]].inventory, l->key, NULL) != NULL;
			if (!everywhere || klog_find(inv, l->key, NULL))
				continue;
			klog_find(first, l->key, &count);
			f = add(s, k, FOUND_KLOG_GONE, xstrdup(l->text),
				xasprintf("kernel %s gone: %s (on %s)", level_word(l->level), l->text, on));
			if (f) {
				f->level = l->level;
				f->count = count;
			}
		}
	}
	free(on);
}

static void find_units(struct search *s, size_t k)
{
	const struct inventory *inv = &s->sides[k].inventory;

	for (size_t i = 0; i < inv->n_failed_units; i++) {
		const char *unit = inv->failed_units[i];
		bool on_base = false;

		for (size_t b = 0; b < s->n_base_units && !on_base; b++) {
			const struct inventory *ib = &s->sides[s->base_units[b]].inventory;

			for (size_t j = 0; j < ib->n_failed_units && !on_base; j++)
				on_base = !strcmp(ib->failed_units[j], unit);
		}
		if (!on_base)
			add(s, k, FOUND_UNIT_FAILED, xstrdup(unit), xasprintf("unit %s failed", unit));
	}
	/* The reverse: a unit that failed on every baseline boot and not here. */
	{
		const struct inventory *first = &s->sides[s->base_units[0]].inventory;
		char *on = NULL;

		for (size_t i = 0; i < first->n_failed_units; i++) {
			const char *unit = first->failed_units[i];
			bool everywhere = true, here = false;

			for (size_t b = 1; b < s->n_base_units && everywhere; b++) {
				const struct inventory *ib = &s->sides[s->base_units[b]].inventory;
				bool found = false;

				for (size_t j = 0; j < ib->n_failed_units && !found; j++)
					found = !strcmp(ib->failed_units[j], unit);
				everywhere = found;
			}
			for (size_t j = 0; j < inv->n_failed_units && !here; j++)
				here = !strcmp(inv->failed_units[j], unit);
			if (!everywhere || here)
				continue;
			if (!on)
				on = labels_of(s, s->base_units, s->n_base_units);
			add(s, k, FOUND_UNIT_RECOVERED, xstrdup(unit),
			    xasprintf("unit %s did not fail (failed on %s)", unit, on));
		}
		free(on);
	}
}

static void add_noise_example(struct costs_result *res, const char *prefix, const char *what)
{
	if (res->noise_examples.n < NOISE_EXAMPLES)
		strlist_addf(&res->noise_examples, "%s%s", prefix, what);
}

/* What differs between the baseline boots: counted, blamed on nothing. */
static void find_noise(struct search *s)
{
	struct costs_result *res = s->res;

	for (size_t a = 0; a < s->n_base_klog; a++) {
		const struct inventory *ia = &s->sides[s->base_klog[a]].inventory;

		for (size_t i = 0; i < ia->n_klog; i++) {
			bool everywhere = true, seen_before = false;

			if (!klog_first(ia, i))
				continue;
			for (size_t b = 0; b < a && !seen_before; b++)
				seen_before = klog_find(&s->sides[s->base_klog[b]].inventory, ia->klog[i].key, NULL) != NULL;
			if (seen_before)
				continue;
			for (size_t b = 0; b < s->n_base_klog && everywhere; b++)
				everywhere = klog_find(&s->sides[s->base_klog[b]].inventory, ia->klog[i].key, NULL) != NULL;
			if (everywhere)
				continue;
			res->noise_klog++;
			add_noise_example(res, "kernel: ", ia->klog[i].text);
		}
	}
	if (s->n_base_dev >= 2) {
		const struct inventory *first = &s->sides[s->base[0]].inventory;

		for (size_t i = 0; i < first->n_pci; i++) {
			const struct inventory_pci *d0 = &first->pci[i];

			for (size_t b = 1; b < s->n_base_dev; b++) {
				const struct inventory_pci *db = inventory_find_pci(&s->sides[s->base[b]].inventory, d0->address);

				if (!db || !d0->driver != !db->driver || (d0->driver && strcmp(d0->driver, db->driver))) {
					res->noise_devices++;
					add_noise_example(res, "device ", d0->address);
					break;
				}
			}
		}
	}
	for (size_t a = 0; a < s->n_base_units; a++) {
		const struct inventory *ia = &s->sides[s->base_units[a]].inventory;

		for (size_t i = 0; i < ia->n_failed_units; i++) {
			bool everywhere = true, seen_before = false;

			for (size_t b = 0; b < a && !seen_before; b++) {
				const struct inventory *ib = &s->sides[s->base_units[b]].inventory;

				for (size_t j = 0; j < ib->n_failed_units && !seen_before; j++)
					seen_before = !strcmp(ib->failed_units[j], ia->failed_units[i]);
			}
			if (seen_before)
				continue;
			for (size_t b = 0; b < s->n_base_units && everywhere; b++) {
				const struct inventory *ib = &s->sides[s->base_units[b]].inventory;
				bool found = false;

				for (size_t j = 0; j < ib->n_failed_units && !found; j++)
					found = !strcmp(ib->failed_units[j], ia->failed_units[i]);
				everywhere = found;
			}
			if (!everywhere) {
				res->noise_units++;
				add_noise_example(res, "failed unit ", ia->failed_units[i]);
			}
		}
	}
}

int costs_find(const struct side *sides, size_t n_sides, const struct strlist *ignore,
	       struct costs_result *ret)
{
	struct costs_result res = { .noise_examples = STRLIST_INIT, .notes = STRLIST_INIT };
	struct search s = { .sides = sides, .n_sides = n_sides, .res = &res };
	size_t n_ignore = ignore ? ignore->n : 0;
	int r = 0;

	s.ignore = xcalloc(n_ignore + 1, sizeof(*s.ignore));
	for (size_t i = 0; i < n_ignore; i++) {
		char *error = NULL;

		if (pattern_compile(&s.ignore[i], ignore->items[i], REG_NOSUB, &error) < 0) {
			free(error);
			r = -EINVAL;
			goto out;
		}
		s.n_ignore++;
	}
	s.base = xcalloc(n_sides + 1, sizeof(*s.base));
	s.base_klog = xcalloc(n_sides + 1, sizeof(*s.base_klog));
	s.base_units = xcalloc(n_sides + 1, sizeof(*s.base_units));
	res.judged = xcalloc(n_sides + 1, sizeof(*res.judged));
	for (size_t k = 0; k < n_sides; k++) {
		const struct inventory *inv = &sides[k].inventory;

		if (!is_baseline(&s, k))
			continue;
		if (inv->has_devices)
			s.base[s.n_base_dev++] = k;
		if (inv->has_klog)
			s.base_klog[s.n_base_klog++] = k;
		if (inv->has_units)
			s.base_units[s.n_base_units++] = k;
		res.n_baseline += inv->has_devices || inv->has_klog || inv->has_units;
	}
	{
		size_t *all = xcalloc(n_sides + 1, sizeof(*all)), n = 0;

		for (size_t k = 0; k < n_sides; k++) {
			const struct inventory *inv = &sides[k].inventory;

			if (is_baseline(&s, k) && (inv->has_devices || inv->has_klog || inv->has_units))
				all[n++] = k;
		}
		res.baseline = labels_of(&s, all, n);
		free(all);
	}
	find_noise(&s);
	for (size_t k = 1; k < n_sides; k++) {
		const struct inventory *inv = &sides[k].inventory;
		bool any = false;

		if (is_baseline(&s, k))
			continue;
		if (inv->has_devices && s.n_base_dev) {
			find_devices(&s, k);
			any = true;
		}
		if (inv->has_klog && s.n_base_klog) {
			find_klog(&s, k);
			any = true;
		}
		if (inv->has_units && s.n_base_units) {
			find_units(&s, k);
			any = true;
		}
		if (inv->has_klog && s.n_base_klog)
			find_klog_gone(&s, k);
		res.judged[k] = any;
		if (!any && (inv->has_devices || inv->has_klog || inv->has_units))
			strlist_addf(&res.notes, "%s: no boot of %s recorded devices, a kernel log or units to compare it with",
				     sides[k].label, sides[0].mode);
		else if (any && klog_truncated(inv))
			strlist_addf(&res.notes, "%s: its kernel log held %lu error and warning lines; only the first %zu were compared",
				     sides[k].label, inv->klog_count, inv->n_klog);
	}
	for (size_t b = 0; b < s.n_base_klog; b++) {
		const struct inventory *inv = &sides[s.base_klog[b]].inventory;

		if (klog_truncated(inv))
			strlist_addf(&res.notes, "%s: its kernel log held %lu error and warning lines, more than the %zu recorded: no line is called new",
				     sides[s.base_klog[b]].label, inv->klog_count, inv->n_klog);
	}
out:
	for (size_t i = 0; i < s.n_ignore; i++)
		regfree(&s.ignore[i]);
	free(s.ignore);
	free(s.base);
	free(s.base_klog);
	free(s.base_units);
	if (r < 0) {
		costs_result_release(&res);
		return r;
	}
	*ret = res;
	return 0;
}

void costs_result_release(struct costs_result *res)
{
	if (!res)
		return;
	for (size_t i = 0; i < res->n_found; i++) {
		free(res->found[i].subject);
		free(res->found[i].text);
		free(res->found[i].address);
		free(res->found[i].baseline_value);
		free(res->found[i].value);
	}
	free(res->found);
	free(res->baseline);
	free(res->judged);
	strlist_release(&res->noise_examples);
	strlist_release(&res->notes);
	memset(res, 0, sizeof(*res));
}
