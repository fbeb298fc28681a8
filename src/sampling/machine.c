#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sampling/machine.h"
#include "base/util.h"

int machine_mglru(const char *path)
{
	FILE *f = fopen(path ? path : MACHINE_LRU_GEN, "re");
	if (!f)
		return 0;
	char buf[64];
	int on = 0;
	if (fgets(buf, sizeof(buf), f)) {
		char *end;
		errno = 0;
		unsigned long v = strtoul(buf, &end, 16); /* "0x0007": base 16 takes the 0x */
		if (end != buf && !errno && (*end == '\n' || *end == '\0'))
			on = (v & 1) != 0;
		else if (buf[0] == 'y' || buf[0] == 'Y') /* CONFIG_LRU_GEN_ENABLED as y/n */
			on = 1;
	}
	fclose(f);
	return on;
}

int machine_mglru_note(int gens, int line, char *buf, size_t len)
{
	if (line == 0)
		snprintf(buf, len,
			 "MGLRU is on: active(file) and peakAct are its two youngest "
			 "generations; it deactivates nothing (deact 0)");
	else if (line == 1)
		snprintf(
		    buf, len, "%s",
		    gens ? "MGLRU: bursts are agings that drop the two youngest generations "
			   "(lru_gen read: the chart shows the generations; lrutop(1) MGLRU)"
			 : "MGLRU: bursts are falls of active(file) into the older generations; "
			   "no debugfs lru_gen: the chart shows the lists (lrutop(1) MGLRU)");
	else
		return 0;
	return 1;
}

/* /sys/block/NAME[/REL]: sysfs spells "cciss/c0d0" as "cciss!c0d0". */
static void sys_path(const char *name, const char *rel, char *path, size_t len)
{
	int n = snprintf(path, len, "/sys/block/");
	for (const char *p = name; *p && (size_t)n + 1 < len; p++)
		path[n++] = *p == '/' ? '!' : *p;
	path[n] = '\0';
	if (rel)
		snprintf(path + n, len - (size_t)n, "/%s", rel);
}

/* The first line of /sys/block/NAME/REL, trailing blanks cut; "" if none. */
static void sys_line(const char *name, const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX];
	buf[0] = '\0';
	sys_path(name, rel, path, sizeof(path));
	FILE *f = fopen(path, "re");
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	size_t l = strlen(buf);
	while (l && isspace((unsigned char)buf[l - 1]))
		buf[--l] = '\0';
}

static int prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

int machine_disk_virtual(const char *name, char *kind, size_t len)
{
	static const struct {
		const char *name_prefix, *kind;
	} by_name[] = {{"loop", "loop"}, {"dm-", "dm"},	 {"md", "md"},	 {"nbd", "nbd"},
		       {"zram", "zram"}, {"ram", "ram"}, {"xvd", "xen"}, {"rbd", "rbd"}};
	kind[0] = '\0';
	if (!name || !*name || strchr(name, '.'))
		return 0;
	char sys[PATH_MAX], link[PATH_MAX];
	sys_path(name, NULL, sys, sizeof(sys));
	if (!realpath(sys, link))
		return 0; /* not a whole disk sysfs knows */
	const char *k = NULL;
	for (size_t i = 0; i < ARRAY_LEN(by_name) && !k; i++)
		if (prefix(name, by_name[i].name_prefix))
			k = by_name[i].kind;
	char line[128];
	if (!k) {
		sys_line(name, "device/modalias", line, sizeof(line));
		if (prefix(line, "virtio:"))
			k = "virtio";
		else if (prefix(line, "xen:"))
			k = "xen";
	}
	if (!k) {
		/* a SCSI/ATA disk the hypervisor emulates names itself */
		static const struct {
			const char *vendor, *kind;
		} vendors[] = {{"QEMU", "qemu"},       {"VMware", "vmware"}, {"Msft", "hyper-v"},
			       {"VBOX", "virtualbox"}, {"Google", "gce"},    {"Amazon", "ebs"}};
		sys_line(name, "device/vendor", line, sizeof(line));
		for (size_t i = 0; i < ARRAY_LEN(vendors) && !k; i++)
			if (prefix(line, vendors[i].vendor))
				k = vendors[i].kind;
		sys_line(name, "device/model", line, sizeof(line));
		if (!k && (strstr(line, "QEMU") || strstr(line, "Virtual")))
			k = "virtual";
	}
	if (!k && strstr(link, "/devices/virtual/"))
		k = "virtual";
	if (!k)
		return 0;
	snprintf(kind, len, "%s", k);
	return 1;
}

int machine_disk_note(const char *name, const char *kind, int line, char *buf, size_t len)
{
	int mem = !strcmp(kind, "zram") || !strcmp(kind, "ram");
	int stacked = !strcmp(kind, "loop") || !strcmp(kind, "dm") || !strcmp(kind, "md");
	if (line == 0)
		snprintf(buf, len,
			 mem	   ? "Disk %s is a %s device in memory: its rates"
			 : stacked ? "Disk %s is a %s device: its rates are the I/O"
				   : "Disk %s is virtual (%s): its rates are the I/O",
			 name, kind);
	else if (line == 1)
		snprintf(buf, len, "%s",
			 mem	   ? "are no disk's."
			 : stacked ? "asked of it; the disks below see their own."
				   : "asked of it; the host's cache and limits lie below.");
	else
		return 0;
	return 1;
}
