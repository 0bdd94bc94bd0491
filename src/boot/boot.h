#ifndef BOOTAB_BOOT_BOOT_H
#define BOOTAB_BOOT_BOOT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "lib/parse-error.h"
#include "lib/process.h"

/*
 * Boot loader backends: how a mode's kernel args get into every boot entry
 * and into what the next kernel install inherits.
 *
 * A backend never touches the target itself. It reads through a struct
 * boot_io, and its plan() returns a list of actions (whole-file writes with
 * old and new content, and argv commands); boot_plan_execute() carries them
 * out with rollback, and --dry-run prints them instead. After the plan ran,
 * read_state() reads back what the boot loader will use.
 */

/*
 * How the boot layer reaches a target. Every path is absolute as seen on
 * the target ("/etc/default/grub"). Each call returns 0 or -errno (-ENOENT:
 * no such file), and writes its outputs only on success. An implementation
 * for another transport (SSH) provides the same seven calls; nothing else.
 */
struct boot_io {
	/* The whole file, NUL-terminated, the caller's (at most FILE_READ_MAX). */
	int (*read_file)(struct boot_io *io, const char *path, char **ret_data, size_t *ret_len);
	/* Replaces path atomically (temporary + rename in the same directory).
	 * An existing file keeps its permission bits; mode is for a new file. */
	int (*write_file)(struct boot_io *io, const char *path, const void *data, size_t len,
			  mode_t mode);
	/* rename(2) on the target: atomic within one file system. */
	int (*rename_file)(struct boot_io *io, const char *from, const char *to);
	/* unlink(2); -ENOENT when already gone. */
	int (*remove_file)(struct boot_io *io, const char *path);
	/* Names in a directory, sorted with strcmp, no "." and ".."; strv_free(). */
	int (*list_dir)(struct boot_io *io, const char *path, char ***ret_names, size_t *ret_count);
	/* 1 when path exists (following symlinks), 0 when not, -errno on error. */
	int (*exists)(struct boot_io *io, const char *path);
	/* 1 when path itself is a symbolic link, 0 when not (or absent), -errno on error. */
	int (*is_link)(struct boot_io *io, const char *path);
	/* Runs argv (never through a shell) as root on the target and captures
	 * its output. 0 when it ran, whatever its exit code; -ENOENT when the
	 * program is not there. *ret: process_result_release(). */
	int (*run)(struct boot_io *io, const char *const *argv, struct process_result *ret);
	/* NULL, or: 0 when run() may run program, else -EPERM with *ret_why
	 * (static) saying why; asked for every program before anything changes. */
	int (*may_run)(struct boot_io *io, const char *program, const char **ret_why);
	/* What this io reaches, for messages: "local", "local root /tmp/x". */
	char *description;
	void *data;
	/* Frees data at boot_io_free(); NULL when data is borrowed. */
	void (*release_data)(void *data);
};

/*
 * The local machine. With root NULL or "/", paths are used as they are and
 * programs are found in PATH. With another root, every path is taken
 * relative to root, and no program runs: a tree's own stand-ins (found in
 * ROOT/usr/sbin, ROOT/usr/bin, ROOT/sbin or ROOT/bin, run with
 * BOOTAB_ROOT=ROOT in their environment) run only when the test option
 * BOOTAB_TEST_ROOT_TOOLS=1 is in bootab's environment: a tree is data, and
 * its programs would run as whoever runs bootab.
 * Returns NULL when root is not a directory.
 */
struct boot_io *boot_io_local_new(const char *root);
void boot_io_free(struct boot_io *io);

/* Reads a file through io, -ENOENT mapped to *ret_data = NULL and 0. */
int boot_io_read_optional(struct boot_io *io, const char *path, char **ret_data, size_t *ret_len);

/* One step of a plan. */
enum boot_action_kind {
	BOOT_ACTION_WRITE,     /* replace a file's whole content */
	BOOT_ACTION_RUN,       /* run a command */
};

struct boot_action {
	enum boot_action_kind kind;
	/* WRITE */
	char *path;
	char *old_data;        /* NULL when the file does not exist yet */
	size_t old_len;
	char *new_data;
	size_t new_len;
	mode_t mode;           /* for a new file */
	/* RUN */
	char **argv;           /* NULL-terminated */
	bool regenerate;       /* output is a function of the files (update-grub,
				  kernel-install): rerun it after a rollback */
};

struct boot_plan {
	struct boot_action *actions;
	size_t n_actions;
	size_t alloc_actions;
	/* Files the commands may rewrite (grubby edits entries itself): saved
	 * before the first command, restored if a later step fails. */
	char **protect;
	size_t n_protect;
	size_t alloc_protect;
	/* What planning found, one line each ("3 entries in /boot/loader/entries"). */
	char **notes;
	size_t n_notes;
	size_t alloc_notes;
};

#define BOOT_PLAN_INIT { 0 }

/* Takes copies of its arguments. */
void boot_plan_add_write(struct boot_plan *plan, const char *path, const char *old_data,
			 size_t old_len, const char *new_data, size_t new_len, mode_t mode);
void boot_plan_add_run(struct boot_plan *plan, const char *const *argv, bool regenerate);
void boot_plan_add_protect(struct boot_plan *plan, const char *path);
void boot_plan_add_note(struct boot_plan *plan, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void boot_plan_release(struct boot_plan *plan);
/* Whether the plan changes anything (a write, or a command). */
bool boot_plan_changes(const struct boot_plan *plan);

/*
 * Carries out a plan. Every new file is first written to PATH.bootab-new;
 * only when all are written (and every file still holds what the plan
 * read) are they renamed over their targets; then the commands run in
 * order. On any failure, every file already replaced is put back as it
 * was, commands marked regenerate that had run are run again on the
 * restored files, every protected file is put back byte for byte, and err
 * says what failed and where
 * (err->file: the path or program; message: why, with the first line of
 * the tool's stderr). Returns 0 or a negative errno (-EIO: a command
 * exited non-zero, -ESTALE: a file changed since planning).
 */
int boot_plan_execute(struct boot_io *io, const struct boot_plan *plan, struct parse_error *err);

/* One boot entry as the boot loader will use it. */
struct boot_entry_args {
	char *name;            /* entry file name, title or index, as the backend knows it */
	char *args;            /* the kernel command line it passes */
};

/* What read_state() found. */
struct boot_state {
	struct boot_entry_args *entries;
	size_t n_entries;
	size_t alloc_entries;
	size_t default_index;  /* into entries; valid when has_default */
	bool has_default;
	char *default_rule;    /* how the default was chosen ("loader.conf default lab.conf") */
	char *default_kernel;  /* the release (else image) the default entry boots; NULL: not known */
	/* What the next kernel install inherits. */
	char *inherit_source;  /* "/etc/kernel/cmdline", "GRUB_CMDLINE_LINUX", ... */
	char *inherit_args;    /* NULL: nothing persistent, see inherit_note */
	char *inherit_note;    /* why inherit_args is NULL, or NULL */
	bool inherit_checked;  /* inherit_args must carry the mode */
};

#define BOOT_STATE_INIT { 0 }

void boot_state_add_entry(struct boot_state *state, const char *name, const char *args);
void boot_state_release(struct boot_state *state);

/*
 * One kernel a boot loader can boot, as its backend lists it. The mode's
 * `kernel` (a release or a /boot path) is matched against these.
 */
struct boot_kernel {
	char *release;         /* as uname -r will print it; NULL when nothing says */
	char *image;           /* absolute path on the target: /boot/vmlinuz-6.1.0-57-amd64 */
	char *initrd;          /* absolute path; NULL when the entry has none */
	char *entry;           /* the boot loader's id: BLS entry file name, GRUB menu path
				  "SUBMENU-ID>ENTRY-ID", grubby entry id, UKI file name */
	char *title;           /* NULL when none */
};

struct boot_kernels {
	struct boot_kernel *v;
	size_t n, alloc;
};

#define BOOT_KERNELS_INIT { 0 }

/* Takes copies; any argument but image may be NULL. */
void boot_kernels_add(struct boot_kernels *kernels, const char *release, const char *image,
		      const char *initrd, const char *entry, const char *title);
void boot_kernels_release(struct boot_kernels *kernels);

/*
 * The first kernel spec names: spec is a release (equal to release) or an
 * absolute path (equal to image). NULL when none; borrowed from kernels.
 */
const struct boot_kernel *boot_kernels_find(const struct boot_kernels *kernels, const char *spec);

/* "6.1.0-57-amd64, 6.12.57+deb12-amd64" (each release once, images without one by path);
 * "none" when empty. The caller's. */
char *boot_kernels_describe(const struct boot_kernels *kernels);

/* The release an image's file name says ("/boot/vmlinuz-6.1.0-57-amd64" -> "6.1.0-57-amd64"),
 * or NULL; the caller's. */
char *boot_image_release(const char *image);

struct boot_backend {
	const char *name;
	const char *summary;
	/*
	 * 1 when this backend applies to the target, 0 when not, -errno on
	 * I/O error. On 1, *ret_found says what was found (the caller's).
	 */
	int (*detect)(struct boot_io *io, char **ret_found);
	/*
	 * Plans the toggle: strip every arg named in managed from every entry,
	 * then add args. managed includes the names of args. kernel (one of
	 * kernels()'s, or NULL to leave the default kernel as it is) becomes
	 * the kernel the next boot runs: the default entry (kexec: the image
	 * loaded). Reads through io
	 * (and may run read-only commands such as `grubby --info=ALL`) but
	 * changes nothing. On error, err names the file, line and what is wrong.
	 */
	int (*plan)(struct boot_io *io, char *const *managed, char *const *args,
		    const struct boot_kernel *kernel, struct boot_plan *plan,
		    struct parse_error *err);
	/*
	 * The kernels this boot loader can boot, in its menu order, each once
	 * (recovery entries left out). 0 with *ret (boot_kernels_release()),
	 * or -errno with err.
	 */
	int (*kernels)(struct boot_io *io, struct boot_kernels *ret, struct parse_error *err);
	/*
	 * Reads back the entries, the default entry and what a new kernel
	 * inherits. applied is the plan that ran (or NULL), for a backend whose
	 * result the target cannot show (kexec: the loaded kernel's args).
	 */
	int (*read_state)(struct boot_io *io, const struct boot_plan *applied,
			  struct boot_state *ret, struct parse_error *err);
};

extern const struct boot_backend boot_backend_grubby;
extern const struct boot_backend boot_backend_bls;
extern const struct boot_backend boot_backend_kernel_cmdline;
extern const struct boot_backend boot_backend_grub;
extern const struct boot_backend boot_backend_kexec;

/* Every backend, in detection order, NULL-terminated. */
extern const struct boot_backend *const boot_backends[];

/* The backend called name (exact), or NULL. */
const struct boot_backend *boot_backend_find(const char *name);

/*
 * The first backend whose detect() says yes, in the order grubby, bls,
 * kernel-cmdline, grub (kexec is never picked on its own). Returns 0 with
 * *ret and *ret_found (the caller's), -ENODEV when none fits, or -errno.
 */
int boot_backend_detect(struct boot_io *io, const struct boot_backend **ret, char **ret_found);

#endif
