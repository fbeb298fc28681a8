/*
 * session_input — the input file of a session's runs (session_impl.h): the
 * scratch source, written by a child so the loop stays live, its progress
 * on a shared page; or the user's --src, ready at once.  Once the input
 * exists the --cmds' words can be made ({src} is its path).
 */
#include "runs/session_impl.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/sigpipe.h"
#include "base/util.h"

/* The input exists (the scratch source written, or --src): --cmd's words
 * can be made. */
void session_input_ready(struct session *s)
{
	s->have_input = 1;
	for (size_t i = 0; i < s->ncmds; i++)
		if (!s->cmds[i].argv)
			s->cmds[i].argv = session_cmd_split(s->cmds[i].line, s->src, s->dst);
}

/* The child that writes the scratch input: it only fills a file in our
 * private directory and reports bytes through the shared page. */
static int input_written(uint64_t done, uint64_t total, void *arg)
{
	(void)total;
	atomic_store((_Atomic uint64_t *)arg, done);
	return 0;
}

int session_input_start(struct session *s, char *err, size_t errlen)
{
	char path[4096];
	if (scratch_path(&s->scratch, "src", path, sizeof(path)) < 0)
		return errf(err, errlen, "--dir %s: path too long", s->cfg.dir);
	/* the writer creates it O_EXCL; a stranger's file there is refused here,
	 * so whatever is under "src" after the writer ran is lrutop's */
	if (scratch_unlink_own(&s->scratch, "src", err, errlen) < 0)
		return -1;
	atomic_store(s->input_done, 0);
	pid_t parent = getpid(), pid = sig_fork();
	if (pid < 0)
		return errf(err, errlen, "fork: %s", strerror(errno));
	if (pid == 0) {
		sig_child_reset();
		sig_child_tie(parent);
		char e[320];
		_exit(scratch_make_input(&s->scratch, s->src_size, input_written,
					 (void *)s->input_done, e, sizeof(e)) < 0
			  ? 1
			  : 0);
	}
	s->input_pid = pid;
	s->state = SESSION_MAKING_INPUT;
	return 0;
}

/* Reaps the source writer; 1 when it ended. */
int session_input_reap(struct session *s)
{
	int status;
	pid_t got = waitpid(s->input_pid, &status, WNOHANG);
	if (got == 0 || (got < 0 && errno == EINTR))
		return 0;
	s->input_pid = -1;
	if (got > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		scratch_own_current(&s->scratch, "src");
		snprintf(s->src, sizeof(s->src), "%.4000s/src", s->scratch.dir);
		session_input_ready(s);
		s->state = SESSION_IDLE;
	} else {
		char sz[16];
		fmt_size(sz, sizeof(sz), s->src_size);
		snprintf(s->error, sizeof(s->error),
			 "writing the %s scratch source in %.200s failed (disk full?)", sz,
			 s->scratch.dir);
		session_give_up(s);
	}
	return 1;
}

/* Stops the source writer, if one is running. */
void session_input_kill(struct session *s)
{
	if (s->input_pid <= 0)
		return;
	kill(s->input_pid, SIGKILL);
	int status = 0;
	while (waitpid(s->input_pid, &status, 0) < 0 && errno == EINTR)
		;
	/* killed mid-write: the partial file is the writer's (see session_input_start) */
	if (WIFSIGNALED(status))
		scratch_own_current(&s->scratch, "src");
	s->input_pid = -1;
}

uint64_t session_input_progress(const struct session *s)
{
	return s->input_done ? atomic_load(s->input_done) : 0;
}
