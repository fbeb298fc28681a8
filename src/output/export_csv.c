#include "export_csv.h"

#include <errno.h>
#include <string.h>

#include "output.h"
#include "util.h"

int export_csv_write(FILE *f, const struct series *ser, const struct run_result *runs, size_t nruns,
		     char *err, size_t errlen)
{
	size_t n = series_len(ser);
	const struct sample *prev = NULL;
	uint64_t t0 = n ? series_at(ser, 0)->t_ns : 0;
	errno = 0;
	csv_header(f);
	for (size_t i = 0; i < n && !ferror(f); i++) {
		const struct sample *s = series_at(ser, i);
		const char *label =
		    s->run >= 0 && (size_t)s->run < nruns ? runs[s->run].name : NULL;
		csv_row(f, prev, s, t0, label);
		prev = s;
	}
	if (ferror(f) || fflush(f) == EOF)
		return errf(err, errlen, "write error: %s", strerror(errno ? errno : EIO));
	return 0;
}
