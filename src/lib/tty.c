#include "lib/tty.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "lib/alloc.h"
#include "lib/parse-number.h"

#define SECRET_MAX 1024

/* The signal that ended the prompt (0: none yet). */
static volatile sig_atomic_t prompt_signal;

static void on_prompt_signal(int sig)
{
	prompt_signal = sig;
}

/*
 * The signals a user sends from the keyboard or a session end, caught
 * while echo is off: each interrupts the read, so the terminal is put back
 * before the signal takes its course (a command's own handler, or the
 * default action). No SA_RESTART: read() returns EINTR.
 */
static const int prompt_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
#define N_PROMPT_SIGNALS (sizeof(prompt_signals) / sizeof(prompt_signals[0]))

int tty_read_secret(const char *prompt, char **ret_secret)
{
	struct sigaction catch = { .sa_handler = on_prompt_signal }, old[N_PROMPT_SIGNALS];
	struct termios saved, quiet;
	char buf[SECRET_MAX];
	size_t len = 0;
	int fd, r = 0, sig;

	fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -ENOTTY;
	if (tcgetattr(fd, &saved) < 0) {
		close(fd);
		return -ENOTTY;
	}
	quiet = saved;
	quiet.c_lflag &= (tcflag_t)~(ECHO | ECHOE | ECHOK | ECHONL);
	quiet.c_lflag |= ICANON;
	/*
	 * Echo goes off before the prompt is shown: what is typed once the
	 * prompt is there is never flushed, and never echoed.
	 */
	prompt_signal = 0;
	sigemptyset(&catch.sa_mask);
	for (size_t i = 0; i < N_PROMPT_SIGNALS; i++)
		sigaction(prompt_signals[i], &catch, &old[i]);
	if (tcsetattr(fd, TCSAFLUSH, &quiet) < 0 || write(fd, prompt, strlen(prompt)) < 0) {
		tcsetattr(fd, TCSAFLUSH, &saved);
		close(fd);
		r = -ENOTTY;
		goto signals;
	}
	for (;;) {
		char c;
		ssize_t n = prompt_signal ? -1 : read(fd, &c, 1);

		if (prompt_signal) {
			r = -EINTR;
			break;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = len ? 0 : -ECANCELED;
			break;
		}
		if (c == '\n' || c == '\r')
			break;
		if (len + 1 >= sizeof(buf)) {
			r = -E2BIG;
			break;
		}
		buf[len++] = c;
	}
	tcsetattr(fd, TCSAFLUSH, &saved);
	if (write(fd, "\n", 1) < 0)
		r = r ? r : 0;
	close(fd);
	if (r == 0) {
		*ret_secret = xstrndup(buf, len);
	}
	explicit_bzero(buf, sizeof(buf));
signals:
	sig = prompt_signal;
	for (size_t i = 0; i < N_PROMPT_SIGNALS; i++)
		sigaction(prompt_signals[i], &old[i], NULL);
	/* The terminal is back as it was: the signal now does what it would have done. */
	if (sig)
		raise(sig);
	return r;
}

unsigned tty_columns(int fd)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;
	long v;

	if (!isatty(fd))
		return 0;

	if (env && number_parse_long(env, 20, 1000, &v) == 0)
		return (unsigned)v;
	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		return ws.ws_col;
	return 0;
}
