/*
 * The task layout without BTF (i386 distribution kernels, custom and old
 * kernels): inferred from the image, anchored on init_task, and accepted
 * only when facts the guess does not control agree.
 *
 * init_task is a task_struct in the kernel's data whose comm is
 * "swapper/0" (init_idle names it; "swapper" before): every such string
 * in the kernel image is a candidate comm.  From a candidate, offsets are
 * found relative to comm, each by a property no other field has:
 *   tasks       a list_head whose ring, followed from init_task, comes
 *               back to it through structures that all hold a printable
 *               comm at the same distance (prev pointers agreeing);
 *   pid, tgid   two adjacent ints, 0 and 0 in init_task, equal and
 *               distinct positive pids in every other (the ring links
 *               thread-group leaders only);
 *   real_parent two adjacent pointers (real_parent, parent) that in
 *               init_task point at init_task itself, which gives comm's
 *               offset in the struct, and in every task at a task of the
 *               ring, not all at themselves (group_leader does that);
 *   mm          mm and active_mm: 0 and init_mm in init_task, equal or 0
 *               in every task, and some with an mm;
 *   mm->pgd     the word of init_mm that translates to the kernel root;
 *               then every task's mm->pgd must be a top table that
 *               shares the kernel root's kernel half (as the roots scan
 *               accepts them);
 *   flags       PF_KTHREAD clear where there is an mm, set in (nearly)
 *               every task without one;
 *   stack       the pointer before usage before flags (their order in
 *               every task_struct since 2.6): kept only when every
 *               task's is THREAD_SIZE-aligned, no two alike, and
 *               init_task's is init_stack where kallsyms names it.
 * Each offset must be the only one with its property; two init_task
 * candidates that both pass are ambiguous.  Any failure names nothing.
 */
#include "../lib/err.h"
#include "linux.h"
#include "kernel_half.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How far from comm the searched fields may lie (6.1: within 2 KiB). */
#define REACH 4096
/* init_task candidates examined at most. */
#define MAX_CANDIDATES 32
/* How far past the kernel's last known symbol init_task may lie. */
#define IMAGE_TAIL (UINT64_C(8) << 20)
#define COMM_LEN 16

struct infer {
	const struct pgw_space *k;
	unsigned ptr;
	uint64_t kernel_start;     /* kernel VAs are at or above it */
	struct pgw_khalf *kh;
	/* The ring, as comm addresses; [0] is init_task's. */
	uint64_t *comm;
	size_t n;
	struct pgw_task_layout lay; /* offsets from the struct's start */
	uint64_t init_task;
	uint64_t init_stack;       /* kallsyms' init_stack; 0: unknown */
	size_t users;              /* tasks with an mm */
	char why[200];             /* the last failure */
};

static bool rd(const struct infer *in, uint64_t va, void *buf, size_t n)
{
	struct pgw_err e;

	return pgw_read_virt(in->k, va, buf, n, NULL, &e) == PGW_OK;
}

static bool word(const struct infer *in, uint64_t va, uint64_t *v)
{
	uint8_t b[8] = { 0 };

	if (!rd(in, va, b, in->ptr))
		return false;
	*v = 0;
	for (unsigned i = in->ptr; i-- > 0;)
		*v = *v << 8 | b[i];
	return true;
}

static bool u32_at(const struct infer *in, uint64_t va, uint32_t *v)
{
	uint8_t b[4];

	if (!rd(in, va, b, 4))
		return false;
	*v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	     (uint32_t)b[3] << 24;
	return true;
}

static bool kernel_ptr(const struct infer *in, uint64_t v)
{
	return v >= in->kernel_start && v % in->ptr == 0;
}

/* A comm: 1..15 bytes, then NUL; *odd when any is not printable or the
 * NUL is missing (a name prctl set may hold anything, and a damaged one
 * anything, but few do). */
static bool comm_ok(const struct infer *in, uint64_t va, bool *odd)
{
	uint8_t c[COMM_LEN];
	size_t i;

	*odd = false;
	if (!rd(in, va, c, sizeof(c)))
		return false;
	for (i = 0; i < sizeof(c) && c[i]; i++)
		*odd |= c[i] < 0x20 || c[i] > 0x7e;
	*odd |= i == sizeof(c);
	return i > 0;
}

/* ---- tasks: the ring ---- */

/* The ring through the list_head at distance d from comm c0: its
 * members' comm addresses, or 0 members. */
static size_t ring(struct infer *in, uint64_t c0, int64_t d, size_t cap,
		   uint64_t **out)
{
	uint64_t head = c0 + (uint64_t)d, x, prev, back;
	uint64_t *m = NULL;
	size_t n = 0, room = 0, odd = 0;
	bool o;

	*out = NULL;
	if (!word(in, head, &x) || x == head || !kernel_ptr(in, x) ||
	    !word(in, x + in->ptr, &back) || back != head)
		return 0;
	prev = head;
	if (!(m = malloc(64 * sizeof(*m))))
		return 0;
	room = 64;
	m[n++] = c0;
	while (x != head) {
		uint64_t next, p;
		if (n == cap || !kernel_ptr(in, x) ||
		    !word(in, x + in->ptr, &p) || p != prev ||
		    !comm_ok(in, x - (uint64_t)d, &o) || !word(in, x, &next))
			goto fail;
		odd += o;
		if (n == room) {
			uint64_t *g = realloc(m, 2 * room * sizeof(*m));
			if (!g)
				goto fail;
			m = g;
			room *= 2;
		}
		m[n++] = x - (uint64_t)d;
		prev = x;
		x = next;
	}
	/* Comms printable but for a few: one in four at most. */
	if (4 * odd > n)
		goto fail;
	*out = m;
	return n;
fail:
	free(m);
	return 0;
}

/* ---- the fields, relative to comm ---- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static bool member(const uint64_t *sorted, size_t n, uint64_t v)
{
	return bsearch(&v, sorted, n, sizeof(v), cmp_u64) != NULL;
}

/* pid and tgid at p: 0, 0 in init_task; equal, positive and distinct in
 * the others. */
static bool pid_at(struct infer *in, int64_t p)
{
	uint32_t *pids = malloc(in->n * sizeof(*pids));
	bool ok = pids != NULL;

	for (size_t i = 0; ok && i < in->n; i++) {
		uint32_t pid, tgid;
		ok = u32_at(in, in->comm[i] + (uint64_t)p, &pid) &&
		     u32_at(in, in->comm[i] + (uint64_t)p + 4, &tgid) &&
		     pid == tgid && (i == 0 ? pid == 0 :
				     pid > 0 && pid < (1u << 22));
		if (ok)
			pids[i] = pid;
	}
	if (ok) {
		for (size_t i = 1; i < in->n; i++)
			for (size_t j = 1; ok && j < i; j++)
				ok = pids[i] != pids[j];
	}
	free(pids);
	return ok;
}

/* The pointer pair at r: in init_task both init_task (so comm lies
 * comm_off into the struct), in the others tasks of the ring, not every
 * one itself. */
static bool parent_at(struct infer *in, const uint64_t *sorted, int64_t r,
		      uint64_t *comm_off)
{
	uint64_t v0, v1, c;
	bool all_self = true;

	if (!word(in, in->comm[0] + (uint64_t)r, &v0) ||
	    !word(in, in->comm[0] + (uint64_t)r + in->ptr, &v1) ||
	    v0 != v1 || v0 >= in->comm[0] || in->comm[0] - v0 > REACH)
		return false;
	c = in->comm[0] - v0;
	if ((int64_t)c + r < 0)
		return false;
	for (size_t i = 1; i < in->n; i++) {
		uint64_t rp, pp;
		if (!word(in, in->comm[i] + (uint64_t)r, &rp) ||
		    !word(in, in->comm[i] + (uint64_t)r + in->ptr, &pp) ||
		    !member(sorted, in->n, rp + c) ||
		    !member(sorted, in->n, pp + c))
			return false;
		all_self &= rp + c == in->comm[i];
	}
	*comm_off = c;
	return !all_self;
}

/* mm, active_mm at m: 0 and init_mm in init_task; equal or mm 0 in the
 * others, some with one.  init_mm into *init_mm. */
static bool mm_at(struct infer *in, int64_t m, uint64_t *init_mm)
{
	uint64_t mm, act;
	size_t users = 0;

	if (!word(in, in->comm[0] + (uint64_t)m, &mm) ||
	    !word(in, in->comm[0] + (uint64_t)m + in->ptr, &act) || mm ||
	    !kernel_ptr(in, act))
		return false;
	*init_mm = act;
	for (size_t i = 1; i < in->n; i++) {
		if (!word(in, in->comm[i] + (uint64_t)m, &mm) ||
		    !word(in, in->comm[i] + (uint64_t)m + in->ptr, &act))
			return false;
		if (mm && (mm != act || !kernel_ptr(in, mm)))
			return false;
		users += mm != 0;
	}
	return users > 0;
}

/* Does the pointer at va lead to a top table sharing the kernel root's
 * kernel half (as the roots scan accepts them)? */
static bool top_table_at(struct infer *in, uint64_t va)
{
	bool pae = in->k->mode->level[0].bits == 2;
	static uint8_t top[PGW_PAGE_SIZE];
	struct pgw_khalf_cmp cmp;
	struct pgw_xlat x;
	struct pgw_err e;
	uint64_t pgd;

	if (!word(in, va, &pgd) || !kernel_ptr(in, pgd) ||
	    pgd % (pae ? 32 : PGW_PAGE_SIZE) ||
	    pgw_translate(in->k, NULL, pgd, &x) != PGW_STOP_OK ||
	    pgw_image_read(in->k->img, x.pa, top, pae ? 32 : PGW_PAGE_SIZE,
			   &e) != PGW_OK)
		return false;
	if (x.pa == in->k->root)
		return true;
	pgw_khalf_compare(in->kh, x.pa, top, &cmp);
	return pgw_khalf_mostly(&cmp);
}

/* mm_struct.pgd: the one word at which every mm (and init_task's
 * active_mm: init_mm, or the mm an idle CPU borrowed) points at a top
 * table sharing the kernel half. */
static bool pgd_at(struct infer *in, int64_t m, uint64_t init_active,
		   int64_t *g, size_t *users)
{
	int64_t found = -1;

	uint64_t *seen = malloc(2 * in->n * sizeof(*seen));

	if (!seen)
		return false;
	for (int64_t o = 0; o < REACH; o += in->ptr) {
		size_t u = 0;
		bool ok = top_table_at(in, init_active + (uint64_t)o);
		/* Each mm its own table: (mm, pgd) pairs, an mm shared
		 * by a vfork child counted once. */
		for (size_t i = 1; ok && i < in->n; i++) {
			uint64_t mm, pgd;
			ok = word(in, in->comm[i] + (uint64_t)m, &mm) &&
			     (!mm || (top_table_at(in, mm + (uint64_t)o) &&
				      word(in, mm + (uint64_t)o, &pgd)));
			if (!ok || !mm)
				continue;
			for (size_t j = 0; ok && j < u; j++)
				ok = (seen[2 * j] == mm) ==
				     (seen[2 * j + 1] == pgd);
			seen[2 * u] = mm;
			seen[2 * u + 1] = pgd;
			u++;
		}
		if (!ok)
			continue;
		if (found >= 0) {
			snprintf(in->why, sizeof(in->why), "mm_struct.pgd: "
				 "two offsets fit (%lld and %lld)",
				 (long long)found, (long long)o);
			free(seen);
			return false;
		}
		found = o;
		*users = u;
	}
	free(seen);
	if (found < 0)
		snprintf(in->why, sizeof(in->why), "mm_struct.pgd: no offset "
			 "where every mm points at a top table sharing the "
			 "kernel half");
	*g = found;
	return found >= 0;
}

/* PF_KTHREAD at f: set in init_task, clear with an mm, set without one
 * (one in 16 without an mm excepted: zombies). */
static bool flags_at(struct infer *in, int64_t f, int64_t m)
{
	size_t kernel = 0, marked = 0, high = 0;
	uint32_t init;

	/* init_task is a kernel thread too (INIT_TASK's PF_KTHREAD). */
	if (!u32_at(in, in->comm[0] + (uint64_t)f, &init) ||
	    !(init & PGW_PF_KTHREAD))
		return false;
	for (size_t i = 1; i < in->n; i++) {
		uint64_t mm;
		uint32_t fl;
		if (!word(in, in->comm[i] + (uint64_t)m, &mm) ||
		    !u32_at(in, in->comm[i] + (uint64_t)f, &fl))
			return false;
		if (mm && (fl & PGW_PF_KTHREAD))
			return false;
		if (!mm) {
			kernel++;
			marked += (fl & PGW_PF_KTHREAD) != 0;
			/* The upper half of a pointer near the task: on
			 * 64-bit it is the same in every task, and may
			 * have bit 21 set. */
			high += in->ptr == 8 && fl == in->comm[i] >> 32;
		}
	}
	return marked > 0 && marked + kernel / 16 >= kernel &&
	       2 * high < kernel;
}

/* The kernel stack's alignment: THREAD_SIZE, 8 KiB on 32-bit kernels,
 * 16 KiB (or a multiple) on 64-bit ones. */
#define STACK_ALIGN(ptr) ((ptr) == 8 ? UINT64_C(16) << 10 : UINT64_C(8) << 10)

/* task_struct.stack at s from comm: init_task's set (init_stack where
 * known), each task's aligned and unlike any other's; a zombie's may be
 * NULL (its stack freed at exit), but not more than one in 16. */
static bool stack_at(struct infer *in, int64_t s)
{
	uint64_t *seen = malloc(in->n * sizeof(*seen));
	size_t nseen = 0, null = 0;
	bool ok = seen != NULL;

	for (size_t i = 0; ok && i < in->n; i++) {
		uint64_t v;
		ok = word(in, in->comm[i] + (uint64_t)s, &v);
		if (ok && v == 0 && i > 0) {
			null++;
			continue;
		}
		ok = ok && kernel_ptr(in, v) && v % STACK_ALIGN(in->ptr) == 0 &&
		     (i > 0 || !in->init_stack || v == in->init_stack);
		if (ok)
			seen[nseen++] = v;
	}
	if (ok) {
		qsort(seen, nseen, sizeof(*seen), cmp_u64);
		for (size_t i = 1; ok && i < nseen; i++)
			ok = seen[i] != seen[i - 1];
	}
	free(seen);
	return ok && null * 16 <= in->n;
}

/* What a field's search knows: the ring sorted, what was found before. */
struct ctx {
	struct infer *in;
	const uint64_t *sorted;
	uint64_t comm_off, init_mm;
	int64_t r, m;
};

static bool is_pid(struct ctx *c, int64_t o)
{
	return (o <= -8 || o >= COMM_LEN) && pid_at(c->in, o);
}

static bool is_parent(struct ctx *c, int64_t o)
{
	return (o <= -2 * (int64_t)c->in->ptr || o >= COMM_LEN) &&
	       parent_at(c->in, c->sorted, o, &c->comm_off);
}

static bool is_mm(struct ctx *c, int64_t o)
{
	return (o <= -2 * (int64_t)c->in->ptr || o >= COMM_LEN) &&
	       o != c->r && mm_at(c->in, o, &c->init_mm);
}

static bool is_flags(struct ctx *c, int64_t o)
{
	return (o <= -4 || o >= COMM_LEN) && flags_at(c->in, o, c->m);
}

/* The one offset from comm in [-REACH, REACH) where fits() holds (run
 * again on it last, so what it fills is that offset's); else false with
 * why. */
static bool only_one(struct ctx *c, int64_t step,
		     bool (*fits)(struct ctx *, int64_t), const char *what,
		     int64_t *at)
{
	int64_t only = INT64_MIN;

	for (int64_t o = -REACH; o < REACH; o += step) {
		if (!fits(c, o))
			continue;
		if (only != INT64_MIN) {
			snprintf(c->in->why, sizeof(c->in->why), "%s: two "
				 "offsets fit (%lld and %lld from comm)", what,
				 (long long)only, (long long)o);
			return false;
		}
		only = o;
	}
	if (only == INT64_MIN) {
		snprintf(c->in->why, sizeof(c->in->why), "%s: no offset fits",
			 what);
		return false;
	}
	*at = only;
	return fits(c, only);
}

/* The fields, given the ring through tasks at d from comm. */
static bool fields(struct infer *in, int64_t d)
{
	uint64_t *sorted = malloc(in->n * sizeof(*sorted));
	struct ctx c = { .in = in, .sorted = sorted };
	int64_t p, f, g = 0, step = (int64_t)in->ptr;
	size_t users = 0;
	bool ok;

	if (!sorted)
		return false;
	memcpy(sorted, in->comm, in->n * sizeof(*sorted));
	qsort(sorted, in->n, sizeof(*sorted), cmp_u64);
	ok = only_one(&c, 4, is_pid, "pid/tgid", &p) &&
	     only_one(&c, step, is_parent, "real_parent/parent", &c.r) &&
	     only_one(&c, step, is_mm, "mm/active_mm", &c.m);
	free(sorted);
	if (!ok)
		return false;
	if (!pgd_at(in, c.m, c.init_mm, &g, &users))
		return false;
	if (!only_one(&c, 4, is_flags, "flags (PF_KTHREAD)", &f))
		return false;
	int64_t base = (int64_t)c.comm_off;
	if (base + d < 0 || base + p < 0 || base + c.m < 0 || base + f < 0 ||
	    base + c.r < 0) {
		snprintf(in->why, sizeof(in->why), "fields before the start "
			 "of the struct (comm at +%lld)", (long long)base);
		return false;
	}
	int64_t s = f - 4 - (int64_t)in->ptr;
	bool stack = base + s > 0 && (base + s) % in->ptr == 0 &&
		     stack_at(in, s);
	in->init_task = in->comm[0] - c.comm_off;
	in->lay = (struct pgw_task_layout){
		.ptr_size = in->ptr,
		.tasks = (uint32_t)(base + d), .list_next = 0,
		.pid = (uint32_t)(base + p), .tgid = (uint32_t)(base + p + 4),
		.comm = (uint32_t)base, .comm_size = COMM_LEN,
		.flags = (uint32_t)(base + f), .flags_size = 4,
		.mm = (uint32_t)(base + c.m), .mm_pgd = (uint32_t)g,
		.real_parent = (uint32_t)(base + c.r),
		.stack = stack ? (uint32_t)(base + s) : 0,
		/* No size is known: the farthest field bounds the count. */
		.task_size = (uint32_t)(base + REACH),
	};
	in->users = users;
	return true;
}

/* Is the candidate comm at c0 init_task's?  Fills in on success. */
static bool try_candidate(struct infer *in, uint64_t c0, size_t cap)
{
	size_t found = 0;
	int64_t best_d = 0;
	uint64_t *best = NULL;
	size_t best_n = 0;

	for (int64_t d = -REACH; d < REACH; d += in->ptr) {
		if (d > -2 * (int64_t)in->ptr && d < COMM_LEN)
			continue;
		uint64_t *m;
		size_t n = ring(in, c0, d, cap, &m);
		if (n < 2) {
			free(m);
			continue;
		}
		found++;
		if (n > best_n) {
			free(best);
			best = m;
			best_n = n;
			best_d = d;
		} else {
			free(m);
		}
	}
	if (!best) {
		snprintf(in->why, sizeof(in->why), "no ring of tasks through "
			 "a list_head near comm 0x%llx",
			 (unsigned long long)c0);
		return false;
	}
	if (found > 1) {
		snprintf(in->why, sizeof(in->why), "%zu rings of tasks near "
			 "comm 0x%llx: which is tasks is not known", found,
			 (unsigned long long)c0);
		free(best);
		return false;
	}
	in->comm = best;
	in->n = best_n;
	if (fields(in, best_d))
		return true;
	free(in->comm);
	in->comm = NULL;
	return false;
}

/* Where "swapper/0" or "swapper" lies, as a NUL-terminated comm that
 * starts a 4-byte word (comm follows pointers and ints in every
 * task_struct layout), in [lo, hi).  A word compare a step: the window
 * spans tens of MiB of kernel image. */
static size_t candidates(const struct infer *in, uint64_t lo, uint64_t hi,
			 uint64_t *out, size_t max)
{
	static uint8_t buf[PGW_PAGE_SIZE + COMM_LEN];
	uint32_t swap;
	size_t n = 0;

	memcpy(&swap, "swap", 4);
	for (uint64_t va = lo & ~(uint64_t)(PGW_PAGE_SIZE - 1);
	     va < hi && n < max; va += PGW_PAGE_SIZE) {
		if (!rd(in, va, buf, PGW_PAGE_SIZE))
			continue;
		bool next = false;
		for (size_t i = 0; i < PGW_PAGE_SIZE && n < max; i += 4) {
			uint32_t w;
			memcpy(&w, buf + i, 4);
			if (w != swap)
				continue;
			/* A name across the page's end: its next page. */
			if (i + COMM_LEN > PGW_PAGE_SIZE && !next) {
				next = true;
				if (!rd(in, va + PGW_PAGE_SIZE,
					buf + PGW_PAGE_SIZE, COMM_LEN))
					memset(buf + PGW_PAGE_SIZE, 0xff,
					       COMM_LEN);
			}
			if (!memcmp(buf + i, "swapper/0", 10) ||
			    !memcmp(buf + i, "swapper", 8))
				out[n++] = va + i;
		}
	}
	return n;
}

enum pgw_status pgw_task_layout_infer(const struct pgw_space *kernel,
				      const struct pgw_kallsyms *ks,
				      uint64_t *init_task_ret,
				      struct pgw_task_layout *layout_ret,
				      char *why, size_t why_size,
				      struct pgw_err *err)
{
	struct infer in = { .k = kernel };
	uint64_t stext = 0, hi = 0, v, cand[MAX_CANDIDATES];
	const char *key;
	enum pgw_status st;

	in.ptr = kernel->mode->va_bits > 32 ? 8 : 4;
	in.kh = malloc(sizeof(*in.kh));
	if (!in.kh)
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	st = pgw_khalf_init(in.kh, kernel->img, kernel->mode, &kernel->enc,
			    kernel->root, err);
	if (st != PGW_OK) {
		free(in.kh);
		return st;
	}
	in.kernel_start = in.kh->kernel_start;
	if (!ks || pgw_kallsyms_lookup(ks, "init_stack", &in.init_stack, NULL,
				       err) != PGW_OK)
		in.init_stack = 0;
	/* Where init_task may be: after the text, up to a little past the
	 * last data symbol known (init_uts_ns, the root, in .data/.bss). */
	bool have_init = ks && pgw_kallsyms_lookup(ks, "init_task", &v, NULL,
						  err) == PGW_OK;
	if (have_init) {
		stext = v;
		hi = v + REACH * 4;
	} else {
		if (!pgw_vmcoreinfo_u64(kernel->img, "SYMBOL(_stext)", &stext) &&
		    !(ks && pgw_kallsyms_lookup(ks, "_stext", &stext, NULL,
						err) == PGW_OK)) {
			free(in.kh);
			return pgw_err_set(err, PGW_E_NOTFOUND, "inferred "
					   "layout: no _stext to find "
					   "init_task from");
		}
		hi = stext;
		if (pgw_vmcoreinfo_u64(kernel->img, "SYMBOL(init_uts_ns)", &v) &&
		    v > hi)
			hi = v;
		if (linux_kernel_root_symbol(kernel->img, &key, &v) && v > hi)
			hi = v;
		hi += IMAGE_TAIL;
	}
	size_t nc = candidates(&in, stext, hi, cand, MAX_CANDIDATES);
	size_t cap = PGW_TASKS_MAX, passed = 0;
	uint64_t first = 0;
	struct pgw_task_layout lay = { 0 };
	char last[200] = "";

	for (size_t i = 0; i < nc; i++) {
		if (!try_candidate(&in, cand[i], cap)) {
			snprintf(last, sizeof(last), "%s", in.why);
			continue;
		}
		if (passed++ == 0) {
			char stack[64] = "no stack";
			first = in.init_task;
			lay = in.lay;
			if (lay.stack)
				snprintf(stack, sizeof(stack), "stack +%u%s",
					 lay.stack, in.init_stack ?
					 " (init_task's is init_stack)" : "");
			snprintf(why, why_size, "inferred layout: init_task "
				 "0x%llx (its comm at 0x%llx), a ring of %zu "
				 "tasks (%zu with an mm) through tasks at +%u; "
				 "pid +%u, comm +%u, real_parent +%u, mm +%u, "
				 "flags +%u, %s; mm_struct.pgd +%u (every "
				 "mm's a top table sharing the kernel half)",
				 (unsigned long long)in.init_task,
				 (unsigned long long)cand[i], in.n, in.users,
				 lay.tasks, lay.pid, lay.comm, lay.real_parent,
				 lay.mm, lay.flags, stack, lay.mm_pgd);
		} else if (in.init_task != first) {
			passed = 2;
		}
		free(in.comm);
		in.comm = NULL;
	}
	free(in.kh);
	if (passed == 0)
		return pgw_err_set(err, PGW_E_NOTFOUND, "inferred layout: %s",
				   nc == 0 ? "no comm \"swapper/0\" in the "
					     "kernel image (no init_task)" :
					     last);
	if (passed > 1)
		return pgw_err_set(err, PGW_E_FORMAT, "inferred layout: two "
				   "init_task candidates both fit; naming "
				   "none");
	*init_task_ret = first;
	*layout_ret = lay;
	return PGW_OK;
}
