#ifndef BOOTAB_LIB_SECRET_H
#define BOOTAB_LIB_SECRET_H

/*
 * While bootab holds a secret in memory (the sudo password), nothing may
 * copy that memory out: secret_hold() makes the process not dumpable
 * (prctl(2) PR_SET_DUMPABLE 0: no core dump, no ptrace attach or
 * /proc/PID/mem read by the same user) and sets RLIMIT_CORE to 0. Holds
 * nest: the first turns both off, the last secret_release() puts back the
 * dumpable flag and core limit there were before. secret_hold() returns 0
 * or -errno (nothing held then, nothing to release). The caller still
 * wipes its buffers (explicit_bzero) before secret_release().
 */
int secret_hold(void);
void secret_release(void);

#endif
