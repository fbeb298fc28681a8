/* Reference mm_sync_cp: a plain mmap-to-mmap copy as copybench's
 * mmap-mmap.c does it (sparse destination: one int written at its end),
 * written anew for bench/strategies. MADVISE adds MADV_SEQUENTIAL on both
 * maps; MUNMAP replaces msync with munmap + fsync (lrutop's mm_mun_cp).
 *   mm_sync_cp SRC DST   (DST must not exist)   exit 0 ok, 1 error, 2 usage */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct stat st;
	char *s, *d;
	int in, out, zero = 0;

	if (argc != 3)
		return 2;
	in = open(argv[1], O_RDONLY);
	if (in < 0 || fstat(in, &st) < 0 || st.st_size < (off_t)sizeof zero)
		return perror(argv[1]), 1;
	s = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, in, 0);
	if (s == MAP_FAILED)
		return perror("mmap src"), 1;
#ifdef MADVISE
	madvise(s, (size_t)st.st_size, MADV_SEQUENTIAL);
#endif
	out = open(argv[2], O_RDWR | O_CREAT | O_EXCL, 0644);
	if (out < 0 || lseek(out, st.st_size - (off_t)sizeof zero, SEEK_SET) < 0 ||
	    write(out, &zero, sizeof zero) != sizeof zero)
		return perror(argv[2]), 1;
	d = mmap(NULL, (size_t)st.st_size, PROT_WRITE, MAP_SHARED, out, 0);
	if (d == MAP_FAILED)
		return perror("mmap dst"), 1;
#ifdef MADVISE
	madvise(d, (size_t)st.st_size, MADV_SEQUENTIAL);
#endif
	memcpy(d, s, (size_t)st.st_size);
#ifdef MUNMAP
	munmap(d, (size_t)st.st_size);
	munmap(s, (size_t)st.st_size);
	if (fsync(out) < 0)
		return perror("fsync"), 1;
#else
	if (msync(d, (size_t)st.st_size, MS_SYNC) < 0 || ftruncate(out, st.st_size) < 0)
		return perror("msync"), 1;
	munmap(d, (size_t)st.st_size);
	munmap(s, (size_t)st.st_size);
#endif
	return close(in) < 0 || close(out) < 0;
}
