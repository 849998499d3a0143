/*
 * The BTF reader on blobs written by libbpf's writer (tests/tools/
 * btfwriter.h): member offsets through anonymous structs and unions,
 * typedefs and qualifiers; the task layout; bitfields and missing members
 * refused with a message; and hostile blobs: sizes that lie in the header
 * or in a type, type ids that point nowhere, a struct nesting itself
 * thousands of times, a size above the bound, random bit flips -- each
 * an error with a message, in bounded time.
 */
#include <time.h>

#include "../tools/btfwriter.h"
#include "pgwalk.h"
#include "tap.h"

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

static struct pgw_kernel_btf *open_blob(const uint8_t *b, size_t n,
					struct pgw_err *err)
{
	struct pgw_kernel_btf *kb = NULL;

	memset(err, 0, sizeof(*err));
	if (pgw_kernel_btf_from_blob(b, n, &kb, err) != PGW_OK)
		return NULL;
	return kb;
}

static void test_members(void)
{
	uint32_t size;
	uint8_t *blob = bw_blob(&bw_default, 0, &size);
	struct pgw_err err;
	struct pgw_kernel_btf *kb = open_blob(blob, size, &err);
	struct pgw_btf_member m;
	static const struct {
		const char *type, *member;
		uint64_t offset, size;
		enum pgw_btf_shape shape;
	} want[] = {
		{ "task_struct", "flags", 4, 4, PGW_BTF_INT },
		{ "task_struct", "tasks", 16, 16, PGW_BTF_COMPOSITE },
		{ "task_struct", "mm", 32, 8, PGW_BTF_PTR },
		{ "task_struct", "pid", 40, 4, PGW_BTF_INT },   /* union>struct */
		{ "task_struct", "tgid", 44, 4, PGW_BTF_INT },  /* const pid_t */
		{ "task_struct", "both", 40, 8, PGW_BTF_INT },
		{ "task_struct", "comm", 48, 16, PGW_BTF_ARRAY },
		{ "mm_struct", "pgd", 72, 8, PGW_BTF_PTR },     /* anon struct */
		{ "list_head", "prev", 8, 8, PGW_BTF_PTR },
	};

	ok(kb != NULL, "a %u-byte blob parses (%s)", size, err.msg);
	if (!kb)
		return;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		enum pgw_status st = pgw_kernel_btf_member(
			kb, want[i].type, want[i].member, &m, &err);
		ok(st == PGW_OK && m.offset == want[i].offset &&
		   m.size == want[i].size && m.shape == want[i].shape,
		   "%s.%s: byte %llu, %llu bytes, shape %d", want[i].type,
		   want[i].member, (unsigned long long)m.offset,
		   (unsigned long long)m.size, m.shape);
	}
	pgw_kernel_btf_member(kb, "task_struct", "comm", &m, &err);
	ok(m.elems == 16, "comm has 16 elements");
	ok(pgw_kernel_btf_member(kb, "task_struct", "bits", &m, &err) ==
	   PGW_E_UNSUPPORTED && strstr(err.msg, "task_struct.bits is a "
				       "bitfield"), "bitfield: %s", err.msg);
	ok(pgw_kernel_btf_member(kb, "task_struct", "nope", &m, &err) ==
	   PGW_E_NOTFOUND && strstr(err.msg, "struct task_struct has no "
				    "member nope"), "missing member: %s",
	   err.msg);
	ok(pgw_kernel_btf_member(kb, "nope_struct", "x", &m, &err) ==
	   PGW_E_NOTFOUND && strstr(err.msg, "BTF has no struct "
				    "nope_struct"), "missing struct: %s",
	   err.msg);

	struct pgw_task_layout l;
	err.msg[0] = '\0';
	enum pgw_status st = pgw_task_layout_btf(kb, 8, &l, &err);
	ok(st == PGW_OK &&
	   l.task_size == 256 && l.flags == 4 && l.flags_size == 4 &&
	   l.tasks == 16 && l.list_next == 0 && l.mm == 32 && l.pid == 40 &&
	   l.tgid == 44 && l.comm == 48 && l.comm_size == 16 &&
	   l.mm_pgd == 72 && l.ptr_size == 8, "task layout (%s)", err.msg);
	ok(pgw_task_layout_btf(kb, 4, &l, &err) == PGW_E_FORMAT &&
	   strstr(err.msg, "list_head is 16 bytes, not two 4-byte pointers"),
	   "4-byte pointers with an 8-byte list_head: %s", err.msg);
	struct pgw_kernel_btf_info info;
	pgw_kernel_btf_info(kb, &info);
	ok(info.size == size && info.types > 10 && info.va == 0,
	   "info: %llu bytes, %u types", (unsigned long long)info.size,
	   info.types);
	pgw_kernel_btf_close(kb);

	/* A comm too long for the walk, and a task_struct too small for
	 * its members. */
	struct bw_offsets o = bw_default;
	o.comm_len = 100;
	o.task_size = 200;
	free(blob);
	blob = bw_blob(&o, 0, &size);
	kb = open_blob(blob, size, &err);
	ok(kb && pgw_task_layout_btf(kb, 8, &l, &err) == PGW_E_UNSUPPORTED &&
	   strstr(err.msg, "comm is 100 bytes, more than 64"),
	   "comm of 100 bytes: %s", err.msg);
	pgw_kernel_btf_close(kb);
	o = bw_default;
	o.task_size = 50;
	free(blob);
	blob = bw_blob(&o, 0, &size);
	kb = open_blob(blob, size, &err);
	ok(kb && pgw_task_layout_btf(kb, 8, &l, &err) == PGW_E_FORMAT &&
	   strstr(err.msg, "task_struct.comm at byte 48 (16 bytes) lies "
			   "outside the 50-byte struct"),
	   "a member past the struct's end: %s", err.msg);
	pgw_kernel_btf_close(kb);
	free(blob);
}

/* The blob must be refused with a message containing want. */
static void refuse(const uint8_t *b, size_t n, const char *want,
		   const char *what)
{
	struct pgw_err err;
	struct pgw_kernel_btf *kb = open_blob(b, n, &err);

	ok(!kb && err.status == PGW_E_FORMAT && strstr(err.msg, want),
	   "%s: %s", what, err.msg);
	pgw_kernel_btf_close(kb);
}

/* Offset of the type record of struct `name` in the type section. */
static size_t find_struct(const uint8_t *b, const char *name)
{
	uint32_t hdr = le32(b + 4), type_off = le32(b + 8),
		 str_off = le32(b + 16), str_len = le32(b + 20);
	const char *strs = (const char *)b + hdr + str_off;
	size_t want = 0;

	for (size_t s = 0; s < str_len; s += strlen(strs + s) + 1)
		if (strcmp(strs + s, name) == 0)
			want = s;
	/* Struct records start with name_off, info (kind 4). */
	for (size_t p = hdr + type_off; p + 12 <= hdr + str_off; p += 4)
		if (le32(b + p) == want && (le32(b + p + 4) >> 24 & 0x1f) == 4)
			return p;
	return 0;
}

static void test_lies(void)
{
	uint32_t size;
	uint8_t *blob = bw_blob(&bw_default, 0, &size);
	uint8_t *b = malloc(size);
	struct pgw_err err;

	memcpy(b, blob, size);
	put32(b + 20, le32(blob + 20) + 4096);
	refuse(b, size, "Invalid BTF total size", "string section 4 KiB "
	       "longer than the blob");
	memcpy(b, blob, size);
	put32(b + 12, le32(blob + 12) + 64);
	refuse(b, size, "Invalid BTF data sections layout", "type section "
	       "running into the strings");
	memcpy(b, blob, size);
	put32(b + 4, size + 1);
	refuse(b, size, "header len", "header longer than the blob");
	refuse(blob, 10, "BTF header not found", "10 bytes");
	refuse(blob, 0, "BTF header not found", "nothing");

	/* task_struct claiming 1000 members: past the type section. */
	size_t at = find_struct(blob, "task_struct");
	ok(at != 0, "task_struct's record found in the blob");
	memcpy(b, blob, size);
	put32(b + at + 4, (le32(blob + at + 4) & ~0xffffu) | 1000);
	refuse(b, size, "malformed", "a struct claiming 1000 members");

	/* A member whose type id points past every type: libbpf 1.1 takes
	 * the blob; the lookup must not follow it. */
	memcpy(b, blob, size);
	put32(b + at + 12 + 4, 99999);
	struct pgw_kernel_btf *kb = open_blob(b, size, &err);
	struct pgw_task_layout l;
	struct pgw_btf_member m;
	ok(kb && pgw_kernel_btf_member(kb, "task_struct", "__state", &m,
				       &err) == PGW_OK &&
	   m.shape == PGW_BTF_OTHER && m.size == 0,
	   "a member of type 99999: found, of no known shape");
	pgw_kernel_btf_close(kb);
	/* ... and where the walk needs it, refused. */
	memcpy(b, blob, size);
	for (size_t p = at + 12; p < at + 12 + 12 * 7; p += 12)
		put32(b + p + 4, 99999);
	kb = open_blob(b, size, &err);
	ok(kb && pgw_task_layout_btf(kb, 8, &l, &err) == PGW_E_FORMAT &&
	   strstr(err.msg, "something else of 0 bytes"),
	   "members of type 99999 in the layout: %s", err.msg);
	pgw_kernel_btf_close(kb);

	/* Above the size bound: refused before anything is read. */
	kb = (void *)1;
	ok(pgw_kernel_btf_from_blob(blob, (size_t)PGW_KERNEL_BTF_MAX + 1, &kb,
				    &err) == PGW_E_FORMAT && !kb &&
	   strstr(err.msg, "more than"), "64 MiB + 1: %s", err.msg);
	free(b);
	free(blob);
}

static void test_loop(void)
{
	uint32_t size;
	uint8_t *blob = bw_blob(&bw_default, 2000, &size);
	struct pgw_err err;
	struct pgw_kernel_btf *kb = open_blob(blob, size, &err);
	struct pgw_btf_member m;
	clock_t t0 = clock();

	ok(kb && pgw_kernel_btf_member(kb, "loop", "x", &m, &err) ==
	   PGW_E_LIMIT && strstr(err.msg, "more than 1048576 members"),
	   "a struct nesting itself 2000 times over: %s", err.msg);
	double s = (double)(clock() - t0) / CLOCKS_PER_SEC;
	ok(s < 2, "... in %.3f s", s);
	pgw_kernel_btf_close(kb);
	free(blob);
}

/* Bit flips: every blob parses or is refused with a message, and a
 * parsed one gives a layout or a message. */
static void test_flips(void)
{
	uint32_t size;
	uint8_t *blob = bw_blob(&bw_default, 0, &size);
	uint8_t *b = malloc(size);
	unsigned seed = 777, parsed = 0, laid = 0, silent = 0;

	for (int round = 0; round < 3000; round++) {
		memcpy(b, blob, size);
		for (int f = 1 + rand_r(&seed) % 4; f > 0; f--)
			b[(size_t)rand_r(&seed) % size] ^=
				(uint8_t)(1u << rand_r(&seed) % 8);
		struct pgw_err err = { 0 };
		struct pgw_kernel_btf *kb = open_blob(b, size, &err);
		if (!kb) {
			silent += !err.msg[0];
			continue;
		}
		parsed++;
		struct pgw_task_layout l;
		err.msg[0] = '\0';
		if (pgw_task_layout_btf(kb, 8, &l, &err) == PGW_OK)
			laid++;
		else
			silent += !err.msg[0];
		pgw_kernel_btf_close(kb);
	}
	ok(silent == 0 && parsed > 100, "3000 flipped blobs: %u parse, %u give "
	   "a layout, the rest say why", parsed, laid);
	free(b);
	free(blob);
}

/*
 * What ps reads, by the names and shapes two kernel generations give
 * it: 5.10's 8-byte `state` and task_struct.cpu, 6.12's 4-byte __state,
 * thread_info.cpu and real_parent behind a TYPE_TAG, with the kinds 6.x
 * BTF adds (ENUM64, DECL_TAG, FLOAT) that older readers choke on.
 */
static void test_eras(void)
{
	static const struct {
		int era;
		uint32_t state, state_size, cpu;
	} eras[] = {
		{ BW_ERA_510, BW_ERA_STATE_510, 8, BW_ERA_CPU_510 },
		{ BW_ERA_612, BW_ERA_STATE_612, 4, BW_ERA_CPU_612 },
	};
	for (size_t i = 0; i < sizeof(eras) / sizeof(eras[0]); i++) {
		struct bw_offsets o = bw_default;
		uint32_t size;
		struct pgw_err err = { 0 };
		struct pgw_task_layout l;
		o.era = eras[i].era;
		uint8_t *blob = bw_blob(&o, 0, &size);
		struct pgw_kernel_btf *kb = open_blob(blob, size, &err);
		enum pgw_status st = kb ? pgw_task_layout_btf(kb, 8, &l, &err) :
					  err.status;
		ok(st == PGW_OK && l.state == eras[i].state &&
		   l.state_size == eras[i].state_size &&
		   l.cpu == eras[i].cpu && l.real_parent == BW_ERA_PARENT &&
		   l.start_time == BW_ERA_START && l.mm_pgd == 72 &&
		   l.pid == 40 && l.comm == 48,
		   "%d-era BTF: state at %u (%u bytes), cpu at %u, "
		   "real_parent at %u, start_time at %u (%s)", eras[i].era,
		   l.state, l.state_size, l.cpu, l.real_parent, l.start_time,
		   err.msg);
		pgw_kernel_btf_close(kb);
		free(blob);
	}
}

int main(void)
{
	test_eras();
	test_members();
	test_lies();
	test_loop();
	test_flips();
	return tap_done();
}
