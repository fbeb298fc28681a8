#include "app/preset.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "runs/cgroup.h"
#include "model/glyphs.h"
#include "sampling/device.h"
#include "app/options.h"
#include "base/util.h"

#define MiB (1024ull * 1024)

static const struct preset presets[] = {
    /* The 2008 machine: a small memory and a slow disk.  Measured here
     * (kernel 6.18, virtio disk, 2 cores) on the copies' own read rates,
     * their blkio cgroups' bytes polled every 0.25 s: 40 MiB / 320 MiB
     * does the three copies, the source included, in 44-47 s; mm_sync_cp
     * takes 1.8-2.1x rw_cp's time (2008 had 1.8x) with 9-19 bursts, the
     * other two none.  32 MiB/s rather than 2008's 30: the throttle lets
     * reads through a read-ahead window at a time (8 MiB on virtio), and
     * 30 MiB/s is 3.75 windows a second, so a 0.25 s sample of a flat copy
     * holds 0, 1 or 2 of them - rw_cp's rdCV 0.33-0.50 of aliasing alone
     * (plain dd in a 30M blkio cgroup shows it).  At 32 MiB/s (8 MiB per
     * sample; any power-of-two window up to 8 MiB divides it) rw_cp reads
     * 32 every sample but its last: rdCV 0.16 against mm_sync_cp's
     * 0.79-0.83.  At 256 MiB rw_cp's few waits weigh more; 48 MiB fills
     * the active list late (0-18 bursts); 24 MiB makes mm_sync_cp alone
     * take 40 s; 40 MiB/s halves mm_sync_cp's own sawtooth.
     * docs/demo-preset.md has the table. */
    {.name = "2008",
     .strategies = "rw_cp,mm_sync_cp,mm_sync_madv_cp",
     .mem_limit = 40 * MiB,
     .disk_limit = 32 * MiB,
     .size = 320 * MiB,
     .size_nocg = 320 * MiB},
    /* Today's machine: 64 MiB and a 32x source on the bare disk (~800
     * MiB/s virtio here): mm_sync_cp bursts about every 0.55 s (22-28 in
     * a 2 GiB copy, three runs) while rw_cp and mm_sync_madv_cp show
     * none, the three in 34-40 s; at 128 MiB with a 4 GiB source the
     * active list held and a quiet machine saw a single burst.  The read
     * rate does not dip at the bursts (rd@burst 0.84-0.97; median read in
     * burst samples 449 vs 465 MiB/s elsewhere). */
    {.name = "today",
     .strategies = "rw_cp,mm_sync_cp,mm_sync_madv_cp",
     .mem_limit = 64 * MiB,
     .size_x = 32,
     .size_nocg = 1024 * MiB},
};

const struct preset *preset_find(const char *name)
{
	for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++)
		if (!strcmp(presets[i].name, name))
			return &presets[i];
	return NULL;
}

const char *preset_names(void)
{
	return "2008 or today";
}

/* The disk the throttle would take, -d or the one holding --dir, as the
 * session will check it: the preset leaves the throttle out where the
 * user's --disk-limit would be an error. */
static int disk_throttle_ok(const struct options *o, struct cgroup_home *cgroups, char *why,
			    size_t whylen)
{
	if (cgroup_home_io_available(cgroups, why, whylen) < 0)
		return 0;
	char name[DEVICE_NAME_MAX], path[64 + DEVICE_NAME_MAX];
	if (!o->device)
		return device_for_path(o->dir, name, sizeof(name), NULL, 0, why, whylen) == 0;
	if (!device_exists(o->device)) {
		snprintf(why, whylen, "-d %s: no such disk", o->device);
		return 0;
	}
	snprintf(path, sizeof(path), "/sys/class/block/%s/partition", o->device);
	if (access(path, F_OK) == 0) {
		snprintf(why, whylen, "-d %s is a partition", o->device);
		return 0;
	}
	return 1;
}

void preset_apply(const struct preset *p, struct options *o, struct cgroup_home *cgroups,
		  char *note, size_t notelen, char *desc, size_t desclen)
{
	char why[300] = "";
	note[0] = '\0';
	if (!o->strategies && !o->ncmds)
		o->strategies = p->strategies;
	/* a parameter --sweep sets is the sweep's, as a value the command
	 * line gives is its own (options_check.c refuses both together) */
	int sw_mem = o->sweep.param == SWEEP_MEM_LIMIT,
	    sw_disk = o->sweep.param == SWEEP_DISK_LIMIT;
	if (!o->mem_limit && p->mem_limit && !sw_mem) {
		if (cgroup_home_available(cgroups, why, sizeof(why)) == 0)
			o->mem_limit = p->mem_limit;
		else
			snprintf(note, notelen,
				 "demo %s without a memory cgroup: %s - this run has no memory "
				 "pressure",
				 p->name, why);
	}
	if (!o->disk_limit && p->disk_limit && !sw_disk) {
		if (disk_throttle_ok(o, cgroups, why, sizeof(why)))
			o->disk_limit = p->disk_limit;
		else if (!note[0])
			snprintf(note, notelen,
				 "demo %s without a disk throttle: %s - this run's disk is not "
				 "throttled",
				 p->name, why);
		else
			strlcpy_(note + strlen(note), "; no disk throttle either",
				 notelen - strlen(note));
	}
	if (!o->size && !o->src && o->sweep.param != SWEEP_SIZE)
		o->size = p->size && o->mem_limit     ? p->size
			  : o->mem_limit && p->size_x ? p->size_x * o->mem_limit
						      : p->size_nocg;
	/* On stage the pause while the copy is read back is dead time; the
	 * copies are verified in the tests. */
	o->no_verify = 1;
	/* blocks read from the back of a room; braille dots do not */
	if (o->glyphs < 0)
		o->glyphs = CHART_BLOCK;

	/* a limit left out is named as such: the picture is not the 2008 one */
	char mem[40] = "no memory pressure (no cgroup)", disk[32];
	if (sw_mem)
		snprintf(mem, sizeof(mem), "mem-limit swept");
	else if (o->mem_limit) {
		fmt_size(mem, sizeof(mem) - 4, o->mem_limit);
		strcat(mem, " mem");
	}
	if (sw_disk)
		snprintf(disk, sizeof(disk), "disk-limit swept");
	else if (o->disk_limit) {
		fmt_size(disk, sizeof(disk) - 7, o->disk_limit);
		strcat(disk, "/s disk");
	} else
		snprintf(disk, sizeof(disk),
			 p->disk_limit ? "no disk throttle" : "full-speed disk");
	snprintf(desc, desclen, "demo %s: %s, %s", p->name, mem, disk);
}
