/*
 * record — the --record file format (docs/design.md §5): a writer that appends
 * the live stream to a file and a reader that gives it back item by item.
 *
 * The format is JSON Lines made with jansson (never by string pasting), one
 * object per line, each line handed to the kernel as soon as it is complete
 * (plain: one write(2) per line; gzip: gzwrite + gzflush(Z_SYNC_FLUSH)), so
 * a crash or SIGKILL leaves a prefix that decodes: every complete line reads
 * back, a cut last line is a warning, not an error.
 *
 *   line 1  {"lrutop_record":1,"minor":0,"version":"0.1.0","kernel":...,
 *            "host":...,"page_size":4096,"cpus":2,"mem_total_kb":...,
 *            "device":"vda","device_how":"/var/tmp is on vda","device_kind":"virtio",
 *            "mglru":false,"cgroup":1,
 *            "interval_s":0.25,"argv":["lrutop","--record","x"],
 *            "config":{"strategies":["rw_cp"],"cmds":[],"size":0,"bs":8192,
 *                      "mem_limit":67108864,"disk_limit":0,"repeat":3,
 *                      "baseline":"rw_cp","probe":"","prealloc":0,"rehearsal":0},
 *            "start_wall":"2026-12-01T09:10:42.123Z","start_mono_ns":...,
 *            "notes":"no PSI","phases":["idle",...],"strategies":["rw_cp",...],
 *            "disk_columns":["rd_ios",...,"is_disk"]}
 *   sample  {"k":"sample","t":T_NS,"run":-1,"ph":0,"st":0,"hv":HAVE,
 *            <the fields of each group whose SAMPLE_HAVE_* bit is set, by the
 *             short names in record_format.c's field table>,
 *            "dk":{"vda":[12 columns]},"dkn":["vda","loop0"],"dkt":DELTA}
 *   event   {"k":"event","t":T_NS,"run":0,"phase":"copy"}
 *   result  {"k":"result","name":"rw_cp","strategy":"rw_cp"|null,...}
 *   pcmap   {"k":"pcmap","t":T_NS,"src":{"p":PAGES,"n":N,"m":METHOD,
 *            "c":"1000*40,3a7,0*23",...},"dst":{...}} (docs/recording.md)
 *
 * Invariants and choices, all restored exactly by the reader:
 *  - Counters are raw (never rates).  A group whose have bit is clear is
 *    not written, so a missing file replays as missing.  A uint64_t above
 *    INT64_MAX is stored as its two's-complement int64 (UINT64_MAX is -1),
 *    because JSON integers in jansson are signed 64-bit; the reader takes
 *    that only where lrutop can write it (a cgroup's limit, any size
 *    --mem-limit takes): every number has the range record_format.c gives
 *    it (what the kernel or lrutop can produce), and a value outside is
 *    a bad line.  A header figure not known (0) is left out, and read
 *    back as 0.
 *  - Floats (PSI) are written with 9 significant digits, doubles (results)
 *    with 17: both survive write → read bit for bit.  A NaN is null, ±inf
 *    the strings "inf" / "-inf".
 *  - The disk table ("dk", columns as in "disk_columns") carries only the
 *    rows that changed since the previous sample that had one; "dkn" lists
 *    all names in order whenever the set or order of devices changed; "dk"
 *    present (maybe {}) means the sample had a table.  "dkt" is the table's
 *    t_ns minus the sample's, omitted when 0.
 *  - The phase and strategy of a sample are indices; the header lists the
 *    names in the writer's order and the reader maps them onto this build's
 *    tables (a strategy this build lacks reads as RECORD_STRATEGY_UNKNOWN).
 *  - Unknown keys and unknown line kinds are ignored (a newer minor version
 *    may add them); an unknown major version is refused.
 *
 * Errors follow docs/style.md rule 3: -1 / NULL and one sentence in the caller's
 * buffer — the writer's start with "--record FILE: ", the reader's with
 * "FILE:LINE: ".  Neither prints nor exits.  The reader never holds more
 * than one line (at most RECORD_LINE_MAX bytes) of the file in memory,
 * or with recording_read_ahead the 16 lines after the item it gave.  A run
 * of blank lines counts as one line toward RECORD_LINE_MAX, and a
 * terminating signal (sig_caught, util.h) ends any read with
 * "FILE:LINE: interrupted": no file keeps a replay, an export or a
 * --compare from honouring SIGTERM.
 * The writer allocates on every line (jansson builds a tree); recording is
 * opt-in, the plain monitor loop does not pay for it.
 */
#ifndef LRUTOP_RECORD_H
#define LRUTOP_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "sampling/residency.h"
#include "sampling/sample.h"
#include "model/runlog.h"
#include "model/sweep.h"
#include "runs/run_config.h"

#define RECORD_MAJOR		1
/* minor 1: page-cache residency ("pc*", "res"); 2: MGLRU's generations
 * ("lg*") and the MGLRU bit in "hv"; 3: the page-cache map ("pcmap");
 * 4: the runs' configuration ("config") */
#define RECORD_MINOR		4
#define RECORD_LINE_MAX		(1u << 20) /* a longer line is an error (/dev/zero) */
#define RECORD_STRATEGY_UNKNOWN SAMPLE_STRATEGY_NONE

/* What the recording's runs were asked to do and what their session set
 * up (the header's "config", minor 4): the run configuration
 * (run_config.h), typed — the -s list by name, each --cmd's --name, the
 * knobs — with the run log's baseline and limits, the probe's mode and
 * whether a talk's rehearsal made it.  Every reader takes the runs'
 * options from here, never from the command line ("argv", kept for
 * people): a recording before minor 4 has nothing else, and
 * record_config_resolve has the program's own option parser read it. */
#define RECORD_CONFIG_NAME 32 /* a strategy's name, a --name, the baseline, with its NUL */
struct record_config {
	int have; /* known: the header's "config", or an old command line parsed */
	int nstrategies;
	char strategies[RUNLOG_MAX_STRATEGIES][RECORD_CONFIG_NAME]; /* -s LIST, in order */
	int ncmds;
	char cmds[RUN_CONFIG_MAX_CMDS][RECORD_CONFIG_NAME]; /* each --cmd's --name, "" none */
	uint64_t size;	     /* --size, 0: the default (run_config_default_size) */
	uint64_t bs;	     /* --bs */
	uint64_t mem_limit;  /* the runs' memory limit, 0 none (a --sweep mem-limit: its
			      * largest, the run log's) */
	uint64_t disk_limit; /* bytes/s of the watched disk, 0 none */
	int repeat;
	char baseline[RECORD_CONFIG_NAME]; /* the label ratios are relative to, "" not set */
	char probe[8];			   /* --probe: "cold", "direct", "" none */
	int prealloc;			   /* --prealloc */
	int rehearsal;			   /* made by a talk's rehearsal (--talk --rehearse) */
	struct sweep_spec sweep;	   /* --sweep: param, values, until (factor 0) */
};

/* What the header line says about the recording run.  The writer reads
 * every field; record_header_init fills what the machine can tell. */
struct record_header {
	int major, minor; /* reader: as found; the writer writes RECORD_* */
	char version[32]; /* lrutop's version */
	char kernel[128]; /* uname -r */
	char host[256];	  /* uname -n */
	long page_size;
	int cpus;	       /* online CPUs */
	uint64_t mem_total_kb; /* MemTotal */
	char device[32];       /* watched disk, "" for none */
	char device_how[256];  /* how it was chosen: "/var/tmp is on vda" */
	char device_kind[24];  /* a virtual disk's kind ("virtio", "loop"), "" */
	int mglru;	       /* the kernel ran MGLRU (machine.h) */
	int cgroup_version;    /* 1, 2, 0 for none */
	double interval_s;
	int argc;
	char **argv;	     /* writer: borrowed; reader: owned by the recording */
	char start_wall[40]; /* ISO 8601 UTC, "2026-12-01T09:10:42.123Z" */
	uint64_t start_mono_ns;
	char notes[512]; /* what was missing, e.g. "no PSI"; "" for nothing */
	struct record_config config; /* written when have; read: have 0 without */
};

/* Fills kernel, host, page size, CPUs, MemTotal, both start times and the
 * format version; zeroes the rest (the caller sets version, device,
 * device_how, cgroup_version, interval_s, argc/argv, notes and config). */
void record_header_init(struct record_header *h);
/* Now, as a header's start_wall ("2026-12-01T09:10:42.123Z", UTC, into
 * wall[len], len 40 is enough) and start_mono_ns (*mono): the clocks
 * read once, so the two name one moment. */
void record_stamp_now(char *wall, size_t len, uint64_t *mono);

/* c from a run configuration: its -s list by name, each --cmd's --name,
 * the knobs, the baseline and limits as given; have 1.  The caller puts
 * in what a session made of them (the run log's baseline and limits), the
 * probe's mode and rehearsal. */
void record_config_of_run(struct record_config *c, const struct run_config *rc);

/* How a recording without "config" (before minor 4) is read: its command
 * line through the program's own option parser — short options, --opt=V,
 * getopt's abbreviations — which lives in app/, above this layer, so
 * whoever reads recordings hands it down (app_argv_parser, argv_config.h).
 * 0 and *out (have 1), or -1: the line is not one this build's options
 * take (the configuration stays unknown). */
struct record_argv_parser {
	int (*parse)(int argc, char *const *argv, struct record_config *out);
};
/* The configuration of the recording whose header is h: its "config";
 * without one, what p makes of its argv (p NULL: nothing); else zeroed,
 * have 0: not known. */
void record_config_resolve(const struct record_header *h, const struct record_argv_parser *p,
			   struct record_config *out);

/* ---- writer ---------------------------------------------------------- */

struct recorder;

enum record_compress {
	RECORD_BY_NAME = -1, /* gzip when the path ends in ".gz" */
	RECORD_PLAIN = 0,
	RECORD_GZIP = 1,
};

/* Creates path new (outfile.h's OUTFILE_NEW: an existing file or a symlink
 * is refused, never overwritten) and writes the header line.  NULL + err
 * on failure, and then the file it created is removed again.  Path "-"
 * (record_path_stdout) is standard output: a pipe or whatever the shell
 * gave, plain unless z says gzip (RECORD_BY_NAME: plain), each line handed
 * to it when whole as a file's is; nothing is made or removed. */
int record_path_stdout(const char *path);
struct recorder *recorder_open(const char *path, enum record_compress z,
			       const struct record_header *h, char *err, size_t errlen);
/* One sample line: the raw counters of smp and, when tab is not NULL, the
 * disk table.  0, or -1 + "--record FILE: write error: REASON"; after a
 * failure every later call returns -1 with the same sentence. */
int recorder_sample(struct recorder *r, const struct sample *smp, const struct disktab *tab,
		    char *err, size_t errlen);
/* One page-cache map line ("pcmap", after its sample's): nothing is
 * written when neither file has a map.  0 or -1 as recorder_sample. */
struct residency_map;
int recorder_map(struct recorder *r, const struct residency_map *m, char *err, size_t errlen);
/* One event line (a run started, changed phase, ended: phase PHASE_IDLE). */
int recorder_event(struct recorder *r, const struct run_event *ev, char *err, size_t errlen);
/* One result line: every field of res (the strategy by name, null for a --cmd). */
int recorder_result(struct recorder *r, const struct run_result *res, char *err, size_t errlen);
/* Flushes, fsyncs and closes (for gzip: writes the trailer first); -1 +
 * err when that fails or an earlier write did.  Frees r in any case; NULL
 * is a no-op. */
int recorder_close(struct recorder *r, char *err, size_t errlen);
/* The errno of the write that failed (EPIPE: the reader of "-" went
 * away), 0 when none did or it had none. */
int recorder_errno(const struct recorder *r);
/* Bytes handed to the file so far (compressed size for gzip, approximate). */
uint64_t recorder_bytes(const struct recorder *r);
/* Hands the proof of the file r made over to keep (outfile_pass), before
 * recorder_close: whoever stops a recording and later renames or removes
 * it does so through keep, only while the path still names it.  Without
 * this call recorder_close lets the proof go. */
struct outfile;
void recorder_take_file(struct recorder *r, struct outfile *keep);

/* ---- reader ---------------------------------------------------------- */

struct recording;

enum record_kind {
	RECORD_SAMPLE = 1,
	RECORD_EVENT,
	RECORD_RESULT,
	RECORD_MAP, /* minor 3: where in the run's files the cache is */
};

struct record_item {
	enum record_kind kind;
	unsigned line; /* 1-based line number in the (decompressed) file */
	/* RECORD_SAMPLE */
	struct sample sample;
	int have_disks; /* the sample came with a disk table */
	struct disktab disks;
	/* RECORD_EVENT */
	struct run_event event;
	/* RECORD_RESULT: strategy is this build's entry of that name, NULL for
	 * a --cmd or a name this build does not know (strategy_name says) */
	struct run_result result;
	char strategy_name[32]; /* "" for a --cmd */
	/* RECORD_MAP: a file without a map has n = 0 */
	struct residency_map map;
};

/* Opens a recording (gzip or plain, told apart by the gzip magic) and reads
 * its header.  NULL + err: a missing file, a directory, an empty file, a
 * first line that is not JSON or not a header ("FILE:1: ..."), an unknown
 * major version.  Bytes after a gzip file's last member that are no gzip
 * member are an error where the reading reaches them ("FILE: N bytes after
 * the gzip data (from byte OFF) are not gzip: ..."): a file appended to or
 * damaged; a member cut short is the crash's warning. */
struct recording *recording_open(const char *path, char *err, size_t errlen);
/* The header (borrowed until recording_close). */
const struct record_header *recording_header(const struct recording *r);
/* 1 when the file is gzip-compressed. */
int recording_is_gzip(const struct recording *r);
/* The next item: 1 with *it filled, 0 at the end, -1 + "FILE:LINE: reason"
 * for a bad line or a signal (later calls return -1 again).  A cut last line (no
 * newline at the end of the file, or a gzip stream that stops short) ends
 * the items with 0 and leaves a warning (recording_warning). */
int recording_next(struct recording *r, struct record_item *it, char *err, size_t errlen);
/* From now on a sample earlier than the one before it is a bad line:
 * "FILE:LINE: sample: time goes backwards" (a replay's first read; a
 * stream always).  A seek starts the comparison again. */
void recording_check_order(struct recording *r);
/* Parses the lines after this one on `threads` more threads (at most 8)
 * while the caller converts them: recording_next gives the same items,
 * errors and warning as without, sooner on more than one core.  For a
 * file read once in order (the JSON of up to 16 lines is read ahead, and
 * a seek throws it away).  The threads stop at the end or an error,
 * recording_seek starts them again, recording_close joins them; signals
 * stay with the caller's threads.  0 (also for threads <= 0: off, and
 * when already on), -1 when no thread could be started (the handle reads
 * on as before). */
int recording_read_ahead(struct recording *r, int threads);
/* After the last item (recording_next gave 0): the read-ahead's threads
 * joined and its buffers (16 lines' copies and jansson arenas, 4 MiB)
 * freed, for a handle that is kept open but not read on. */
void recording_read_ahead_end(struct recording *r);
/* The workers worth starting for a whole-file read here: the online CPUs
 * but one, at most 3 (0 on one CPU: no read-ahead).  The caller parses too when its line is not ready, so
 * one worker keeps two cores busy (a second made it slower: three threads
 * on two cores, bench/README.md "History and exports"), and the caller's
 * own part (reading, converting: ~30 %) leaves no use for a fourth. */
int recording_read_threads(void);
/* "FILE:LINE: truncated last line (the recording was cut short); the rest
 * replays", or NULL when the file ended cleanly (so far).  Borrowed. */
const char *recording_warning(const struct recording *r);
/* How far into the file the reading is (its bytes, compressed for gzip;
 * read ahead included) and the file's size (0: unknown). */
void recording_position(const struct recording *r, uint64_t *done, uint64_t *size);
/* Closes and frees; NULL is a no-op. */
void recording_close(struct recording *r);

/* ---- a stream: a recording as it is written (--follow) -------------------
 *
 * The same reader over bytes handed to it as they arrive instead of a
 * file it reads: the same lines (blank ones passed over and counted, at
 * most RECORD_LINE_MAX each), the same decoders and every check a replay
 * makes, the samples' time order included; plain or gzip, told apart by
 * the first two bytes as a file is, gzip inflated as it comes (members one
 * after another, and the same error for bytes after the last that are no
 * gzip).  A line is decoded once it is whole; a last line cut short is the
 * same warning as a file's.  The handle is a struct recording: its header,
 * warning and close are the file's. */

/* A stream named name (what its messages say: "FILE:LINE: ..."). */
struct recording *recording_stream_new(const char *name);
/* The next bytes, as many as came (copied).  The handle holds what it
 * was fed until its lines are read: feed more once it is hungry. */
void recording_stream_feed(struct recording *r, const void *buf, size_t n);
/* 1 when everything fed has been taken in (more can be fed without the
 * handle growing beyond a line). */
int recording_stream_hungry(const struct recording *r);
/* No more bytes will come (the writer closed the file or the pipe). */
void recording_stream_end(struct recording *r);
/* The header: 1 read (recording_header), 0 not whole yet, -1 + err
 * ("NAME:1: ...", "NAME: empty file (not a recording)"). */
int recording_stream_header(struct recording *r, char *err, size_t errlen);
/* The next item once the header was read: 1 with *it, 0 none whole yet
 * (feed more), 2 the end (after recording_stream_end; a cut last line
 * leaves recording_warning), -1 + "NAME:LINE: reason" (again on later
 * calls). */
int recording_stream_next(struct recording *r, struct record_item *it, char *err, size_t errlen);

/* A place to read on from: the (decompressed) offset of the next unread
 * line, its number, and the disk table the rows after it are deltas
 * against (only its ndev rows, -1: none read yet).  recording_mark takes
 * one between two items (m zeroed the first time; its rows are replaced);
 * recording_seek on a handle of the same file makes the next
 * recording_next read the item that followed it.  A plain file seeks at
 * once; gzip inflates from the access point before the offset when the
 * handle has an index (recording_use_index: at most RECORD_INDEX_SPAN bytes),
 * else from the top up to it, which costs what reading that far costs,
 * less the JSON.  recording_seek: 0, or
 * -1 + "FILE:LINE: cannot seek: REASON" (the file shrank). */
struct record_mark {
	uint64_t off;
	unsigned line;
	int ndev;
	uint64_t t_ns;
	struct disk_counters *dev;
};
void recording_mark(const struct recording *r, struct record_mark *m);
/* Access points into a gzip recording (gzindex.h), one every span bytes of
 * its JSON (RECORD_INDEX_SPAN: a seek inflates at most that much), built
 * from r's file on a thread of their own while the caller reads on; NULL
 * for a plain file or when no thread starts.  recording_use_index lends them to a handle of the
 * same file (r's or another's): its seeks wait for the build, then start
 * from the point before the mark.  The job outlives the handles it is lent
 * to (gzindex_job_free). */
#define RECORD_INDEX_SPAN (4u << 20)
struct gzindex_job;
struct gzindex_job *recording_index(const struct recording *r, uint64_t span);
void recording_use_index(struct recording *r, struct gzindex_job *j);
void recording_mark_free(struct record_mark *m);
int recording_seek(struct recording *r, const struct record_mark *m, char *err, size_t errlen);

#endif
