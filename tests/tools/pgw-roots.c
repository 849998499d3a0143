/*
 * pgw-roots: the finders of src/linux/ on one image, for tests and
 * benchmarks (the `roots` command of the CLI comes later).  One record a
 * line, key=value:
 *
 *   pgw-roots vmcoreinfo [--text|--kv] [BUDGETS] IMAGE
 *       found=PA place=note|data text=PA len=N mode=M root=PA, then one
 *       candidate=PA line each with valid= and why=; --text prints the
 *       text found instead, --kv the image's VMCOREINFO after adopting it
 *       (KEY=value lines, as the note would give them).  Exit 1: none.
 *   pgw-roots note IMAGE
 *       note=valid|invalid|none: the image's own VMCOREINFO, checked
 *       (pgw_vmcoreinfo_validate).  Exit 1 unless valid.
 *   pgw-roots kernel-root [--mode=M] [BUDGETS] IMAGE
 *       mode=M root=PA direct_map=VA text_va=VA tied=N why=...
 *   pgw-roots roots [--mode=M --root=PA | --how=auto|memory|scan]
 *                   [BUDGETS] IMAGE
 *       "# mode ..." and "# kernel-root ..." (how they were chosen), one
 *       root= line per root, diff= lines, cpu= lines, and a scan line
 *       with the counts and the scan's time in ms.
 *   BUDGETS: --max-pages=N --max-decoded=N --max-entries=N
 *   --sme-mask=MASK (any command): the entries' C-bit (scan opts' enc)
 *   --threads=N (any command): the image's scan threads (open opts)
 *
 * --how: auto uses the image's VMCOREINFO when it validates, else
 * VMCOREINFO found in memory, else the kernel-root scan; memory ignores the note and adopts
 * what is found in memory; scan ignores VMCOREINFO altogether.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pgwalk.h"

static const char *prog = "pgw-roots";

struct opts {
	const char *cmd, *image, *mode, *how;
	bool have_root, text, kv;
	uint64_t root;
	struct pgw_scan_opts scan;
};

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void print_stats(const char *what, const struct pgw_scan_stats *s,
			double ms)
{
	printf("%s pages=%" PRIu64 " scanned=%" PRIu64 " absent=%" PRIu64
	       " candidates=%" PRIu64 " entries=%" PRIu64 " complete=%s"
	       " ms=%.2f holes=%" PRIu64 " decoded=%" PRIu64, what, s->pages,
	       s->scanned, s->absent, s->candidates, s->entries,
	       s->complete ? "yes" : "no", ms, s->holes, s->decoded);
	if (!s->complete)
		printf(" why=\"%s\"", s->why);
	putchar('\n');
}

static int cmd_vmcoreinfo(struct pgw_image *img, const struct opts *o)
{
	static struct pgw_vmci_found f;
	struct pgw_err err;
	double t0 = now_ms();
	enum pgw_status st = pgw_vmcoreinfo_find_in_memory(img, &o->scan, &f,
							   &err);
	double ms = now_ms() - t0;

	if (st != PGW_OK && st != PGW_E_NOTFOUND) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		return 2;
	}
	if (o->text && st == PGW_OK) {
		fwrite(f.text, 1, f.len, stdout);
		return 0;
	}
	if (o->kv && st == PGW_OK) {
		if (pgw_image_adopt_vmcoreinfo(img, f.text, f.len, f.chosen.pa,
					       &err) != PGW_OK) {
			fprintf(stderr, "%s: %s\n", prog, err.msg);
			return 2;
		}
		/* Through the accessors, in the text's order. */
		const char *p = f.text, *end = f.text + f.len;
		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			const char *eq = memchr(p, '=', (size_t)((nl ? nl : end) - p));
			if (eq) {
				char key[128];
				snprintf(key, sizeof(key), "%.*s", (int)(eq - p), p);
				printf("%s=%s\n", key, pgw_vmcoreinfo_get(img, key));
			}
			p = nl ? nl + 1 : end;
		}
		return 0;
	}
	if (st == PGW_OK)
		printf("found=0x%" PRIx64 " place=%s text=0x%" PRIx64
		       " len=%zu lines=%u mode=%s root=0x%" PRIx64 "\n",
		       f.chosen.pa, pgw_vmci_place_key(f.chosen.place),
		       f.text_pa, f.len, f.check.lines, f.check.mode->name,
		       f.check.kernel_root);
	else
		printf("found=- error=\"%s\"\n", err.msg);
	for (size_t i = 0; i < f.nlisted; i++)
		printf("candidate=0x%" PRIx64 " place=%s valid=%s why=\"%s\"\n",
		       f.cand[i].pa, pgw_vmci_place_key(f.cand[i].place),
		       f.cand[i].valid ? "yes" : "no", f.cand[i].why);
	printf("candidates=%zu valid=%zu\n", f.ncandidates, f.nvalid);
	print_stats("scan", &f.scan, ms);
	return st == PGW_OK ? 0 : 1;
}

static int cmd_note(struct pgw_image *img)
{
	struct pgw_vmci_check c;
	struct pgw_err err;

	if (pgw_vmcoreinfo_validate(img, &c, &err) != PGW_OK) {
		printf("note=%s error=\"%s\"\n", err.status == PGW_E_NOTFOUND ?
		       "none" : "invalid", err.msg);
		return 1;
	}
	printf("note=valid lines=%u mode=%s root=0x%" PRIx64 " why=\"%s\"\n",
	       c.lines, c.mode->name, c.kernel_root, c.why);
	return 0;
}

static int cmd_kernel_root(struct pgw_image *img, const struct opts *o)
{
	struct pgw_kernel_root_found k;
	struct pgw_err err;
	const struct pgw_mode *mode = o->mode ? pgw_mode_by_name(o->mode) :
						NULL;
	double t0 = now_ms();
	enum pgw_status st = pgw_kernel_root_scan(img, mode, &o->scan, &k,
						  &err);
	double ms = now_ms() - t0;

	if (st != PGW_OK) {
		printf("root=- error=\"%s\"\n", err.msg);
		print_stats("scan", &k.scan, ms);
		return 1;
	}
	printf("mode=%s root=0x%" PRIx64 " direct_map=0x%" PRIx64
	       " text_va=0x%" PRIx64 " tied=%zu why=\"%s\"\n", k.mode->name,
	       k.table, k.direct_map, k.text_va, k.ntied, k.why);
	print_stats("scan", &k.scan, ms);
	return 0;
}

/* Mode and kernel root as --how says; prints how on two "#" lines. */
static int choose(struct pgw_image *img, const struct opts *o,
		  const struct pgw_mode **mode, uint64_t *root)
{
	struct pgw_err err;
	const char *how = o->how ? o->how : "auto";

	if (o->mode || o->have_root) {
		*mode = o->mode ? pgw_mode_by_name(o->mode) : NULL;
		if (!*mode || !o->have_root) {
			fprintf(stderr, "%s: --mode and --root go together\n",
				prog);
			return 64;
		}
		*root = o->root;
		printf("# mode %s (--mode)\n# kernel-root 0x%" PRIx64
		       " (--root)\n", (*mode)->name, *root);
		return 0;
	}
	struct pgw_vmci_check note;
	bool note_ok = pgw_vmcoreinfo_validate(img, &note, &err) == PGW_OK;
	if (!note_ok && pgw_vmcoreinfo_count(img))
		printf("# vmcoreinfo note damaged: %s\n", err.msg);
	if (strcmp(how, "memory") == 0 ||
	    (strcmp(how, "auto") == 0 && !note_ok)) {
		static struct pgw_vmci_found f;
		uint64_t at = 0;
		if (pgw_vmcoreinfo_find_in_memory(img, &o->scan, &f, &err) ==
			    PGW_OK &&
		    pgw_image_adopt_vmcoreinfo(img, f.text, f.len, f.chosen.pa,
					       &err) == PGW_OK &&
		    pgw_vmcoreinfo_in_memory(img, &at))
			printf("# vmcoreinfo found in memory at 0x%" PRIx64
			       " (%s)\n", at,
			       pgw_vmci_place_key(f.chosen.place));
		else if (strcmp(how, "memory") == 0) {
			fprintf(stderr, "%s: %s\n", prog, err.msg);
			return 1;
		} else
			how = "scan";
	}
	if (strcmp(how, "scan") == 0) {
		struct pgw_kernel_root_found k;
		if (pgw_kernel_root_scan(img, NULL, &o->scan, &k, &err) !=
		    PGW_OK) {
			fprintf(stderr, "%s: %s\n", prog, err.msg);
			return 1;
		}
		*mode = k.mode;
		*root = k.table;
		printf("# mode %s (kernel-root scan)\n# kernel-root 0x%" PRIx64
		       " (%s)\n", k.mode->name, k.table, k.why);
		return 0;
	}
	struct pgw_mode_choice mc;
	struct pgw_root r;
	struct pgw_root_request req = { .cpu = -1 };
	if (pgw_detect_mode(img, 0, false, NULL, &mc, &err) != PGW_OK ||
	    pgw_root_resolve(img, mc.mode, &req, &r, &err) != PGW_OK) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		return 1;
	}
	if (r.source != PGW_ROOT_VMCOREINFO) {
		fprintf(stderr, "%s: no kernel root in VMCOREINFO (%s)\n",
			prog, r.why);
		return 1;
	}
	*mode = mc.mode;
	*root = r.table;
	printf("# mode %s (%s)\n# kernel-root 0x%" PRIx64 " (%s)\n",
	       mc.mode->name, mc.why, r.table, r.why);
	return 0;
}

static void print_root(const struct pgw_roots *rs, size_t i)
{
	const struct pgw_root_found *r = &rs->root[i];
	char cpus[256] = "-";
	size_t n = 0;

	for (size_t c = 0; c < rs->ncpus && n < sizeof(cpus) - 24; c++)
		if (rs->cpu_root[c] == (long)i)
			n += (size_t)snprintf(cpus + n, sizeof(cpus) - n,
					      "%s%zu", n ? "," : "", c);
	printf("root=0x%" PRIx64 " kind=%s cpus=%s pti_user=", r->table,
	       pgw_root_kind_key(r->kind), cpus);
	if (r->pti_user)
		printf("0x%" PRIx64, r->pti_user);
	else
		putchar('-');
	printf(" user_bytes=%" PRIu64 " user_leaves=%" PRIu64
	       " user_access=%" PRIu64 " user_tables=%" PRIu64
	       " kernel=%u/%u diffs=%u why=\"%s\"\n", r->user_bytes,
	       r->user_leaves, r->user_access_leaves, r->user_tables,
	       r->kernel_same, r->kernel_entries, r->ndiffs, r->why);
	for (unsigned d = 0; d < r->ndiffs_listed; d++) {
		const struct pgw_root_diff *df = &rs->diffs[r->diff + d];
		printf("diff root=0x%" PRIx64 " level=%s index=%u entry=0x%"
		       PRIx64 " raw=0x%" PRIx64 " kernel=0x%" PRIx64 "\n",
		       r->table, df->level == PGW_PGD ? "pgd" : "pmd",
		       df->index, df->entry_pa, df->raw, df->kernel_raw);
	}
}

static int cmd_roots(struct pgw_image *img, const struct opts *o)
{
	const struct pgw_mode *mode;
	uint64_t root;
	struct pgw_roots *rs;
	struct pgw_err err;
	struct pgw_roots_opts ro = { .scan = o->scan };
	int rc = choose(img, o, &mode, &root);

	if (rc)
		return rc;
	double t0 = now_ms();
	enum pgw_status st = pgw_roots_scan(img, mode, root, &ro, &rs, &err);
	double ms = now_ms() - t0;
	if (st != PGW_OK) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		return 1;
	}
	for (size_t i = 0; i < rs->n; i++)
		print_root(rs, i);
	for (size_t c = 0; c < rs->ncpus; c++) {
		printf("cpu=%zu root=", c);
		if (rs->cpu_root[c] >= 0)
			printf("0x%" PRIx64 "\n", rs->root[rs->cpu_root[c]].table);
		else
			printf("-\n");
	}
	printf("kernel_start=0x%" PRIx64 " freed_slots=%" PRIu64 "\n",
	       rs->kernel_start, rs->freed_slots);
	print_stats("scan", &rs->scan, ms);
	pgw_roots_free(rs);
	return 0;
}

_Noreturn static void usage(void)
{
	fprintf(stderr, "usage: %s vmcoreinfo|kernel-root|roots [OPTIONS] "
		"IMAGE (see the source's comment)\n", prog);
	exit(64);
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "mode", required_argument, NULL, 'm' },
		{ "root", required_argument, NULL, 'r' },
		{ "how", required_argument, NULL, 'h' },
		{ "text", no_argument, NULL, 't' },
		{ "kv", no_argument, NULL, 'k' },
		{ "max-pages", required_argument, NULL, 'P' },
		{ "max-decoded", required_argument, NULL, 'D' },
		{ "max-entries", required_argument, NULL, 'E' },
		{ "sme-mask", required_argument, NULL, 'S' },
		{ "threads", required_argument, NULL, 'T' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { 0 };
	struct pgw_image_open_opts open = { 0 };
	struct pgw_image *img;
	struct pgw_err err;
	int c, rc;

	if (argc < 2)
		usage();
	o.cmd = argv[1];
	optind = 2;
	while ((c = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		switch (c) {
		case 'm': o.mode = optarg; break;
		case 'r': o.have_root = true;
			  o.root = strtoull(optarg, NULL, 0); break;
		case 'h': o.how = optarg; break;
		case 't': o.text = true; break;
		case 'k': o.kv = true; break;
		case 'P': o.scan.max_pages = strtoull(optarg, NULL, 0); break;
		case 'D': o.scan.max_decoded = strtoull(optarg, NULL, 0); break;
		case 'E': o.scan.max_entries = strtoull(optarg, NULL, 0); break;
		case 'S': o.scan.enc.enc = strtoull(optarg, NULL, 0); break;
		case 'T': open.threads = (unsigned)strtoul(optarg, NULL, 0);
			  break;
		default: usage();
		}
	}
	if (optind != argc - 1)
		usage();
	o.image = argv[optind];
	if (o.mode && !pgw_mode_by_name(o.mode)) {
		fprintf(stderr, "%s: unknown mode %s\n", prog, o.mode);
		return 64;
	}
	if (pgw_image_open(&img, o.image, &open, &err) != PGW_OK) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		return 2;
	}
	if (strcmp(o.cmd, "vmcoreinfo") == 0)
		rc = cmd_vmcoreinfo(img, &o);
	else if (strcmp(o.cmd, "kernel-root") == 0)
		rc = cmd_kernel_root(img, &o);
	else if (strcmp(o.cmd, "note") == 0)
		rc = cmd_note(img);
	else if (strcmp(o.cmd, "roots") == 0)
		rc = cmd_roots(img, &o);
	else
		usage();
	pgw_image_close(img);
	return rc;
}
