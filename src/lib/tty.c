#include "lib/tty.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "lib/alloc.h"
#include "lib/parse-number.h"

#define SECRET_MAX 1024

int tty_read_secret(const char *prompt, char **ret_secret)
{
	struct termios saved, quiet;
	char buf[SECRET_MAX];
	size_t len = 0;
	int fd, r = 0;

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
	if (tcsetattr(fd, TCSAFLUSH, &quiet) < 0 || write(fd, prompt, strlen(prompt)) < 0) {
		tcsetattr(fd, TCSAFLUSH, &saved);
		close(fd);
		return -ENOTTY;
	}
	for (;;) {
		char c;
		ssize_t n = read(fd, &c, 1);

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
