/*
 * pgw-tasks [OPTION...] IMAGE: the kernel's task list read from an image
 * through the library (kallsyms, BTF, task list), one line per task:
 *
 *   PID <tab> COMM <tab> PGD_PA <tab> KIND <tab> TASK <tab> MM
 *
 * COMM escaped (\xNN for anything but printable ASCII and for a
 * backslash), PGD_PA "-" without one, KIND "kthread" or "user".  What was
 * read before an error is printed, then the error on stderr (exit 1).
 *
 *   --vmcoreinfo=FILE   the kallsyms tables from this VMCOREINFO text
 *                       (for raw images; with --cr3 and --mode)
 *   --cr3=ADDR --mode=NAME --format=NAME   as pgwalk's options
 *   --sym=NAME          print "NAME TYPE ADDR" instead (repeatable)
 *   --info              print what was found: kallsyms, BTF, layout
 *   --scan              find BTF by scanning, not through __start_BTF
 *   --simple            one call, pgw_linux_tasks (ELF with VMCOREINFO)
 *   --time              per-phase CPU times on stderr, in ms
 *   --btf-blob=FILE     print the task layout of a BTF blob file instead
 *                       (IMAGE is not read)
 *   --modules           the module list instead, as /proc/modules
 *                       prints it (NAME SIZE, the sum of its ranges,
 *                       STATE, the first range's base), each range after
 *                       it on a line of its own (KIND BASE SIZE)
 *   --infer             the layout inferred without BTF (even where the
 *                       image has BTF), anchored on "swapper/0": with
 *                       --info the layout line, else the task lines with
 *                       a seventh column, PPID
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "linux/kernel_btf.h"
#include "pgwalk.h"

/* CPU time of the process, in ms: the machine running the tests is
 * shared, and wall time there says more about the neighbours. */
static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void put_escaped(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\')
			putchar(p[i]);
		else
			printf("\\x%02x", p[i]);
	}
}

static void print_tasks(const struct pgw_task *t, size_t n, bool ppid)
{
	for (size_t i = 0; i < n; i++) {
		printf("%" PRId32 "\t", t[i].pid);
		put_escaped(t[i].comm, t[i].comm_len);
		if (t[i].has_pgd_pa)
			printf("\t0x%" PRIx64, t[i].pgd_pa);
		else
			printf("\t-");
		printf("\t%s\t0x%" PRIx64 "\t0x%" PRIx64,
		       t[i].kthread ? "kthread" : "user", t[i].task, t[i].mm);
		if (ppid)
			printf("\t%" PRId32, t[i].ppid);
		putchar('\n');
	}
}

/* SYMBOL(kallsyms_*) lines of a VMCOREINFO text file. */
static int tables_from_file(const char *path, struct pgw_kallsyms_tables *t)
{
	static const char *const keys[] = {
		"kallsyms_names", "kallsyms_num_syms", "kallsyms_token_table",
		"kallsyms_token_index", "kallsyms_offsets",
		"kallsyms_relative_base",
	};
	uint64_t *field[] = { &t->names, &t->num_syms, &t->token_table,
			      &t->token_index, &t->offsets,
			      &t->relative_base };
	FILE *f = fopen(path, "r");
	char line[512];
	unsigned found = 0;

	memset(t, 0, sizeof(*t));
	if (!f) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), f))
		for (size_t i = 0; i < 6; i++) {
			char want[64];
			snprintf(want, sizeof(want), "SYMBOL(%s)=", keys[i]);
			if (strncmp(line, want, strlen(want)) == 0) {
				*field[i] = strtoull(line + strlen(want), NULL,
						     16);
				found |= 1u << i;
			}
		}
	fclose(f);
	return found == 0x3f ? 0 : -1;
}

struct opts {
	const char *blob;
	const char *vmcoreinfo, *mode, *format, *syms[16];
	size_t nsyms;
	bool have_cr3, info, scan, simple, timing, infer, modules;
	uint64_t cr3;
};

static int fail(const char *what, const struct pgw_err *err)
{
	fprintf(stderr, "pgw-tasks: %s%s%s\n", what, *what ? ": " : "",
		err->msg);
	return 1;
}

/* The module list: what was read, then the error (exit 1). */
static int print_modules(const struct pgw_space *sp,
			 const struct pgw_kallsyms *ks,
			 const struct pgw_kernel_btf *kb)
{
	static const char *const states[] = { "Live", "Loading", "Unloading",
					      "Unformed" };
	struct pgw_modules *mods;
	struct pgw_err err;
	enum pgw_status st = pgw_modules_open(sp, ks, kb, &mods, &err);

	for (size_t i = 0; i < pgw_modules_count(mods); i++) {
		const struct pgw_module *m = pgw_modules_get(mods, i);
		uint64_t size = 0;
		for (unsigned r = 0; r < m->nranges; r++)
			size += m->range[r].size;
		put_escaped(m->name, m->name_len);
		printf(" %" PRIu64 " %s 0x%" PRIx64 "\n", size,
		       states[m->state], m->nranges ? m->range[0].base : 0);
		for (unsigned r = 0; r < m->nranges; r++)
			printf("  %s 0x%" PRIx64 " %" PRIu64 "\n",
			       m->range[r].kind, m->range[r].base,
			       m->range[r].size);
	}
	if (mods)
		fprintf(stderr, "pgw-tasks: modules: %s\n",
			pgw_modules_how(mods));
	pgw_modules_close(mods);
	return st == PGW_OK ? 0 : fail("", &err);
}

static void print_info_layout(const struct pgw_task_layout *l)
{
	printf("layout task_size=%u tasks=%u next=%u pid=%u tgid=%u "
	       "comm=%u/%u flags=%u/%u mm=%u pgd=%u\n", l->task_size,
	       l->tasks, l->list_next, l->pid, l->tgid, l->comm, l->comm_size,
	       l->flags, l->flags_size, l->mm, l->mm_pgd);
}

/* --infer: the inferred layout (the fields BTF also gives, so the two
 * can be compared), or the tasks read with it and their ppids. */
static int run_infer(struct pgw_space *sp, const struct opts *o)
{
	struct pgw_task_layout lay;
	struct pgw_task *tasks = NULL;
	struct pgw_err err = { 0 };
	uint64_t init_task;
	char why[480];
	size_t n = 0;
	double t0 = now_ms();

	if (pgw_task_layout_infer(sp, NULL, &init_task, &lay, why,
				  sizeof(why), &err) != PGW_OK)
		return fail("", &err);
	if (o->timing)
		fprintf(stderr, "time infer=%.2f\n", now_ms() - t0);
	if (o->info) {
		printf("init_task 0x%" PRIx64 " real_parent=%u\n", init_task,
		       lay.real_parent);
		lay.task_size = 0;     /* BTF knows it; inference cannot */
		print_info_layout(&lay);
		return 0;
	}
	enum pgw_status st = pgw_linux_task_list(sp, init_task, &lay, 0,
						 &tasks, &n, &err);
	print_tasks(tasks, n, true);
	pgw_linux_tasks_free(tasks);
	return st == PGW_OK ? 0 : fail("", &err);
}

static void print_info(const struct pgw_kallsyms *ks,
		       const struct pgw_kernel_btf *kb,
		       const struct pgw_task_layout *l)
{
	struct pgw_kallsyms_info ki;
	struct pgw_kernel_btf_info bi;

	pgw_kallsyms_info(ks, &ki);
	printf("kallsyms symbols=%u data=%u absolute_percpu=%d big=%d "
	       "names_bytes=%zu absolute=%d\n", ki.symbols, ki.data_symbols,
	       ki.absolute_percpu, ki.big_lengths, ki.names_bytes,
	       ki.absolute);
	printf("tables %s names=0x%" PRIx64 " num_syms=0x%" PRIx64
	       " token_table=0x%" PRIx64 " token_index=0x%" PRIx64
	       " offsets=0x%" PRIx64 " relative_base=0x%" PRIx64 "\n",
	       ki.scanned ? "scanned" : "vmcoreinfo", ki.tables.names,
	       ki.tables.num_syms, ki.tables.token_table,
	       ki.tables.token_index, ki.tables.offsets,
	       ki.tables.relative_base);
	if (ki.absolute)
		printf("addresses=0x%" PRIx64 "\n", ki.tables.addresses);
	if (!kb)
		return;
	pgw_kernel_btf_info(kb, &bi);
	printf("btf va=0x%" PRIx64 " size=%" PRIu64 " types=%u how=%s\n",
	       bi.va, bi.size, bi.types, bi.how);
	if (l)
		print_info_layout(l);
}

static int blob_layout(const char *path)
{
	FILE *f = fopen(path, "rb");
	static uint8_t buf[1 << 20];
	size_t n = f ? fread(buf, 1, sizeof(buf), f) : 0;
	struct pgw_kernel_btf *kb;
	struct pgw_task_layout lay;
	struct pgw_err err = { 0 };

	if (f)
		fclose(f);
	if (pgw_kernel_btf_from_blob(buf, n, &kb, &err) != PGW_OK)
		return fail(path, &err);
	int rc = 0;
	if (pgw_task_layout_btf(kb, 8, &lay, &err) == PGW_OK)
		print_info_layout(&lay);
	else
		rc = fail(path, &err);
	pgw_kernel_btf_close(kb);
	return rc;
}

static int run(struct pgw_space *sp, const struct opts *o)
{
	struct pgw_kallsyms_tables tables;
	struct pgw_kallsyms *ks = NULL;
	struct pgw_kernel_btf *kb = NULL;
	struct pgw_task_layout lay;
	struct pgw_task *tasks = NULL;
	struct pgw_err err = { 0 };
	size_t n = 0;
	uint64_t init_task, start, stop;
	double t0 = now_ms(), t1, t2, t3;
	int rc = 0;

	if (o->simple) {
		enum pgw_status st = pgw_linux_tasks(sp, &tasks, &n, &err);
		t1 = now_ms();
		print_tasks(tasks, n, false);
		pgw_linux_tasks_free(tasks);
		if (o->timing)
			fprintf(stderr, "time all=%.2f\n", t1 - t0);
		return st == PGW_OK ? 0 : fail("", &err);
	}
	if (o->vmcoreinfo) {
		if (tables_from_file(o->vmcoreinfo, &tables) != 0) {
			fprintf(stderr, "pgw-tasks: %s: no kallsyms tables\n",
				o->vmcoreinfo);
			return 1;
		}
		if (pgw_kallsyms_read(sp, &tables, &ks, &err) != PGW_OK)
			return fail("", &err);
	} else if (pgw_kallsyms_open(sp, &ks, &err) != PGW_OK) {
		return fail("", &err);
	}
	t1 = now_ms();
	for (size_t i = 0; i < o->nsyms; i++) {
		char type;
		uint64_t addr;
		if (pgw_kallsyms_lookup(ks, o->syms[i], &addr, &type, &err) ==
		    PGW_OK)
			printf("%s\t%c\t0x%" PRIx64 "\n", o->syms[i], type,
			       addr);
		else
			printf("%s\t-\t-\n", o->syms[i]);
	}
	if (o->nsyms)
		goto out;
	enum pgw_status st;
	if (o->scan) {
		struct pgw_kallsyms_info ki;
		pgw_kallsyms_info(ks, &ki);
		start = ki.tables.token_index + 512;
		stop = start + PGW_KERNEL_BTF_MAX;
		st = pgw_kernel_btf_scan(sp, start, stop, &kb, &err);
	} else {
		st = pgw_kernel_btf_open(sp, ks, &kb, &err);
	}
	t2 = now_ms();
	if (st != PGW_OK) {
		if (o->info)
			print_info(ks, NULL, NULL);
		rc = fail("", &err);
		goto out;
	}
	if (o->modules) {
		rc = print_modules(sp, ks, kb);
		goto out;
	}
	if (pgw_task_layout_btf(kb, sp->mode->va_bits > 32 ? 8 : 4, &lay,
				&err) != PGW_OK) {
		rc = fail("", &err);
		goto out;
	}
	if (o->info) {
		print_info(ks, kb, &lay);
		goto out;
	}
	if (pgw_kallsyms_lookup(ks, "init_task", &init_task, NULL, &err) !=
	    PGW_OK) {
		rc = fail("", &err);
		goto out;
	}
	st = pgw_linux_task_list(sp, init_task, &lay, 0, &tasks, &n, &err);
	t3 = now_ms();
	print_tasks(tasks, n, false);
	pgw_linux_tasks_free(tasks);
	if (o->timing)
		fprintf(stderr, "time kallsyms=%.2f btf=%.2f tasks=%.2f "
			"all=%.2f\n", t1 - t0, t2 - t1, t3 - t2, t3 - t0);
	if (st != PGW_OK)
		rc = fail("", &err);
out:
	pgw_kernel_btf_close(kb);
	pgw_kallsyms_close(ks);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "vmcoreinfo", required_argument, NULL, 'v' },
		{ "cr3", required_argument, NULL, 'c' },
		{ "mode", required_argument, NULL, 'm' },
		{ "format", required_argument, NULL, 'f' },
		{ "sym", required_argument, NULL, 's' },
		{ "info", no_argument, NULL, 'i' },
		{ "scan", no_argument, NULL, 'S' },
		{ "simple", no_argument, NULL, '1' },
		{ "time", no_argument, NULL, 't' },
		{ "btf-blob", required_argument, NULL, 'b' },
		{ "infer", no_argument, NULL, 'I' },
		{ "modules", no_argument, NULL, 'M' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { 0 };
	int c;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'v': o.vmcoreinfo = optarg; break;
		case 'c': o.have_cr3 = true;
			  o.cr3 = strtoull(optarg, NULL, 16); break;
		case 'm': o.mode = optarg; break;
		case 'f': o.format = optarg; break;
		case 's':
			if (o.nsyms < 16)
				o.syms[o.nsyms++] = optarg;
			break;
		case 'i': o.info = true; break;
		case 'S': o.scan = true; break;
		case '1': o.simple = true; break;
		case 't': o.timing = true; break;
		case 'b': o.blob = optarg; break;
		case 'I': o.infer = true; break;
		case 'M': o.modules = true; break;
		default: return 64;
		}
	}
	if (o.blob)
		return blob_layout(o.blob);
	if (optind + 1 != argc) {
		fprintf(stderr, "usage: pgw-tasks [OPTION...] IMAGE\n");
		return 64;
	}

	double t0 = now_ms();
	struct pgw_image_open_opts io = { .format = o.format };
	struct pgw_image *img;
	struct pgw_err err = { 0 };
	struct pgw_mode_choice mode = { 0 };
	struct pgw_root root;
	struct pgw_root_request req = { .cpu = -1, .have_cr3 = o.have_cr3,
					.cr3 = o.cr3 };
	if (pgw_image_open(&img, argv[optind], &io, &err) != PGW_OK)
		return fail("", &err);
	if (o.mode)
		mode.mode = pgw_mode_by_name(o.mode);
	if ((!mode.mode && pgw_detect_mode(img, o.cr3, o.have_cr3, NULL, &mode,
					   &err) != PGW_OK) ||
	    pgw_root_resolve(img, mode.mode, &req, &root, &err) != PGW_OK) {
		pgw_image_close(img);
		return fail("", &err);
	}
	struct pgw_space sp = { img, mode.mode, root.table };
	if (o.timing)
		fprintf(stderr, "time open=%.2f\n", now_ms() - t0);
	int rc = o.infer ? run_infer(&sp, &o) : run(&sp, &o);
	pgw_image_close(img);
	return rc;
}
