/* Reference mw_cp: write() a source map to the destination at once, as
 * copybench's mmap-write.c, written anew for bench/strategies. MADVISE adds
 * MADV_SEQUENTIAL on the map.
 *   mw_cp SRC DST   (DST must not exist)   exit 0 ok, 1 error, 2 usage */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct stat st;
	char *s, *p;
	int in, out;

	if (argc != 3)
		return 2;
	in = open(argv[1], O_RDONLY);
	if (in < 0 || fstat(in, &st) < 0 || st.st_size == 0)
		return perror(argv[1]), 1;
	s = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, in, 0);
	if (s == MAP_FAILED)
		return perror("mmap src"), 1;
#ifdef MADVISE
	madvise(s, (size_t)st.st_size, MADV_SEQUENTIAL);
#endif
	out = open(argv[2], O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (out < 0)
		return perror(argv[2]), 1;
	for (p = s; p < s + st.st_size;) {
		ssize_t w = write(out, p, (size_t)(s + st.st_size - p));
		if (w <= 0)
			return perror(argv[2]), 1;
		p += w;
	}
	if (fsync(out) < 0)
		return perror("fsync"), 1;
	munmap(s, (size_t)st.st_size);
	return close(in) < 0 || close(out) < 0;
}
