/* The SVG export's page (svg.h): its size, the C locale, the range, the
 * title and header, which view draws the rest (svg_overview.c,
 * svg_runs.c, svg_sweep.c), and the final check that every write went
 * through.  Geometry in px, every coordinate computed by the views, every
 * string escaped on its way out (svg_draw.c). */
#include "output/svg.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/units.h"
#include "output/svg_draw.h"
#include "base/util.h"

const struct svg_theme svg_theme_light = {
    .bg = 0xffffff,
    .text = 0x1a1a1a, /* 17.4:1 on white */
    .dim = 0x4d4d4d,  /* 8.5:1 */
    .grid = 0xdedede,
    .marker = 0x6b6b6b,	  /* 5.3:1: phase lines and labels */
    .read = 0x0072b2,	  /* Okabe-Ito blue */
    .write = 0xd55e00,	  /* vermillion */
    .active = 0x0072b2,	  /* blue: the strongest, at the bottom */
    .inactive = 0x56b4e9, /* sky blue */
    .free_ = 0xe3e3e3,	  /* light grey: room, not data */
    .io = 0xe69f00,	  /* orange: the read rate in the Runs view */
    .deact = 0xcc79a7,	  /* reddish purple */
    .scan = 0x009e73,	  /* bluish green */
    .burst = 0x1a1a1a,
};

/* ---- title --------------------------------------------------------------- */

/* "rw_cp vs mm_sync_cp under a 64M memory limit": the labels of the runs
 * shown, in order of their first run, then the limit. */
static void make_title(const struct svg_input *in, const struct svg_opts *o, int overview,
		       char *buf, size_t len)
{
	size_t off = 0;
	int names = 0, more = 0;
	/* every label ends in the same --disk-limit: the title says it once */
	const char *disk = runlog_common_limit(in->runs, in->nruns);
	buf[0] = '\0';
	for (size_t i = 0; i < in->nruns; i++) {
		const struct run_result *r = &in->runs[i];
		if (overview
			? (r->t_start_ns > o->to_ns || (r->t_end_ns && r->t_end_ns < o->from_ns))
			: !svg_run_shown(in, o, i))
			continue;
		int seen = 0;
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(in->runs[j].name, r->name) &&
			       (overview || svg_run_shown(in, o, j));
		if (seen)
			continue;
		if (names == 4) {
			more++;
			continue;
		}
		int nl = runlog_label_len(r, disk);
		off += (size_t)snprintf(buf + off, off < len ? len - off : 0, "%s%.*s",
					names ? " vs " : "", nl, r->name);
		names++;
	}
	if (off >= len)
		off = len - 1;
	if (more)
		off += (size_t)snprintf(buf + off, len - off, " and %d more", more);
	if (off >= len)
		off = len - 1;
	if (!names)
		off += (size_t)snprintf(buf + off, len - off, "Disk and memory");
	if (off >= len)
		off = len - 1;
	char lim[32];
	fmt_mib(lim, sizeof(lim), in->mem_limit);
	if (in->mem_limit)
		off += (size_t)snprintf(buf + off, len - off, " under a %s memory limit", lim);
	else
		off += (size_t)snprintf(buf + off, len - off, ", no memory limit");
	if (off >= len)
		off = len - 1;
	if (disk && names)
		snprintf(buf + off, len - off, ", disk at %s/s", disk + 1);
}

static void header(struct svg_ctx *c, const struct svg_opts *o, int overview, const char *what)
{
	char title[512], sub[640];
	make_title(c->in, o, overview, title, sizeof(title));
	size_t off = (size_t)snprintf(sub, sizeof(sub), "%s", what);
	const char *facts[3] = {c->in->kernel, c->in->disk, c->in->host};
	const char *names[3] = {"kernel", "disk", "host"};
	for (int i = 0; i < 3; i++)
		if (facts[i] && *facts[i] && off < sizeof(sub))
			off += (size_t)snprintf(sub + off, sizeof(sub) - off, " \xc2\xb7 %s %s",
						names[i], facts[i]);
	/* the slide's title on one line: smaller down to 32 px, then cut */
	double fs = 46 * c->u, room = c->W - 80 * c->u, w = svg_sans_width(title, fs) * 1.1;
	if (w > room) {
		fs *= room / w;
		if (fs < 32 * c->u) { /* cut only what 32 px cannot hold (shrunk to fit, a
				      * cut by the same estimate would lose a character
				      * to rounding) */
			fs = 32 * c->u;
			svg_utf8_cut(title, sizeof(title),
				     (size_t)(room / (fs * SVG_SANS_EM * 1.1)));
		}
	}
	svg_text(c, 40 * c->u, 62 * c->u, fs, "start", "bold", c->th->text, SVG_SANS, title);
	svg_text(c, 40 * c->u, 104 * c->u, 28 * c->u, "start", "normal", c->th->dim, SVG_SANS, sub);
}

/* ---- entry ----------------------------------------------------------------- */

static int draw(struct svg_ctx *c, const struct svg_opts *o, char *err, size_t errlen)
{
	const struct series *ser = c->in->ser;
	size_t len = ser ? series_len(ser) : 0;
	/* the range: samples with from <= t <= to */
	size_t i0 = 0, i1 = len ? len - 1 : 0;
	if (len && o->from_ns) {
		long f = series_find(ser, o->from_ns);
		i0 = f < 0 ? len : (size_t)f;
	}
	while (len && o->to_ns && i1 > 0 && series_at(ser, i1)->t_ns > o->to_ns)
		i1--;
	if (!len || i0 >= len || i1 <= i0 || (o->to_ns && series_at(ser, i1)->t_ns > o->to_ns))
		return errf(err, errlen, "nothing to draw: fewer than two samples in the range");
	c->i0 = i0;
	c->i1 = i1;
	c->t0 = series_at(ser, i0)->t_ns;
	c->t1 = series_at(ser, i1)->t_ns;

	svg_put(&c->w,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\">\n",
		c->W, c->H, c->W, c->H);
	svg_rect(c, 0, 0, c->W, c->H, c->th->bg);
	struct svg_opts ro = *o;
	ro.from_ns = c->t0;
	ro.to_ns = c->t1;
	int rc;
	if (o->view == SVG_RUNS) {
		header(c, &ro, 0, "Copy phase of each run on one time and rate scale");
		rc = svg_runs_view(c, &ro, err, errlen);
	} else {
		char what[96];
		snprintf(what, sizeof(what), "%.1f s, %zu samples", (double)(c->t1 - c->t0) / 1e9,
			 c->in->reduced && c->in->nsamples ? c->in->nsamples : i1 - i0 + 1);
		header(c, &ro, 1, what);
		rc = svg_overview(c, &ro);
	}
	if (rc < 0)
		return -1;
	svg_put(&c->w, "</svg>\n");
	return 0;
}

size_t svg_plot_columns(const struct svg_opts *o)
{
	double W = o->width ? o->width : 1920, H = o->height ? o->height : 1080;
	double u = fmin(W / 1920.0, H / 1080.0);
	/* svg_write's L and R */
	double w = (W - 50 * u) - 150 * u;
	return w >= 1 ? (size_t)w : 1;
}

int svg_write(FILE *f, const struct svg_input *in, const struct svg_opts *o, char *err,
	      size_t errlen)
{
	struct svg_ctx c;
	memset(&c, 0, sizeof(c));
	c.w.f = f;
	/* a recording's header has no limit: the runs' cgroups say it */
	struct svg_input eff = *in;
	for (size_t i = 0; !in->mem_limit && in->ser && i < series_len(in->ser); i++) {
		const struct sample *smp = series_at(in->ser, i);
		if ((smp->have & SAMPLE_HAVE_CG) && smp->cg_limit > eff.mem_limit)
			eff.mem_limit = smp->cg_limit;
	}
	c.in = &eff;
	c.reduced = in->reduced;
	c.th = o->theme ? o->theme : &svg_theme_light;
	c.W = o->width ? o->width : 1920;
	c.H = o->height ? o->height : 1080;
	if (c.W < 320 || c.H < 240 || c.W > 16384 || c.H > 16384)
		return errf(err, errlen,
			    "picture size %.0fx%.0f: out of range (320x240 to 16384x16384)", c.W,
			    c.H);
	c.u = c.W / 1920.0;
	if (c.H / 1080.0 < c.u) /* a wide strip: text follows the shorter side */
		c.u = c.H / 1080.0;
	c.L = 150 * c.u;
	c.R = c.W - 50 * c.u;
	/* '.' in every number, whatever LC_NUMERIC the program runs with */
	locale_t cl = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	if (!cl)
		return errf(err, errlen, "cannot make the C locale: %s", strerror(errno));
	locale_t old = uselocale(cl);
	int rc = o->view == SVG_SWEEP ? svg_sweep_draw(f, in, o, c.W, c.H, err, errlen)
				       : draw(&c, o, err, errlen);
	uselocale(old);
	freelocale(cl);
	if (rc < 0)
		return -1;
	errno = 0;
	if (!c.w.err && (fflush(f) == EOF || ferror(f)))
		c.w.err = errno ? errno : EIO;
	if (c.w.err)
		return errf(err, errlen, "write error: %s", strerror(c.w.err));
	return 0;
}
