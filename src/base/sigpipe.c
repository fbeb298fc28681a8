#include "base/sigpipe.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "base/util.h"

static int sig_pipe[2] = {-1, -1};
/* what sig_install catches (SIGTSTP only the TUI, by sig_catch) */
static const int handled[] = {SIGINT, SIGTERM, SIGHUP, SIGCHLD};

static void on_signal(int signo)
{
	int saved = errno;
	unsigned char b = (unsigned char)signo;
	sig_note(signo);
	if (write(sig_pipe[1], &b, 1) < 0) {
		/* pipe full: a byte for this signal is already waiting */
	}
	errno = saved;
}

int sig_set(int signo, void (*fn)(int), int flags)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = flags;
	return sigaction(signo, &sa, NULL);
}

int sig_catch(int signo, char *err, size_t errlen)
{
	if (sig_set(signo, on_signal, SA_RESTART | SA_NOCLDSTOP) < 0)
		return errf(err, errlen, "sigaction: %s", strerror(errno));
	return 0;
}

int sig_install(char *err, size_t errlen)
{
	if (sig_pipe[0] < 0 && pipe2(sig_pipe, O_NONBLOCK | O_CLOEXEC) < 0)
		return errf(err, errlen, "signal pipe: %s", strerror(errno));
	for (size_t i = 0; i < ARRAY_LEN(handled); i++)
		if (sig_catch(handled[i], err, errlen) < 0)
			return -1;
	/* A closed pipe or terminal must become an error return, not a kill. */
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

int sig_fd(void)
{
	return sig_pipe[0];
}

int sig_next(void)
{
	unsigned char b;
	if (sig_pipe[0] >= 0 && read(sig_pipe[0], &b, 1) == 1)
		return b;
	return 0;
}


pid_t sig_fork(void)
{
	sigset_t all, was;
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &was);
	pid_t pid = fork();
	if (pid != 0) {
		int e = errno;
		sigprocmask(SIG_SETMASK, &was, NULL);
		errno = e;
	}
	return pid;
}

void sig_child_reset(void)
{
	sigset_t none;
	for (int sig = 1; sig < NSIG; sig++)
		sig_set(sig, SIG_DFL, 0);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

void sig_child_tie(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
}

int sig_thread_start(pthread_t *t, void *(*fn)(void *), void *arg)
{
	sigset_t all, was;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &was);
	int rc = pthread_create(t, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &was, NULL);
	return rc;
}
