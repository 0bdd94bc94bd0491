/*
 * Reaching the lab's guest over SSH: its ssh_config and host alias, its
 * boot id, and waiting until a boot answers (or its console shows it
 * stopped).
 */

#include "lab/lab-internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/alloc.h"
#include "lib/file.h"
#include "lib/process.h"
#include "lib/strbuf.h"

#define SSH_ATTEMPT_TIMEOUT_MS 12000
#define SSH_RETRY_MS 10000
#define SSH_RETRY_AFTER_MARKER_MS 1000
/* A console that shows a stopped boot and stays silent this long has stopped. */
#define HALT_QUIET_MS 20000

char *lab_ssh_config_path(const char *dir)
{
	return run_path(dir, "ssh_config");
}

char *lab_ssh_host(const char *dir)
{
	char *p = path_join(dir, "name"), *data = NULL, *host;
	size_t len = 0;

	if (file_read(p, 64, &data, &len) == 0 && len > 1 && data[len - 1] == '\n') {
		data[len - 1] = '\0';
		if (lab_box_name_valid(data)) {
			host = xasprintf("%s-%s", LAB_SSH_HOST, data);
			free(data);
			free(p);
			return host;
		}
	}
	free(data);
	free(p);
	return xstrdup(LAB_SSH_HOST);
}

char *lab_ssh_config_format(const char *dir, int port)
{
	struct strbuf sb = STRBUF_INIT;
	char *host = lab_ssh_host(dir);

	/*
	 * -F with this file replaces ~/.ssh/config and /etc/ssh/ssh_config, so
	 * the block says everything: the lab's own key and known_hosts, under
	 * an alias that does not depend on the random port (a named box's
	 * guest has the lab's host key: the same alias checks it).
	 */
	strbuf_addf(&sb,
		    "# Written by 'bootab lab up'; valid while the lab runs.\n"
		    "Host %s\n"
		    "\tHostName 127.0.0.1\n"
		    "\tPort %d\n"
		    "\tUser root\n"
		    "\tIdentityFile \"%s/keys/id_ed25519\"\n"
		    "\tIdentitiesOnly yes\n"
		    "\tUserKnownHostsFile \"%s/known_hosts\"\n"
		    "\tGlobalKnownHostsFile /dev/null\n"
		    "\tHostKeyAlias %s\n"
		    "\tStrictHostKeyChecking yes\n"
		    "\tBatchMode yes\n"
		    "\tConnectTimeout 5\n"
		    "\tLogLevel ERROR\n",
		    host, port, dir, dir, LAB_SSH_HOST);
	free(host);
	return strbuf_detach(&sb, NULL);
}

static bool is_boot_id(const char *s, size_t len)
{
	/* /proc/sys/kernel/random/boot_id: a UUID, 8-4-4-4-12 lowercase hex. */
	if (len != 36)
		return false;
	for (size_t i = 0; i < len; i++) {
		bool dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash ? s[i] != '-' : !strchr("0123456789abcdef", s[i]))
			return false;
	}
	return true;
}

int lab_boot_id(const char *dir, int timeout_ms, char **ret_boot_id)
{
	char *config = lab_ssh_config_path(dir), *host = lab_ssh_host(dir);
	const char *argv[] = {
		"ssh", "-F", config, host, "cat /proc/sys/kernel/random/boot_id", NULL,
	};
	struct process_options o = { .timeout_ms = timeout_ms, .max_output = 4096 };
	struct process_result res;
	size_t len;
	int r;

	r = process_run(argv, &o, &res);
	free(config);
	free(host);
	if (r < 0)
		return r;
	len = res.out_len;
	while (len && (res.out[len - 1] == '\n' || res.out[len - 1] == '\r'))
		len--;
	if (res.exit_code != 0 || res.timed_out)
		r = -EHOSTUNREACH;
	else if (!is_boot_id(res.out, len))
		r = -EBADMSG;
	else
		*ret_boot_id = xstrndup(res.out, len);
	process_result_release(&res);
	return r;
}

int lab_wait_ready(const char *dir, const char *not_boot_id, int timeout_ms,
		   const volatile sig_atomic_t *cancel, char **ret_boot_id, char **ret_halt)
{
	long long start = now_ms(), deadline = start + timeout_ms;
	long long next_ssh = start + SSH_RETRY_MS, grew = start;
	char *log = run_path(dir, "serial.log");
	off_t offset = 0, from, size = -1;
	bool marker = false, halt_checked = false;
	struct stat lst;
	int r;

	if (not_boot_id && stat(log, &lst) == 0)
		offset = lst.st_size;   /* only markers printed from now on count */
	from = offset;
	for (;;) {
		struct lab_status st;
		long long now = now_ms();

		if (cancel && *cancel) {
			r = -ECANCELED;
			break;
		}
		if (lab_status_read(dir, &st) < 0 || !st.running) {
			r = -ESRCH;
			break;
		}
		if (ret_halt && stat(log, &lst) == 0 && lst.st_size != size) {
			size = lst.st_size;
			grew = now;
			halt_checked = false;
		}
		if (ret_halt && !halt_checked && now - grew >= HALT_QUIET_MS) {
			halt_checked = true;
			if (lab_console_stopped(log, from, size, ret_halt)) {
				r = -EPIPE;
				break;
			}
		}
		if (lab_serial_marker_seen(dir, &offset)) {
			marker = true;
			next_ssh = now;
		}
		if (now >= next_ssh || now >= deadline) {
			long long left = deadline - now;
			char *boot_id = NULL;

			r = lab_boot_id(dir, left < SSH_ATTEMPT_TIMEOUT_MS && left > 1000
					? (int)left : SSH_ATTEMPT_TIMEOUT_MS, &boot_id);
			if (r == 0 && (!not_boot_id || strcmp(boot_id, not_boot_id))) {
				*ret_boot_id = boot_id;
				break;
			}
			free(boot_id);
			now = now_ms();
			next_ssh = now + (marker ? SSH_RETRY_AFTER_MARKER_MS : SSH_RETRY_MS);
		}
		if (now >= deadline) {
			r = -ETIMEDOUT;
			break;
		}
		sleep_ms(200);
	}
	free(log);
	return r;
}
