#ifndef BOOTAB_LAB_H
#define BOOTAB_LAB_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * The lab: a target box in QEMU (q35, TCG, emulated Intel IOMMU, OVMF,
 * systemd-boot, the Debian kernel, a busybox initramfs with dropbear),
 * reached over SSH on a random loopback port. lab/build.sh makes its files;
 * this module starts, watches and stops the QEMU process. docs/lab.md
 * describes the whole thing.
 *
 * Layout of the lab directory:
 *   vmlinuz initrd esp.img vars.fd data.img stamp   built by lab/build.sh
 *   keys/id_ed25519, known_hosts                   controller key, host key
 *   run/qemu.pid run/monitor.sock run/qmp.sock run/serial.sock run/serial.log
 *   run/resets (the reset watcher's log: one line per reset)
 *   run/ssh_config run/port run/started            while QEMU runs
 *
 * The contract for every other part of bootab: while the lab runs,
 *   ssh -F <dir>/run/ssh_config bootab-lab CMD
 * reaches the guest as root with strict host-key checking.
 *
 * Nothing here prints; functions return 0 or -errno.
 */

/* The Host name in run/ssh_config. */
#define LAB_SSH_HOST "bootab-lab"

/* The serial-console line the guest's /init prints once it is up. */
#define LAB_READY_MARKER "bootab-lab: ready boot_id="

/*
 * Which guest a lab directory holds: the busybox initramfs with
 * systemd-boot (lab/build.sh, the default) or Debian 12 with systemd and
 * GRUB on a GPT disk (lab/build-debian.sh). The builder writes "debian"
 * into <dir>/guest for the latter.
 */
enum lab_guest {
	LAB_GUEST_BUSYBOX,
	LAB_GUEST_DEBIAN,
};

/* "busybox" or "debian". Returns 0, or -EINVAL. */
int lab_guest_parse(const char *name, enum lab_guest *ret);

/* The guest <dir>/guest names; LAB_GUEST_BUSYBOX when there is none. */
enum lab_guest lab_guest_read(const char *dir);

struct lab_status {
	bool running;   /* the tracked pid is alive and is our QEMU */
	pid_t pid;      /* the tracked pid (0: none recorded) */
	int port;       /* the SSH port on 127.0.0.1 (0: unknown) */
};

/*
 * The lab directory: $BOOTAB_LAB_DIR if set and not empty, else
 * $XDG_CACHE_HOME/bootab/lab, else $HOME/.cache/bootab/lab. The result is
 * the caller's. Returns 0, or -ENOENT when none of them is set.
 */
int lab_dir_resolve(char **ret_dir);

/*
 * As lab_dir_resolve(), with the default directory named after the guest:
 * .../bootab/lab for busybox, .../bootab/lab-debian for debian.
 * BOOTAB_LAB_DIR, when set, is used for either.
 */
int lab_dir_resolve_guest(enum lab_guest guest, char **ret_dir);

/* <dir>/run/ssh_config, the caller's. */
char *lab_ssh_config_path(const char *dir);

/*
 * Named boxes (bootab lab --name NAME): more guests from one lab's build,
 * each in <lab>/boxes/NAME with its own run/ (port, monitor, QEMU), its own
 * copy of the disks the guest writes and its own machine-id, and the Host
 * alias bootab-lab-NAME in its run/ssh_config. lab/box.sh makes one (it
 * writes NAME into <box>/name). Every function here that takes a lab
 * directory takes a box's directory as well.
 */
#define LAB_BOX_NAME_MAX 32

/* A box name: 1 to LAB_BOX_NAME_MAX of a-z 0-9 -, not starting with '-'. */
bool lab_box_name_valid(const char *name);

/* <lab_dir>/boxes/<name>, the caller's. */
char *lab_box_dir(const char *lab_dir, const char *name);

/*
 * Makes or refreshes box name of the lab at lab_dir with lab/box.sh (next
 * to builder): a no-op when it is there and the lab was not rebuilt since,
 * unless force. Its output goes to our stderr; *ret_exit gets its exit
 * code. Returns 0 when it ran, -errno when it could not start.
 */
int lab_box_make(const char *lab_dir, const char *name, const char *builder, bool force, int *ret_exit);

/* The Host alias in dir's run/ssh_config: bootab-lab, or bootab-lab-NAME for a box. The caller's. */
char *lab_ssh_host(const char *dir);

/*
 * The builder script: $BOOTAB_LAB_SOURCE/build.sh if BOOTAB_LAB_SOURCE is
 * set (then it must exist), else lab/build.sh next to the binary's source
 * tree (<exe dir>/../lab or <exe dir>/lab) or an installed copy
 * (<exe dir>/../share/bootab/lab). exe is the path of the running binary
 * (/proc/self/exe when NULL). Returns 0, or -ENOENT.
 */
int lab_builder_find(const char *exe, char **ret_path);

/*
 * Runs the builder (bash, with BOOTAB_LAB_DIR=dir) in this process group:
 * builder itself for the busybox guest, build-debian.sh next to it for the
 * Debian guest (which also gets BOOTAB_LAB_BOOTAB, the running binary, to
 * put in the guest),
 * so a Ctrl-C on the terminal reaches it too; its output goes to our
 * stdout and stderr. *ret_exit gets its exit code (128 + signal when a
 * signal ended it). Returns 0 when it ran, -errno when it could not start.
 */
int lab_build(const char *dir, const char *builder, enum lab_guest guest, bool force, int *ret_exit);

/*
 * Whether the lab's outputs exist (busybox: vmlinuz, initrd, esp.img,
 * vars.fd, data.img, stamp, keys/id_ed25519, known_hosts; debian: disk.img
 * instead of the first three, and guest).
 */
bool lab_is_built(const char *dir);

/*
 * Whether a NUL-separated /proc/PID/cmdline of len bytes is a QEMU this lab
 * started: argv[0] is a qemu-system-* binary and "-pidfile" is followed by
 * <run_dir>/qemu.pid.
 */
bool lab_cmdline_is_ours(const char *cmdline, size_t len, const char *run_dir);

/*
 * Reads run/qemu.pid and run/port and checks /proc/PID/cmdline. A missing
 * pid file is not an error (running = false). Returns 0 or -errno.
 */
int lab_status_read(const char *dir, struct lab_status *ret);

/*
 * The ssh_config text for a lab at dir listening on port: Host bootab-lab
 * (a box: bootab-lab-NAME),
 * 127.0.0.1, root, the lab's key only, the lab's known_hosts under
 * HostKeyAlias bootab-lab, strict host-key checking, batch mode, a 5 s
 * connect timeout. The result is the caller's.
 */
char *lab_ssh_config_format(const char *dir, int port);

/*
 * Starts QEMU in the background (-daemonize) on a free loopback port and
 * writes run/ssh_config, run/port and run/started. The lab must be built
 * and not running (-EALREADY when it is). Does not wait for the guest.
 * On error nothing of ours is left running. *ret_err, when not NULL, gets
 * QEMU's error output on failure (the caller's; may be set to NULL).
 * LAB_SMT gives the guest its two CPUs as two threads of one core
 * (-smp 2,sockets=1,cores=1,threads=2) instead of two cores, so SMT
 * exists and nosmt has something to turn off.
 */
enum lab_start_flags {
	LAB_SMT = 1 << 0,
};

int lab_start(const char *dir, unsigned flags, struct lab_status *ret, char **ret_err);

/*
 * Waits until the guest answers over SSH with a boot_id different from
 * not_boot_id (NULL: any), for at most timeout_ms. The guest's serial log
 * marker (LAB_READY_MARKER) triggers an SSH attempt as soon as it appears;
 * without it, SSH is tried every 10 s. Returns 0 and the boot_id (the
 * caller's), -ETIMEDOUT, -ECANCELED when *cancel became non-zero, -ESRCH
 * when QEMU exited meanwhile. With ret_halt, a console that shows a stopped
 * boot (lab_console_halted) printed since the wait began and silent for 20 s
 * ends the wait early: -EPIPE, and *ret_halt is that line (the caller's).
 */
int lab_wait_ready(const char *dir, const char *not_boot_id, int timeout_ms,
		   const volatile sig_atomic_t *cancel, char **ret_boot_id, char **ret_halt);

/*
 * The line of a console log (len bytes of serial output, terminal control
 * sequences and all) that shows its boot stopped for good and waits at a
 * keyboard: GRUB's "Failed to boot both default and fallback entries" or
 * its prompts, a kernel panic, systemd's emergency shell; NULL when none,
 * or when the machine went on after it (a reboot, a reset's firmware, a
 * kernel starting). Trimmed, the caller's.
 */
char *lab_console_halted(const char *text, size_t len);

/*
 * Reads /proc/sys/kernel/random/boot_id over SSH (one attempt, at most
 * timeout_ms). Returns 0 and the boot_id (the caller's), -EHOSTUNREACH when
 * SSH did not answer, -EBADMSG when the answer is not a boot_id.
 */
int lab_boot_id(const char *dir, int timeout_ms, char **ret_boot_id);

/*
 * Sends one human-monitor command (e.g. "system_reset") over
 * run/monitor.sock and returns QEMU's reply text (the caller's, may be
 * empty) in *ret_reply when not NULL. Returns 0 or -errno (-ECONNREFUSED
 * or -ENOENT when QEMU is not running).
 */
int lab_monitor_command(const char *dir, const char *command, char **ret_reply);

/*
 * The last max_lines non-empty lines of run/serial.log, without terminal
 * control sequences (NULL-terminated, strv_free()). They may still hold
 * other control bytes: escape them before printing. Returns 0 or -errno.
 */
int lab_serial_tail(const char *dir, size_t max_lines, char ***ret_lines);

/* A hard reset of the guest (the lab's power cycle): "system_reset". */
int lab_power_cycle(const char *dir);

/*
 * Stops the lab: flushes the guest's file systems over SSH when it answers
 * (bounded), tells QEMU to quit over the monitor, waits up to timeout_ms for
 * the tracked pid to go, then ends that pid (after checking its cmdline is
 * our QEMU) with SIGTERM and SIGKILL. Removes the run files except
 * serial.log. *ret_was_running tells whether anything was running.
 * Returns 0 or -errno.
 */
int lab_stop(const char *dir, int timeout_ms, bool *ret_was_running);

#endif
