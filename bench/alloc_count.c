#include "alloc_count.h"

#include <errno.h>
#include <malloc.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !defined(__has_feature)
#define COUNTING 1
#elif defined(__GLIBC__) && defined(__has_feature)
#if !__has_feature(address_sanitizer)
#define COUNTING 1
#endif
#endif

#ifdef COUNTING
/* glibc's own entry points: a program may replace malloc and friends, and
 * these are what the replacements hand the work to. */
extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t nmemb, size_t n);
extern void *__libc_realloc(void *p, size_t n);
extern void *__libc_memalign(size_t align, size_t n);
extern void __libc_free(void *p);

static int on;
static unsigned long long calls, bytes;

static void count(size_t n)
{
	if (on) {
		calls++;
		bytes += n;
	}
}

void *malloc(size_t n)
{
	count(n);
	return __libc_malloc(n);
}

void *calloc(size_t nmemb, size_t n)
{
	count(nmemb * n);
	return __libc_calloc(nmemb, n);
}

void *realloc(void *p, size_t n)
{
	count(n);
	return __libc_realloc(p, n);
}

void *reallocarray(void *p, size_t nmemb, size_t n)
{
	if (n && nmemb > SIZE_MAX / n) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(p, nmemb * n);
}

void *memalign(size_t align, size_t n)
{
	count(n);
	return __libc_memalign(align, n);
}

void *aligned_alloc(size_t align, size_t n)
{
	return memalign(align, n);
}

void *valloc(size_t n)
{
	return memalign(4096, n);
}

int posix_memalign(void **out, size_t align, size_t n)
{
	if (align < sizeof(void *) || (align & (align - 1)))
		return EINVAL;
	void *p = memalign(align, n);
	if (!p)
		return ENOMEM;
	*out = p;
	return 0;
}

void free(void *p)
{
	__libc_free(p);
}

const char *alloc_count_off(void)
{
	return NULL;
}

void alloc_count_start(void)
{
	calls = bytes = 0;
	on = 1;
}

void alloc_count_stop(void)
{
	on = 0;
}

unsigned long long alloc_count_calls(void)
{
	return calls;
}

unsigned long long alloc_count_bytes(void)
{
	return bytes;
}
#else
const char *alloc_count_off(void)
{
#ifdef __GLIBC__
	return "ASan replaces the allocator";
#else
	return "no glibc __libc_malloc to hand the work to";
#endif
}

void alloc_count_start(void)
{
}

void alloc_count_stop(void)
{
}

unsigned long long alloc_count_calls(void)
{
	return 0;
}

unsigned long long alloc_count_bytes(void)
{
	return 0;
}
#endif
