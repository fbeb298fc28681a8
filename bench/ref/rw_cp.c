/* Reference rw_cp: what a plain copybench read-write.c does, written anew
 * for bench/strategies (lrutop's strategy must cost the same).
 *   rw_cp SRC DST   (DST must not exist)   exit 0 ok, 1 error, 2 usage */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char buf[8192];
	ssize_t n;
	int in, out;

	if (argc != 3)
		return 2;
	in = open(argv[1], O_RDONLY);
	if (in < 0)
		return perror(argv[1]), 1;
#ifdef FADVISE
	posix_fadvise(in, 0, 0, POSIX_FADV_SEQUENTIAL);
	posix_fadvise(in, 0, 0, POSIX_FADV_NOREUSE);
#endif
	out = open(argv[2], O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (out < 0)
		return perror(argv[2]), 1;
	while ((n = read(in, buf, sizeof buf)) > 0)
		for (char *p = buf; p < buf + n;) {
			ssize_t w = write(out, p, (size_t)(buf + n - p));
			if (w <= 0)
				return perror(argv[2]), 1;
			p += w;
		}
	if (n < 0 || fsync(out) < 0)
		return perror("copy"), 1;
	return close(out) < 0 || close(in) < 0;
}
