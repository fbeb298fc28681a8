#include "base/text.h"

#include <stdint.h>
#include <string.h>

int text_ctrl(unsigned long c)
{
	return c < 0x20 || c == 0x7f;
}

void text_clean(char *s)
{
	for (; s && *s; s++)
		if (text_ctrl((unsigned char)*s))
			*s = '?';
}

size_t text_line(const char *s, const char **next)
{
	const char *nl = strchr(s, '\n');
	*next = nl ? nl + 1 : NULL;
	return nl ? (size_t)(nl - s) : strlen(s);
}

void text_put(FILE *f, const char *s, size_t len, const char *also)
{
	for (size_t i = 0; i < len && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];
		int bad = text_ctrl(c);
		for (const char *a = also; a && *a && !bad; a++)
			bad = c == (unsigned char)*a;
		fputc(bad ? '?' : c, f);
	}
}

int utf8_cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

size_t utf8_len(const unsigned char *s)
{
	if (s[0] < 0x80)
		return 1;
	size_t n = (s[0] & 0xe0) == 0xc0   ? 2
		   : (s[0] & 0xf0) == 0xe0 ? 3
		   : (s[0] & 0xf8) == 0xf0 ? 4
					   : 0;
	if (!n || s[0] == 0xc0 || s[0] == 0xc1 || s[0] > 0xf4)
		return 0;
	for (size_t i = 1; i < n; i++)
		if (!utf8_cont(s[i]))
			return 0;
	return n;
}

size_t utf8_chars(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += !utf8_cont((unsigned char)*s);
	return n;
}

size_t utf8_floor(const char *s, size_t i)
{
	while (i > 0 && utf8_cont((unsigned char)s[i]))
		i--;
	return i;
}

size_t utf8_ceil(const char *s, size_t i, size_t len)
{
	while (i < len && utf8_cont((unsigned char)s[i]))
		i++;
	return i;
}

int utf8_decode(const char *s, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	if (u[0] < 0x80) {
		*cp = u[0];
		return 1;
	}
	int n = (u[0] & 0xe0) == 0xc0	? 2
		: (u[0] & 0xf0) == 0xe0 ? 3
		: (u[0] & 0xf8) == 0xf0 ? 4
					: 0;
	if (!n) {
		*cp = '?';
		return 1;
	}
	uint32_t v = u[0] & (0x7f >> n);
	for (int i = 1; i < n; i++) {
		if (!utf8_cont(u[i])) {
			*cp = '?';
			return i;
		}
		v = v << 6 | (u[i] & 0x3f);
	}
	*cp = v;
	return n;
}

int utf8_encode(uint32_t cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}
