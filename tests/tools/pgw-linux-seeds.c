/*
 * pgw-linux-seeds DIR X86_64_IMAGE I386_IMAGE: write the seeds of the
 * kallsyms and kernel_btf fuzz targets (fuzz/kallsyms.c, fuzz/
 * kernel_btf.c) into DIR/<target>/, cut from two real dumps (ELF cores
 * with VMCOREINFO) and written by tests/tools/ksymwriter.h and
 * btfwriter.h:
 *
 *   kallsyms/x86-64-window    400 symbols of the x86-64 kernel's tables
 *                             (absolute percpu and negative offsets)
 *   kallsyms/i386-window      400 of the i386 kernel's (4-byte)
 *   kallsyms/written          written tables with a two-byte length
 *   kernel_btf/x86-64-cut     task_struct, mm_struct and list_head of
 *                             the x86-64 kernel's BTF, every member at
 *                             its offset, member types reduced to
 *                             integers, pointers and byte arrays
 *   kernel_btf/written        btfwriter.h's blob, with a self-nesting
 *                             struct
 *   task_infer/written        a 64 KiB x86-64 kernel whose task layout
 *                             can be inferred: init_task ("swapper/0"),
 *                             init, kthreadd and sh in a ring, init_mm,
 *                             two process roots with the kernel half
 *
 * fuzz/corpus/ was made with it from x64-4l-a and i386-pae-a.
 */
#include <errno.h>
#include <sys/stat.h>

#include "btfwriter.h"
#include "ksymwriter.h"
#include "linux/kallsyms_decode.h"
#include "linux/kernel_btf.h"
#include "pgwalk.h"

static const char *outdir;

static void save(const char *target, const char *name, const void *p,
		 size_t len)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", outdir, target);
	if (mkdir(path, 0755) != 0 && errno != EEXIST) {
		perror(path);
		exit(2);
	}
	snprintf(path, sizeof(path), "%s/%s/%s", outdir, target, name);
	if (iw_write_file(path, p, len) != 0)
		exit(2);
	printf("%s: %zu bytes\n", path, len);
}

_Noreturn static void die(const char *what, const struct pgw_err *err)
{
	fprintf(stderr, "pgw-linux-seeds: %s: %s\n", what, err->msg);
	exit(1);
}

static struct pgw_image *open_kernel(const char *path, struct pgw_space *sp)
{
	struct pgw_image *img;
	struct pgw_err err = { 0 };
	struct pgw_mode_choice mode;
	struct pgw_root root;
	struct pgw_root_request req = { .cpu = -1 };

	if (pgw_image_open(&img, path, NULL, &err) != PGW_OK ||
	    pgw_detect_mode(img, 0, false, NULL, &mode, &err) != PGW_OK ||
	    pgw_root_resolve(img, mode.mode, &req, &root, &err) != PGW_OK)
		die(path, &err);
	*sp = (struct pgw_space){ img, mode.mode, root.table };
	return img;
}

/* The fuzz target's input for symbols [a, b) of ks. */
static void kallsyms_window(const struct pgw_kallsyms *ks, uint32_t a,
			    uint32_t b, const char *name)
{
	struct iw_buf out = { 0 }, table = { 0 }, index = { 0 };

	for (unsigned t = 0; t < 256; t++) {
		iw_put_le(&index, table.len, 2);
		iw_put(&table, ks->tokens + ks->tok_off[t], ks->tok_len[t]);
		iw_put_le(&table, 0, 1);
	}
	size_t from = ks->name_off[a];
	size_t to = b < ks->num ? ks->name_off[b] : ks->names_len;
	iw_put_le(&out, ks->ptr_size == 4 ? 1 : 0, 1);
	iw_put_le(&out, b - a, 4);
	iw_put_le(&out, ks->relative_base, 8);
	iw_put_le(&out, table.len, 2);
	iw_put(&out, index.p, index.len);
	iw_put(&out, ks->offsets + 4 * (size_t)a, 4 * (size_t)(b - a));
	iw_put(&out, table.p, table.len);
	iw_put(&out, ks->names + from, to - from);
	save("kallsyms", name, out.p, out.len);
	iw_free(&out);
	iw_free(&table);
	iw_free(&index);
}

static void kallsyms_seeds(const struct pgw_space *sp, uint32_t a,
			   const char *name)
{
	struct pgw_kallsyms *ks;
	struct pgw_err err = { 0 };

	if (pgw_kallsyms_open(sp, &ks, &err) != PGW_OK)
		die(name, &err);
	kallsyms_window(ks, a, a + 400 < ks->num ? a + 400 : ks->num, name);
	pgw_kallsyms_close(ks);
}

static void kallsyms_written(void)
{
	static char long_name[200];
	memset(long_name, 'r', sizeof(long_name) - 1);
	const struct kw_sym syms[] = {
		{ 'A', "fixed_percpu_data", 0 },
		{ 'T', "_stext", UINT64_C(0xffffffff81000000) },
		{ 'T', long_name, UINT64_C(0xffffffff81000100) },
		{ 'D', "init_task", UINT64_C(0xffffffff82a1aa40) },
		{ 'R', "__start_BTF", UINT64_C(0xffffffff82638070) },
		{ 'R', "__stop_BTF", UINT64_C(0xffffffff82a25f07) },
	};
	struct kw_tables t;
	struct iw_buf out = { 0 };

	kw_build(syms, sizeof(syms) / sizeof(syms[0]), true, &t);
	iw_put_le(&out, 0, 1);
	iw_put_le(&out, t.num, 4);
	iw_put_le(&out, t.relative_base, 8);
	iw_put_le(&out, t.token_table.len, 2);
	iw_put(&out, t.token_index.p, 512);
	iw_put(&out, t.offsets.p, t.offsets.len);
	iw_put(&out, t.token_table.p, t.token_table.len);
	iw_put(&out, t.names.p, t.names.len);
	save("kallsyms", "written", out.p, out.len);
	iw_free(&out);
	kw_free(&t);
}

/* ---- cutting BTF ---- */

struct cut {
	const struct btf *in;
	struct btf *out;
	int ptr, list_head, chars, ints[9];
};

static int cut_int(struct cut *c, long long size)
{
	char name[32];

	if (size < 1 || size > 8)
		size = 8;
	if (!c->ints[size]) {
		snprintf(name, sizeof(name), "u%lld", size * 8);
		c->ints[size] = btf__add_int(c->out, name, (size_t)size, 0);
	}
	return c->ints[size];
}

static int cut_bytes(struct cut *c, long long size)
{
	return btf__add_array(c->out, cut_int(c, 4), c->chars,
			      (uint32_t)(size > 0 ? size : 0));
}

static int cut_struct(struct cut *c, int id, const char *name);

/* The reduced type of member type `id`. */
static int cut_type(struct cut *c, uint32_t id)
{
	int rid = btf__resolve_type(c->in, id);
	const struct btf_type *t = rid > 0 ? btf__type_by_id(c->in, rid) :
					     NULL;
	long long size = btf__resolve_size(c->in, id);

	if (!t)
		return c->ptr;
	if (btf_is_ptr(t))
		return c->ptr;
	if (btf_is_int(t) || btf_is_any_enum(t))
		return cut_int(c, size);
	if (btf_is_composite(t)) {
		const char *n = btf__name_by_offset(c->in, t->name_off);
		if (!n || !*n)
			return cut_struct(c, rid, NULL);
		if (strcmp(n, "list_head") == 0)
			return c->list_head;
	}
	return cut_bytes(c, size);
}

static int cut_struct(struct cut *c, int id, const char *name)
{
	const struct btf_type *t = btf__type_by_id(c->in, id);
	const struct btf_member *m = btf_members(t);
	unsigned n = btf_vlen(t);
	int *types = calloc(n ? n : 1, sizeof(*types));

	for (unsigned i = 0; i < n; i++)
		types[i] = btf_member_bitfield_size(t, i) ?
				   cut_int(c, btf__resolve_size(c->in,
								m[i].type)) :
				   cut_type(c, m[i].type);
	int out = btf_is_union(t) ? btf__add_union(c->out, name, t->size) :
				    btf__add_struct(c->out, name, t->size);
	for (unsigned i = 0; i < n; i++)
		if (btf__add_field(c->out,
				   btf__name_by_offset(c->in, m[i].name_off),
				   types[i], btf_member_bit_offset(t, i),
				   btf_member_bitfield_size(t, i)) < 0) {
			fprintf(stderr, "pgw-linux-seeds: member %u of %s\n",
				i, name ? name : "(anonymous)");
			exit(1);
		}
	free(types);
	return out;
}

static void btf_seeds(const struct pgw_space *sp)
{
	struct pgw_kallsyms *ks;
	struct pgw_kernel_btf *kb;
	struct pgw_err err = { 0 };
	struct cut c = { 0 };
	uint32_t size;

	if (pgw_kallsyms_open(sp, &ks, &err) != PGW_OK ||
	    pgw_kernel_btf_open(sp, ks, &kb, &err) != PGW_OK)
		die("BTF", &err);
	c.in = kb->btf;
	c.out = btf__new_empty();
	c.ptr = btf__add_ptr(c.out, 0);
	c.chars = btf__add_int(c.out, "char", 1, BTF_INT_CHAR);
	c.list_head = cut_struct(&c, btf__find_by_name_kind(c.in, "list_head",
							    BTF_KIND_STRUCT),
				 "list_head");
	cut_struct(&c, btf__find_by_name_kind(c.in, "mm_struct",
					      BTF_KIND_STRUCT), "mm_struct");
	cut_struct(&c, btf__find_by_name_kind(c.in, "task_struct",
					      BTF_KIND_STRUCT), "task_struct");
	const void *raw = btf__raw_data(c.out, &size);
	save("kernel_btf", "x86-64-cut", raw, size);
	btf__free(c.out);
	pgw_kernel_btf_close(kb);
	pgw_kallsyms_close(ks);

	uint8_t *blob = bw_blob(&bw_default, 3, &size);
	save("kernel_btf", "written", blob, size);
	free(blob);
	/* struct module as each era has it (the module walk's layout). */
	static const struct {
		int era;
		const char *name;
	} eras[] = { { BW_MODULES_64, "written-modules-64" },
		     { BW_MODULES_45, "written-modules-45" },
		     { BW_MODULES_44, "written-modules-44" } };
	for (size_t i = 0; i < sizeof(eras) / sizeof(eras[0]); i++) {
		struct bw_offsets o = bw_default;
		o.modules = eras[i].era;
		blob = bw_blob(&o, 0, &size);
		save("kernel_btf", eras[i].name, blob, size);
		free(blob);
	}
}

/* fuzz/task_infer.c's input: a small kernel (the direct map and the
 * kernel map both 2 MiB pages over memory from 0, root at 0x1000) with
 * ksynth.h's inferable offsets: flags 4, tasks 16, mm 32, active_mm 40,
 * pid 48, tgid 52, real_parent 56, parent 64, comm 80; mm_struct.pgd 72. */
static void infer_seed(void)
{
	const uint64_t dm = UINT64_C(0xffff888000000000),
		       kt = UINT64_C(0xffffffff80000000);
	static const struct {
		int32_t pid;
		const char *comm;
		bool kthread;
	} t[] = {
		{ 0, "swapper/0", true }, { 1, "init", false },
		{ 2, "kthreadd", true }, { 3, "sh", false },
	};
	const size_t n = sizeof(t) / sizeof(t[0]);
	uint64_t task[4], init_mm = kt + 0x9000;
	struct iw_mem m = { 0 };
	struct iw_buf out = { 0 };

	iw_frame(&m, 15);
	iw_entry(&m, 1, 273, 8, 0x2000 | IW_TBL);
	iw_entry(&m, 2, 0, 8, 0x3000 | IW_TBL);
	iw_entry(&m, 3, 0, 8, IW_P | IW_RW | IW_PS | IW_A | IW_D);
	iw_entry(&m, 1, 511, 8, 0x4000 | IW_TBL);
	iw_entry(&m, 4, 510, 8, 0x5000 | IW_TBL);
	iw_entry(&m, 5, 0, 8, IW_P | IW_RW | IW_PS | IW_A | IW_D);
	for (size_t i = 0; i < n; i++)
		task[i] = i == 0 ? kt + 0x6000 : dm + 0x7000 + i * 0x100;
	for (size_t i = 0; i < n; i++) {
		uint8_t *p = m.b.p + (task[i] & 0xffff);
		uint64_t mm = t[i].kthread ? 0 : dm + 0x8000 + i * 0x100;
		uint64_t parent = task[i < 2 ? 0 : t[i].kthread ? 2 : 1];
		iw_le(p + 4, t[i].kthread ? 0x00200040 : 0x00400100, 4);
		iw_le(p + 16, task[(i + 1) % n] + 16, 8);
		iw_le(p + 24, task[(i + n - 1) % n] + 16, 8);
		iw_le(p + 32, mm, 8);
		iw_le(p + 40, i == 0 ? init_mm : mm, 8);
		iw_le(p + 48, (uint32_t)t[i].pid, 4);
		iw_le(p + 52, (uint32_t)t[i].pid, 4);
		iw_le(p + 56, parent, 8);
		iw_le(p + 64, parent, 8);
		memcpy(p + 80, t[i].comm, strlen(t[i].comm));
		if (mm) {
			/* Its root copies the kernel half (pgd_ctor). */
			uint64_t pgd = 0xa000 + (i - 1) * 0x1000;
			iw_le(m.b.p + (mm & 0xffff) + 72, dm + pgd, 8);
			memcpy(m.b.p + pgd + 256 * 8, m.b.p + 0x1000 + 256 * 8,
			       256 * 8);
		}
	}
	iw_le(m.b.p + (init_mm & 0xffff) + 72, kt + 0x1000, 8);
	size_t x86_64 = 0;
	while (strcmp(pgw_modes()[x86_64]->name, "x86-64"))
		x86_64++;
	iw_put_le(&out, x86_64, 1);
	iw_put_le(&out, 0x1000, 8);
	iw_put_le(&out, kt, 8);
	iw_put(&out, m.b.p, m.b.len);
	save("task_infer", "written", out.p, out.len);
	iw_free(&out);
	iw_free(&m.b);
}

int main(int argc, char **argv)
{
	struct pgw_space sp;
	struct pgw_image *img;

	if (argc != 4) {
		fprintf(stderr, "usage: pgw-linux-seeds DIR X86_64_IMAGE "
				"I386_IMAGE\n");
		return 64;
	}
	outdir = argv[1];
	img = open_kernel(argv[2], &sp);
	kallsyms_seeds(&sp, 300, "x86-64-window");
	btf_seeds(&sp);
	pgw_image_close(img);
	img = open_kernel(argv[3], &sp);
	kallsyms_seeds(&sp, 1000, "i386-window");
	pgw_image_close(img);
	kallsyms_written();
	infer_seed();
	return 0;
}
