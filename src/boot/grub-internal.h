#ifndef BOOTAB_BOOT_GRUB_INTERNAL_H
#define BOOTAB_BOOT_GRUB_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "boot/grub.h"

/*
 * What the files of the grub backend share; nothing outside
 * src/boot/grub*.c includes this. grub.c is the backend,
 * grub-default.c the assignments of /etc/default/grub, grub-cfg.c the
 * reading of grub.cfg, grub-oneshot.c the one-shot entry in custom.cfg.
 */

#define DEFAULT_GRUB "/etc/default/grub"
#define DEFAULT_GRUB_D "/etc/default/grub.d"
#define GRUB_CFG "/boot/grub/grub.cfg"
#define GRUBENV "/boot/grub/grubenv"

static inline bool blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The offset of the '\n' that ends the line at i, or of the text's end. */
static inline size_t line_end(const char *text, size_t i)
{
	const char *nl = strchr(text + i, '\n');

	return nl ? (size_t)(nl - text) : strlen(text);
}

/* /etc/default/grub and its drop-ins, in the order grub-mkconfig sources them. */
struct grub_files {
	char **paths;          /* DEFAULT_GRUB first, then the drop-ins in glob order */
	char **texts;
	size_t *lens;
	size_t n;
};

/* Reads them through io: 0 and *ret (grub_files_release()), or -errno with err (the file). */
int grub_files_read(struct boot_io *io, struct grub_files *ret, struct parse_error *err);
void grub_files_release(struct grub_files *f);

/*
 * The release (else image) of the kernel GRUB boots by default:
 * grub_default names its entry, or for "saved" grubenv's saved_entry
 * does. NULL when it names none. The caller's.
 */
char *grub_default_kernel(struct boot_io *io, const char *cfg, const char *grub_default);

#define GRUB_MENU_DEPTH 8

struct menu_item {
	char *title, *id;
	size_t index;          /* among its siblings */
};

/* A menuentry of grub.cfg with a linux line, and the submenus around it. */
struct menu_entry {
	struct menu_item levels[GRUB_MENU_DEPTH];
	size_t depth;          /* levels used: 1 at top level, 2 inside a submenu */
	char *image, *initrd;
	bool recovery;
	size_t body_start, body_end;   /* the entry's lines between '{' and '}' in the text */
};

/* Every menuentry of text with a linux line, in file order: *ret (the caller's), their count. */
size_t grub_cfg_menu(const char *text, struct menu_entry **ret);
void grub_menu_entry_release(struct menu_entry *e);
/*
 * "gnulinux-advanced-UUID>gnulinux-6.1.0-18-amd64-advanced-UUID": ids where
 * every level has one, else titles (as grub-reboot and GRUB_DEFAULT take
 * them). The caller's.
 */
char *grub_menu_path(const struct menu_entry *e);

#endif
