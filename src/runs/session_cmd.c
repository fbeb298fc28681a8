/*
 * session_cmd — the --cmd entries of a session (session_impl.h): each
 * command split into words with {src} and {dst} substituted (no shell), its
 * program looked up on PATH as execvp would, so a misspelt one is a usage
 * error before anything is written, and its label (--name, or made from
 * the program), unique and never a strategy's name.
 */
#include "runs/session_impl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

/* Splits --cmd on blanks (no shell: quoting is not interpreted) and
 * substitutes {src} and {dst}. */
char **session_cmd_split(const char *cmd, const char *src, const char *dst)
{
	size_t n = 0, cap = 8;
	char **argv = xcalloc(cap, sizeof(*argv));
	const char *p = cmd;
	while (*p) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		const char *e = p;
		while (*e && *e != ' ' && *e != '\t')
			e++;
		char word[4096];
		size_t wl = 0;
		for (const char *q = p; q < e && wl < sizeof(word) - 1;) {
			const char *rep = NULL;
			if ((size_t)(e - q) >= 5 && memcmp(q, "{src}", 5) == 0)
				rep = src;
			else if ((size_t)(e - q) >= 5 && memcmp(q, "{dst}", 5) == 0)
				rep = dst;
			if (rep) {
				wl += strlcpy_(word + wl, rep, sizeof(word) - wl);
				if (wl > sizeof(word) - 1)
					wl = sizeof(word) - 1;
				q += 5;
			} else {
				word[wl++] = *q++;
			}
		}
		word[wl] = '\0';
		argv = xgrow(argv, n + 1, &cap, sizeof(*argv), 8); /* and the NULL */
		argv[n++] = xstrdup(word);
		argv[n] = NULL;
		p = e;
	}
	return argv;
}

static void free_argv(char **argv)
{
	if (!argv)
		return;
	for (char **a = argv; *a; a++)
		free(*a);
	free(argv);
}

/* A label is taken by a strategy (any: the picker may queue it later) or
 * by an earlier --cmd. */
static int label_taken(const struct session *s, const char *label)
{
	if (strategy_find(label))
		return 1;
	for (size_t i = 0; i < s->ncmds; i++)
		if (strcmp(s->cmds[i].label, label) == 0)
			return 1;
	return 0;
}

/* The default label: the program's base name, plus its first argument
 * unless that is (or holds) {src}/{dst} — "cp {src} {dst}" is "cp",
 * "cp -a {src} {dst}" is "cp -a" — cut to SESSION_LABEL_MAX bytes; commas
 * and control characters (CSV cells, one-line messages) become '_'. */
static void default_label(char *out, size_t len, char *const *words)
{
	const char *prog = strrchr(words[0], '/');
	prog = prog && prog[1] ? prog + 1 : words[0];
	const char *arg = words[1];
	if (arg && (strstr(arg, "{src}") || strstr(arg, "{dst}")))
		arg = NULL;
	char buf[96];
	snprintf(buf, sizeof(buf), "%s%s%s", prog, arg ? " " : "", arg ? arg : "");
	size_t n = strlen(buf);
	if (n > SESSION_LABEL_MAX)
		n = SESSION_LABEL_MAX;
	buf[utf8_floor(buf, n)] = '\0'; /* not inside a UTF-8 character */
	for (char *c = buf; *c; c++)
		if (text_ctrl((unsigned char)*c) || *c == ',' || *c == '"')
			*c = '_';
	strlcpy_(out, buf, len);
}

/* execvp's search, done up front so a misspelt program is a usage error
 * before a scratch input is written. */
static int check_program(const char *prog, char *err, size_t errlen)
{
	struct stat st;
	if (strchr(prog, '/')) {
		if (stat(prog, &st) < 0)
			return errf(err, errlen, "--cmd %s: %s", prog, strerror(errno));
		if (S_ISDIR(st.st_mode) || access(prog, X_OK) < 0)
			return errf(err, errlen, "--cmd %s: %s", prog,
				    strerror(S_ISDIR(st.st_mode) ? EISDIR : errno));
		return 0;
	}
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/bin:/usr/bin";
	int eacces = 0;
	for (const char *p = path; *p;) {
		const char *e = strchr(p, ':');
		size_t dl = e ? (size_t)(e - p) : strlen(p);
		char f[4096];
		snprintf(f, sizeof(f), "%.*s/%s", (int)dl, dl ? p : ".", prog);
		if (stat(f, &st) == 0 && S_ISREG(st.st_mode)) {
			if (access(f, X_OK) == 0)
				return 0;
			eacces = 1;
		}
		p = e ? e + 1 : p + dl;
	}
	if (eacces)
		return errf(err, errlen, "--cmd %s: %s", prog, strerror(EACCES));
	return errf(err, errlen, "--cmd %s: %s (searched PATH)", prog, strerror(ENOENT));
}

/* The --cmd entries: words, program, labels. */
int session_cmd_setup(struct session *s, const struct run_config *cfg, char *err, size_t errlen)
{
	for (int i = 0; i < cfg->ncmds; i++) {
		struct session_cmd *c = &s->cmds[s->ncmds];
		char **words = session_cmd_split(cfg->cmds[i], "{src}", "{dst}");
		int rc = !words[0] ? errf(err, errlen, "--cmd: empty command")
				   : check_program(words[0], err, errlen);
		if (rc == 0 && i < cfg->nnames) {
			const char *n = cfg->names[i];
			size_t bad = strcspn(n, ",\"\t\n\r");
			if (!*n || strspn(n, " ") == strlen(n))
				rc = errf(err, errlen, "--name: empty name");
			else if (strlen(n) > SESSION_LABEL_MAX)
				rc = errf(err, errlen, "--name %s: at most %d bytes", n,
					  SESSION_LABEL_MAX);
			else if (n[bad])
				rc = errf(err, errlen,
					  "--name %s: no commas, quotes or control "
					  "characters",
					  n);
			else if (strategy_find(n))
				rc = errf(err, errlen,
					  "--name %s: is a strategy's name (pick "
					  "another)",
					  n);
			else if (label_taken(s, n))
				rc = errf(err, errlen,
					  "--name %s: given twice (labels must be "
					  "unique)",
					  n);
			else
				strlcpy_(c->label, n, sizeof(c->label));
		} else if (rc == 0) {
			char base[32];
			default_label(base, sizeof(base), words);
			strlcpy_(c->label, base, sizeof(c->label));
			for (int k = 2; label_taken(s, c->label); k++)
				snprintf(c->label, sizeof(c->label), "%.24s#%u", base,
					 (unsigned char)k);
		}
		free_argv(words);
		if (rc < 0)
			return -1;
		c->line = cfg->cmds[i];
		s->ncmds++;
	}
	return 0;
}

void session_cmd_free(struct session *s)
{
	for (size_t i = 0; i < s->ncmds; i++) {
		free_argv(s->cmds[i].argv);
		s->cmds[i].argv = NULL;
	}
}
