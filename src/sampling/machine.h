/*
 * machine — facts about this kernel and disk that change what the figures
 * mean, read once from sysfs so the legends and the header can say so.
 *
 * Under MGLRU (the multi-generational LRU, /sys/kernel/mm/lru_gen/enabled)
 * the kernel still fills Active(file)/Inactive(file) in /proc/meminfo, but
 * "active" is then the two youngest generations, not a list pages are
 * promoted to and demoted from; the legends say so.  A virtual disk
 * (virtio, xen, a loop file, device-mapper, md, nbd, zram) reports the I/O
 * this kernel asks of it: the host's cache, its queue and its own limits
 * lie below and can make the rates smoother or faster than any real disk.
 */
#ifndef LRUTOP_MACHINE_H
#define LRUTOP_MACHINE_H

#include <stddef.h>

#define MACHINE_LRU_GEN "/sys/kernel/mm/lru_gen/enabled"

/* 1 when the lru_gen file at path (NULL: MACHINE_LRU_GEN) exists and its
 * main switch (bit 0 of the hex mask the kernel prints, "0x0007") is on;
 * 0 when it is off, absent (a kernel without CONFIG_LRU_GEN) or unreadable. */
int machine_mglru(const char *path);

/* Line `line` (0, 1) of what MGLRU changes about the figures, for batch
 * stderr and under the results: gens 1 when its generations are read
 * (debugfs lru_gen), 0 when only the lists are.  1 with buf set, 0 past
 * the last line. */
int machine_mglru_note(int gens, int line, char *buf, size_t len);

/* What kind of virtual device the whole disk NAME is: "virtio", "xen",
 * "loop", "dm", "md", "nbd", "zram", "ram", "vmware", "hyper-v", "qemu"
 * (a SCSI disk whose vendor is the hypervisor) or "virtual" (under
 * /sys/devices/virtual); 1 with kind set.  0 with kind "" for a disk that
 * looks physical or that sysfs does not know. */
int machine_disk_virtual(const char *name, char *kind, size_t len);

/* Line `line` (0, 1) of what a virtual disk means for the rates, about 50
 * columns each ("Disk vda is virtual (virtio): its rates are the I/O" /
 * "asked of it; ..."): 1 with buf set, 0 past the last line. */
int machine_disk_note(const char *name, const char *kind, int line, char *buf, size_t len);

#endif
