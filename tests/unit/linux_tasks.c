/*
 * kallsyms, BTF and the task list read from a synthetic kernel's memory
 * (tests/tools/ksynth.h) through an ELF core's VMCOREINFO, as from a real
 * dump: every task with its pid, comm (raw bytes), kernel-thread flag, mm
 * and root; a pgd that does not translate kept with the reason.  Then
 * what an image can do wrong, each ending with a message and, for the
 * list, what was read before: a list looping back to another task or to
 * itself, a next pointer that is NULL or points at unmapped memory, more
 * tasks than asked for or than the image could hold, init_task anywhere
 * at all, kallsyms tables pointing at unmapped, non-canonical or wrong
 * memory, a names table cut short, a symbol count of 2^32 - 1, BTF whose
 * header lies about its sizes, __stop_BTF before __start_BTF; and the
 * kernels that lack BTF or data symbols, said as such.
 */
#include <time.h>

#include "../tools/ksynth.h"
#include "imgtest.h"

struct open_kernel {
	struct pgw_image *img;
	struct pgw_space sp;
};

static void open_kernel(const struct ksynth *k, struct open_kernel *ok_ret)
{
	struct iw_buf elf = { 0 };
	struct pgw_err err = { 0 };
	struct pgw_mode_choice mode;
	struct pgw_root root;
	struct pgw_root_request req = { .cpu = -1 };

	ks_elf(k, &elf);
	struct dw_buf b = { .p = elf.p, .len = elf.len };
	if (open_buf(&b, "elf", &ok_ret->img, &err) != PGW_OK ||
	    pgw_detect_mode(ok_ret->img, 0, false, NULL, &mode, &err) !=
		    PGW_OK ||
	    pgw_root_resolve(ok_ret->img, mode.mode, &req, &root, &err) !=
		    PGW_OK) {
		printf("Bail out! %s\n", err.msg);
		exit(1);
	}
	iw_free(&elf);
	ok_ret->sp = (struct pgw_space){ ok_ret->img, mode.mode, root.table };
}

static void test_good(void)
{
	struct ksynth k;
	struct open_kernel o;
	struct pgw_task *t;
	size_t n;
	struct pgw_err err = { 0 };

	ks_build(&k, &(struct ksynth_opts){ 0 });
	open_kernel(&k, &o);
	ok(o.sp.root == KS_ROOT, "kernel root from VMCOREINFO init_top_pgt");
	enum pgw_status st = pgw_linux_tasks(&o.sp, &t, &n, &err);
	ok(st == PGW_OK && n == KS_NTASKS, "%zu tasks (%s)", n, err.msg);
	unsigned wrong = 0;
	for (size_t i = 0; i < n && i < KS_NTASKS; i++) {
		size_t len = strnlen(k.comm[i], 16);
		bool good = t[i].task == k.task[i] && t[i].pid == k.pid[i] &&
			    t[i].tgid == k.pid[i] &&
			    t[i].kthread == k.kthread[i] &&
			    t[i].comm_len == len &&
			    !memcmp(t[i].comm, k.comm[i], len) &&
			    t[i].mm == k.mm[i] &&
			    t[i].has_pgd_pa == (k.pgd_pa[i] != 0) &&
			    (!k.pgd_pa[i] || t[i].pgd_pa == k.pgd_pa[i]);
		if (!good) {
			wrong++;
			printf("# task %zu: pid %d comm %.16s pgd_pa 0x%llx "
			       "(%s)\n", i, t[i].pid, (const char *)t[i].comm,
			       (unsigned long long)t[i].pgd_pa, t[i].why);
		}
	}
	ok(wrong == 0, "each task: address, pid, tgid, comm (raw bytes, "
	   "escape and all; 16 letters without a NUL), kernel thread, mm, "
	   "root");
	ok(n > 4 && !t[4].has_pgd_pa &&
	   strstr(t[4].why, "pgd 0xffff888100000000 does not translate: not "
			    "present at pud"), "a pgd that does not translate: "
	   "%s", n > 4 ? t[4].why : "");
	pgw_linux_tasks_free(t);

	struct pgw_kallsyms *ks;
	struct pgw_kernel_btf *kb;
	struct pgw_kernel_btf_info bi;
	ok(pgw_kallsyms_open(&o.sp, &ks, &err) == PGW_OK, "kallsyms");
	ok(pgw_kernel_btf_open(&o.sp, ks, &kb, &err) == PGW_OK, "BTF");
	pgw_kernel_btf_info(kb, &bi);
	ok(bi.va == k.btf_va && bi.size == k.btf_size &&
	   strstr(bi.how, "kallsyms __start_BTF"), "BTF at __start_BTF: %s",
	   bi.how);
	pgw_kernel_btf_close(kb);
	/* The scan finds the same blob. */
	struct pgw_kallsyms_info ki;
	pgw_kallsyms_info(ks, &ki);
	ok(pgw_kernel_btf_open(&o.sp, NULL, &kb, &err) == PGW_OK,
	   "BTF without kallsyms: by scanning from _stext (%s)", err.msg);
	pgw_kernel_btf_info(kb, &bi);
	ok(bi.va == k.btf_va && strstr(bi.how, "found by scanning"),
	   "... at 0x%llx: %s", (unsigned long long)bi.va, bi.how);
	pgw_kernel_btf_close(kb);
	pgw_kallsyms_close(ks);
	pgw_image_close(o.img);
	ks_free(&k);
}

/* Read the list with k's layout from init_task = k.task[0]; expect st, n
 * tasks and a message containing want. */
static void list_fails(struct ksynth *k, size_t max, enum pgw_status st,
		       size_t want_n, const char *want, const char *what)
{
	struct open_kernel o;
	struct pgw_task *t;
	size_t n;
	struct pgw_err err = { 0 };
	struct pgw_task_layout lay = {
		.ptr_size = 8, .task_size = k->bo.task_size,
		.tasks = k->bo.tasks, .pid = k->bo.ids, .tgid = k->bo.ids + 4,
		.comm = k->bo.comm, .comm_size = 16, .flags = k->bo.flags,
		.flags_size = 4, .mm = k->bo.mm, .mm_pgd = k->bo.pgd,
	};

	open_kernel(k, &o);
	clock_t t0 = clock();
	enum pgw_status got = pgw_linux_task_list(&o.sp, k->task[0], &lay,
						  max, &t, &n, &err);
	double s = (double)(clock() - t0) / CLOCKS_PER_SEC;
	ok(got == st && n == want_n && strstr(err.msg, want) && s < 2,
	   "%s: %zu tasks kept, %.3f s: %s", what, n, s, err.msg);
	pgw_linux_tasks_free(t);
	pgw_image_close(o.img);
}

static void test_lists(void)
{
	struct ksynth k;
	char want[160];

	ks_build(&k, &(struct ksynth_opts){ 0 });
	ks_link(&k, 3, 1, 0);
	snprintf(want, sizeof(want), "task list loops: entry 4, task 0x%llx, "
		 "was seen before", (unsigned long long)k.task[1]);
	list_fails(&k, 0, PGW_E_FORMAT, 4, want, "3 -> 1");
	ks_link(&k, 2, 2, 0);
	list_fails(&k, 0, PGW_E_FORMAT, 3, "task list loops: entry 3",
		   "2 -> 2");
	ks_link(&k, 2, -1, 0);
	list_fails(&k, 0, PGW_E_FORMAT, 3, "tasks.next is 0x0, no task",
		   "2 -> NULL");
	ks_link(&k, 2, -1, UINT64_C(0xffff888200000010));
	/* A link where no task can be is damage, not a page the image
	 * lacks. */
	list_fails(&k, 0, PGW_E_FORMAT, 3, "task list: entry 3, task "
		   "0xffff888200000000 (a damaged list: no task_struct "
		   "there): virtual address 0xffff888200000004: "
		   "not present (pud entry", "2 -> unmapped");
	ks_link(&k, 2, -1, UINT64_C(0x8000000000000010));
	list_fails(&k, 0, PGW_E_FORMAT, 3, "non-canonical",
		   "2 -> non-canonical");
	/* A direct-map page past RAM (entry 4 of the PD, 2 MiB at 256 MiB):
	 * it translates, to a frame no range holds. */
	iw_entry(&k.mem, 3, 4, 8, UINT64_C(0x10000000) | IW_P | IW_RW |
		 IW_PS | IW_A | IW_D | IW_G | IW_NX);
	ks_link(&k, 2, -1, ks_dm(0x800000) + k.bo.tasks);
	list_fails(&k, 0, PGW_E_FORMAT, 3, "(a damaged list: no task_struct "
		   "there)", "2 -> a frame outside RAM");
	ks_link(&k, 2, 3, 0);
	list_fails(&k, 3, PGW_E_LIMIT, 3, "more than 3 tasks", "max_tasks 3");

	/*
	 * 64 Ki tasks 16 bytes apart (their fields overlapping): more than
	 * 8 MiB of memory holds task_structs of 256 bytes.
	 */
	for (uint64_t i = 0; i < 65536; i++) {
		uint64_t va = ks_dm(0x400000) + 16 * i;
		ks_set(&k, va + k.bo.tasks, va + 16 + k.bo.tasks, 8);
	}
	ks_link(&k, 0, -1, ks_dm(0x400000) + k.bo.tasks);
	snprintf(want, sizeof(want), "more than %llu tasks",
		 (unsigned long long)(KS_RAM / 256 + 1));
	list_fails(&k, 0, PGW_E_LIMIT, KS_RAM / 256 + 1, want,
		   "a list longer than memory can hold");
	ks_free(&k);

	/* init_task anywhere: an error or a list, never a crash. */
	ks_build(&k, &(struct ksynth_opts){ 0 });
	struct open_kernel o;
	open_kernel(&k, &o);
	struct pgw_task_layout lay = {
		.ptr_size = 8, .task_size = 256, .tasks = 16, .pid = 40,
		.tgid = 44, .comm = 48, .comm_size = 16, .flags = 4,
		.flags_size = 4, .mm = 32, .mm_pgd = 72,
	};
	unsigned seed = 99, failed = 0, silent = 0;
	for (int i = 0; i < 2000; i++) {
		uint64_t va = (uint64_t)rand_r(&seed) << 33 ^
			      (uint64_t)rand_r(&seed) << 3;
		if (i % 2)
			va = ks_dm((uint64_t)rand_r(&seed) % KS_RAM);
		struct pgw_task *t;
		size_t n;
		struct pgw_err err = { 0 };
		if (pgw_linux_task_list(&o.sp, va, &lay, 0, &t, &n, &err) !=
		    PGW_OK) {
			failed++;
			silent += !err.msg[0];
		}
		pgw_linux_tasks_free(t);
	}
	ok(silent == 0 && failed > 0, "2000 init_tasks anywhere: %u lists "
	   "fail, each with a message", failed);
	pgw_image_close(o.img);
	ks_free(&k);
}

/* pgw_kallsyms_open on k with VMCOREINFO line `key` set to value (or
 * with UINT64_MAX, without it) must fail with a message containing
 * want. */
static void kallsyms_fails(const char *key, uint64_t value, const char *want,
			   const char *what)
{
	struct ksynth k;
	struct open_kernel o;
	struct pgw_kallsyms *ks;
	struct pgw_err err = { 0 };
	char line[128], *at;

	ks_build(&k, &(struct ksynth_opts){ 0 });
	at = strstr(k.vmcoreinfo, key);
	if (at && value == UINT64_MAX) {
		at[0] = 'X';
	} else if (at) {
		char *eol = strchr(at, '\n');
		snprintf(line, sizeof(line), "%s=%llx", key,
			 (unsigned long long)value);
		memmove(at + strlen(line), eol, strlen(eol) + 1);
		memcpy(at, line, strlen(line));
	}
	open_kernel(&k, &o);
	ok(pgw_kallsyms_open(&o.sp, &ks, &err) != PGW_OK && !ks &&
	   strstr(err.msg, want), "%s: %s", what, err.msg);
	pgw_image_close(o.img);
	ks_free(&k);
}

static void test_kallsyms(void)
{
	struct ksynth k;

	ks_build(&k, &(struct ksynth_opts){ 0 });
	uint64_t names = k.names_va;
	ks_free(&k);
	kallsyms_fails("SYMBOL(kallsyms_names)", UINT64_C(0xffff888300000000),
		       "kallsyms: kallsyms_names at 0xffff888300000000: "
		       "virtual address 0xffff888300000000: not present",
		       "names table unmapped");
	kallsyms_fails("SYMBOL(kallsyms_offsets)", UINT64_C(0x8000000000000000),
		       "kallsyms_offsets (40 bytes at 0x8000000000000000): "
		       "virtual address 0x8000000000000000: non-canonical",
		       "offsets non-canonical");
	kallsyms_fails("SYMBOL(kallsyms_token_index)",
		       UINT64_C(0xffffffff807ffff0), "kallsyms_token_index",
		       "token index running off the end of memory");
	kallsyms_fails("SYMBOL(kallsyms_token_table)", names + 10,
		       "past the end of the names read (0xa bytes)",
		       "names table 10 bytes long (the token table after it)");
	kallsyms_fails("SYMBOL(kallsyms_names)", names + 1,
		       "kallsyms", "names table one byte off");
	kallsyms_fails("SYMBOL(kallsyms_num_syms)", ks_kt(0x3f0000),
		       "kallsyms_num_syms is 0: not between 1 and",
		       "a count of 0 (zeroed memory)");
	kallsyms_fails("SYMBOL(kallsyms_relative_base)", UINT64_C(0x1000),
		       "kallsyms_relative_base (8 bytes at 0x1000)",
		       "relative base in user space");
	kallsyms_fails("SYMBOL(kallsyms_token_table)",
		       UINT64_C(0xffff888300000000), "kallsyms_token_table at",
		       "token table unmapped");
	kallsyms_fails("SYMBOL(kallsyms_relative_base)",
		       ks_kt(0x200000 + 8), "kallsyms: _stext decodes to",
		       "a wrong relative base, caught against VMCOREINFO");
	kallsyms_fails("SYMBOL(kallsyms_names)", UINT64_MAX, "no kallsyms: "
		       "VMCOREINFO has no SYMBOL(kallsyms_names) (it lists "
		       "the kallsyms tables since Linux 6.0)",
		       "no names table");
	kallsyms_fails("SYMBOL(kallsyms_relative_base)", UINT64_MAX,
		       "kallsyms_offsets without kallsyms_relative_base "
		       "(offsets relative to their own place, newer kernels) "
		       "are not supported", "place-relative offsets");
	kallsyms_fails("SYMBOL(kallsyms_offsets)", UINT64_MAX,
		       "no kallsyms: VMCOREINFO has no SYMBOL(kallsyms_offsets)",
		       "no offsets");
}

/* A count of 2^32 - 1 in memory. */
static void test_huge_count(void)
{
	struct ksynth k;
	struct open_kernel o;
	struct pgw_kallsyms *ks;
	struct pgw_err err = { 0 };

	ks_build(&k, &(struct ksynth_opts){ 0 });
	ks_set(&k, k.num_va, 0xffffffff, 4);
	open_kernel(&k, &o);
	clock_t t0 = clock();
	ok(pgw_kallsyms_open(&o.sp, &ks, &err) == PGW_E_FORMAT &&
	   strstr(err.msg, "kallsyms_num_syms is 4294967295"),
	   "2^32 - 1 symbols in memory: %s", err.msg);
	ok((double)(clock() - t0) / CLOCKS_PER_SEC < 0.5, "... at once");
	pgw_image_close(o.img);
	ks_free(&k);
}

static void test_btf_lies(void)
{
	struct ksynth k;
	struct open_kernel o;
	struct pgw_task *t;
	size_t n;
	struct pgw_err err = { 0 };

	ks_build(&k, &(struct ksynth_opts){ 0 });
	ks_set(&k, k.btf_va + 20, 1000000, 4);   /* str_len */
	open_kernel(&k, &o);
	ok(pgw_linux_tasks(&o.sp, &t, &n, &err) == PGW_E_FORMAT && n == 0 &&
	   strstr(err.msg, "libbpf refuses") &&
	   strstr(err.msg, "Invalid BTF total size"),
	   "BTF claiming a 1 MB string section: %s", err.msg);
	pgw_image_close(o.img);
	ks_free(&k);

	/* __stop_BTF 16 bytes before __start_BTF (offsets are negative:
	 * address = base - 1 - offset). */
	ks_build(&k, &(struct ksynth_opts){ 0 });
	uint64_t start_off = k.offsets_va + 4 * 8;
	int32_t off = (int32_t)(k.kt.offsets.p[32] | k.kt.offsets.p[33] << 8 |
				k.kt.offsets.p[34] << 16 |
				(uint32_t)k.kt.offsets.p[35] << 24);
	ks_set(&k, start_off + 4, (uint32_t)(off + 16), 4);
	open_kernel(&k, &o);
	ok(pgw_linux_tasks(&o.sp, &t, &n, &err) == PGW_E_FORMAT &&
	   strstr(err.msg, "not 1 to 67108864 bytes"),
	   "__stop_BTF before __start_BTF: %s", err.msg);
	pgw_image_close(o.img);
	ks_free(&k);

	/* A BTF header that looks right but lies: the scan passes it by. */
	ks_build(&k, &(struct ksynth_opts){ .text_only = true });
	ks_set(&k, k.btf_va + 12, 0x7fffff, 4);  /* type_len */
	open_kernel(&k, &o);
	ok(pgw_linux_tasks(&o.sp, &t, &n, &err) == PGW_E_NOTFOUND &&
	   strstr(err.msg, "no BTF header describing task_struct in "),
	   "text symbols only, BTF header lying: the scan finds none: %s",
	   err.msg);
	pgw_image_close(o.img);
	ks_free(&k);
}

/* Read-only data full of headers that pass the quick checks: the scan
 * parses 8 of them, then gives up, in bounded time. */
static void test_fake_headers(void)
{
	struct ksynth k;
	struct open_kernel o;
	struct pgw_kernel_btf *kb;
	struct pgw_err err = { 0 };

	ks_build(&k, &(struct ksynth_opts){ .text_only = true });
	for (uint64_t i = 0; i < 8; i++) {
		uint64_t va = ks_kt(0x210000) + 64 * i;
		const uint32_t hdr[6] = { 0x0001eb9f, 24, 0, 4, 4, 4 };
		for (int j = 0; j < 6; j++)
			ks_set(&k, va + 4 * (uint64_t)j, hdr[j], 4);
	}
	open_kernel(&k, &o);
	struct pgw_kallsyms *ks;
	pgw_kallsyms_open(&o.sp, &ks, &err);
	ok(pgw_kernel_btf_open(&o.sp, ks, &kb, &err) == PGW_E_LIMIT &&
	   strstr(err.msg, "no BTF found (kallsyms holds text symbols only, "
			   "so no __start_BTF): no BTF describing task_struct "
			   "among the first 8 headers") &&
	   !strstr(err.msg, "built without"),
	   "8 fake headers before the real BTF: %s", err.msg);
	pgw_kallsyms_close(ks);
	pgw_image_close(o.img);
	ks_free(&k);
}

static void test_absent(void)
{
	struct ksynth k;
	struct open_kernel o;
	struct pgw_task *t;
	size_t n;
	struct pgw_err err = { 0 };

	ks_build(&k, &(struct ksynth_opts){ .no_btf = true });
	open_kernel(&k, &o);
	ok(pgw_linux_tasks(&o.sp, &t, &n, &err) == PGW_E_NOTFOUND &&
	   strstr(err.msg, "no BTF: the kernel was built without "
			   "CONFIG_DEBUG_INFO_BTF (kallsyms lists 3 data "
			   "symbols but no __start_BTF)"),
	   "data symbols, no BTF: %s", err.msg);
	pgw_image_close(o.img);
	ks_free(&k);

	/* Text symbols only: init_task is found in the image's data by
	 * its name, pid 0 and a list that comes back to it. */
	ks_build(&k, &(struct ksynth_opts){ .text_only = true });
	open_kernel(&k, &o);
	t = NULL;
	ok(pgw_linux_tasks(&o.sp, &t, &n, &err) == PGW_OK &&
	   n == KS_NTASKS && t[0].task == k.task[0] && t[0].pid == 0 &&
	   t[1].pid == 1,
	   "text symbols only, BTF found by the scan: init_task found by "
	   "scan, %zu tasks", n);
	pgw_linux_tasks_free(t);
	pgw_image_close(o.img);
	/* Renamed: no task looks like CPU 0's idle task. */
	ks_set(&k, k.task[0] + k.bo.comm, 0x2f72657070617778u, 8);
	open_kernel(&k, &o);
	ok(pgw_linux_tasks(&o.sp, &t, &n, &err) == PGW_E_NOTFOUND &&
	   !strstr(err.msg, "BTF") &&
	   strstr(err.msg, "no init_task: kallsyms holds text symbols only (0 "
			   "of 4 symbols are data): the kernel was built "
			   "without CONFIG_KALLSYMS_ALL; no init_task found by "
			   "scan (0 candidates named swapper/0"),
	   "text symbols only, no idle task to find: %s", err.msg);
	pgw_image_close(o.img);
	ks_free(&k);

	ks_build(&k, &(struct ksynth_opts){ .text_only = true, .no_btf = true });
	open_kernel(&k, &o);
	ok(pgw_linux_tasks(&o.sp, &t, &n, &err) == PGW_E_NOTFOUND &&
	   strstr(err.msg, "no BTF: the kernel was built without "
			   "CONFIG_DEBUG_INFO_BTF (kallsyms holds text symbols "
			   "only, so no __start_BTF; no BTF header describing "
			   "task_struct in ") &&
	   strstr(err.msg, "; and no init_task: kallsyms holds text symbols "
			   "only"), "neither (as the i386 kernels): %s",
	   err.msg);
	pgw_image_close(o.img);

	/* Without init_uts_ns to end it, the window runs 64 MiB, past
	 * memory: the scan stops there, and claims nothing. */
	char *uts = strstr(k.vmcoreinfo, "SYMBOL(init_uts_ns)=");
	for (char *c = uts + strlen("SYMBOL(init_uts_ns)="); *c != '\n'; c++)
		*c = '0';
	open_kernel(&k, &o);
	struct pgw_kallsyms *ks;
	struct pgw_kernel_btf *kb;
	pgw_kallsyms_open(&o.sp, &ks, &err);
	ok(pgw_kernel_btf_open(&o.sp, ks, &kb, &err) == PGW_E_UNMAPPED &&
	   strstr(err.msg, "no BTF found (kallsyms holds text symbols only, "
			   "so no __start_BTF): no BTF header describing "
			   "task_struct in 0xffffffff80200548-0xffffffff80800000, "
			   "where the scan stopped: virtual address "
			   "0xffffffff80800000: not present"),
	   "a window running past memory: %s", err.msg);
	pgw_kallsyms_close(ks);
	pgw_image_close(o.img);
	ks_free(&k);
}

/* One memo, many asks: the task list and kallsyms
 * are the memo's one read (the same pointers); another image starts
 * over. */
static void test_memo(void)
{
	struct ksynth k;
	struct open_kernel o, o2;
	struct pgw_linux_kernel *lk;
	struct pgw_err err = { 0 };
	enum pgw_status st, st2;
	size_t n, n2;
	struct pgw_tasks_how how;

	ks_build(&k, &(struct ksynth_opts){ 0 });
	open_kernel(&k, &o);
	open_kernel(&k, &o2);
	ok(pgw_linux_kernel_new(&lk, &err) == PGW_OK, "a memo");
	const struct pgw_task *t = pgw_linux_kernel_tasks(lk, &o.sp, &n, &how,
							  &st, &err);
	const struct pgw_task *t2 = pgw_linux_kernel_tasks(lk, &o.sp, &n2,
							   NULL, &st2, &err);
	ok(st == PGW_OK && n == KS_NTASKS && t2 == t && n2 == n &&
	   st2 == st && how.method == PGW_TASKS_BTF && how.init_task ==
	   k.task[0], "the task list read once: %zu tasks, twice the same",
	   n);
	const struct pgw_kallsyms *ks, *ks2;
	ok(pgw_linux_kernel_kallsyms(lk, &o.sp, &ks, &err) == PGW_OK &&
	   pgw_linux_kernel_kallsyms(lk, &o.sp, &ks2, &err) == PGW_OK &&
	   ks == ks2, "kallsyms read once");
	/* Another image frees what the first gave (t is gone). */
	uint64_t first = t[0].task;
	const struct pgw_task *t3 = pgw_linux_kernel_tasks(lk, &o2.sp, &n2,
							   NULL, &st2, &err);
	ok(st2 == PGW_OK && n2 == n && t3 && t3[0].task == first,
	   "another image: read again, through it");
	pgw_linux_kernel_free(lk);
	pgw_image_close(o.img);
	pgw_image_close(o2.img);
	ks_free(&k);
}

int main(void)
{
	test_good();
	test_memo();
	test_lists();
	test_kallsyms();
	test_huge_count();
	test_btf_lies();
	test_fake_headers();
	test_absent();
	return tap_done();
}
