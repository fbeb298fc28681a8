#include "app/argv_config.h"

#include <stdlib.h>
#include <string.h>

#include "app/options.h"
#include "runs/probe.h"
#include "base/util.h"

const struct record_argv_parser app_argv_parser = {app_argv_config};

int app_argv_config(int argc, char *const *argv, struct record_config *out)
{
	memset(out, 0, sizeof(*out));
	if (argc < 1 || !argv)
		return -1;
	/* getopt_long permutes the array it is given: a copy of the pointers */
	char **v = xcalloc((size_t)argc + 1, sizeof(*v));
	for (int i = 0; i < argc; i++)
		v[i] = argv[i] ? argv[i] : "";
	struct options o;
	char err[512];
	options_init(&o);
	int rc = options_parse(&o, argc, v, err, sizeof(err));
	if (rc == 0) {
		struct run_config run;
		record_config_of_run(out, options_run_config(&o, &run));
		if (o.probe)
			strlcpy_(out->probe, probe_mode_name((enum probe_mode)o.probe),
				 sizeof(out->probe));
		out->rehearsal = o.talk && o.rehearse;
		/* what an old recording's runs were throttled to is what their
		 * labels say ("@30M": source_replay_setup), as before: its
		 * --disk-limit may not have been enforced (not root) */
		out->disk_limit = 0;
	}
	free(v);
	return rc;
}
