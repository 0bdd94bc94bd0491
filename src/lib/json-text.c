/* JSON text whose reals read back exactly at their fewest digits (lib/json-text.h). */
#include "lib/json-text.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* v in jansson's form ("0.05", "5.0", "1e-5") at the fewest significant digits that read back as v. */
static int put_real(FILE *out, double v)
{
	json_t *real = json_real(v);
	char digits[40], *text;
	int precision = 1;
	long exponent;

	/* 17 significant digits tell every double apart (C17 DBL_DECIMAL_DIG). */
	for (; precision < 17; precision++) {
		snprintf(digits, sizeof(digits), "%.*g", precision, v);
		if (strtod(digits, NULL) == v)
			break;
	}
	/* %g writes 400 at one digit as 4e+02: whole numbers up to 17 digits keep their digits. */
	snprintf(digits, sizeof(digits), "%.*e", precision - 1, v);
	exponent = strtol(strchr(digits, 'e') + 1, NULL, 10);
	if (exponent >= precision && exponent < 17)
		precision = (int)exponent + 1;
	text = real ? json_dumps(real, JSON_ENCODE_ANY | JSON_REAL_PRECISION(precision)) : NULL;
	json_decref(real);
	if (!text)
		return -ENOMEM;
	fputs(text, out);
	free(text);
	return 0;
}

int json_text_dump(FILE *out, const json_t *root, size_t flags)
{
	char *text = json_dumps(root, flags | JSON_REAL_PRECISION(17));
	bool in_string = false;
	int r = 0;

	if (!text)
		return -ENOMEM;
	for (const char *p = text; *p;) {
		size_t n;

		if (in_string) {
			/* Up to the closing quote; an escaped character is no quote. */
			n = strcspn(p, "\\\"");
			if (p[n] == '\\' && p[n + 1])
				n += 2;
			else if (p[n] == '"')
				in_string = false, n++;
			fwrite(p, 1, n, out);
		} else if (*p == '-' || (*p >= '0' && *p <= '9')) {
			n = strspn(p, "+-.0123456789eE");
			/* An integer is written as it is; only a real has a "." or an exponent. */
			if (strcspn(p, ".eE") < n) {
				if ((r = put_real(out, strtod(p, NULL))) < 0)
					break;
			} else {
				fwrite(p, 1, n, out);
			}
		} else {
			in_string = *p == '"';
			n = 1;
			fputc(*p, out);
		}
		p += n;
	}
	free(text);
	return r < 0 ? r : ferror(out) ? -EIO : 0;
}

char *json_text(const json_t *root, size_t flags)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	int r;

	if (!out)
		return NULL;
	r = json_text_dump(out, root, flags);
	if (fclose(out) != 0 || r < 0) {
		free(text);
		return NULL;
	}
	return text;
}
