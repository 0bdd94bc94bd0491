#ifndef BOOTAB_KERNEL_NOTES_H
#define BOOTAB_KERNEL_NOTES_H

#include <stddef.h>

/*
 * /sys/kernel/notes: the ELF notes of the running kernel's image (the
 * .notes section, Documentation/ABI/testing/sysfs-kernel-notes), among
 * them the GNU build id the linker put there (NT_GNU_BUILD_ID, name
 * "GNU"). Each note is namesz, descsz and type as 32-bit words, then the
 * name and the descriptor, each padded to 4 bytes (ELF gABI, "Note
 * Section").
 */

/*
 * The GNU build id in notes (len bytes) as lowercase hex, the caller's.
 * Words are read little-endian, else big-endian when that is the only
 * reading under which every note fits. Returns 0, -ENOENT when the notes
 * are well formed but hold no build id, -EINVAL when they are not notes;
 * *ret_hex is written only on 0.
 */
int kernel_notes_build_id(const unsigned char *notes, size_t len, char **ret_hex);

/*
 * Hex text (two lowercase or uppercase digits a byte, nothing else) to
 * bytes. Returns 0 with *ret (the caller's) and *ret_len, or -EINVAL.
 */
int hex_decode(const char *hex, unsigned char **ret, size_t *ret_len);

#endif
