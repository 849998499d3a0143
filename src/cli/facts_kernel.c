/*
 * The facts cache's kernel lines (pgw_kernel_facts): what the task list
 * and the VMA reader rest on, one line each, all of them or none:
 *
 *   kernel-space MODE 0xROOT 0xROOT_UPPER 0xENC 0xSHARED
 *   tasks METHOD 0xINIT_TASK
 *   task-layout 0xWORD ... (PGW_TASK_LAYOUT_WORDS of them)
 *   tasks-why TEXT (printable ASCII)
 *   kallsyms 0xLO 0xHI 0xHASH
 *   btf 0xVA 0xSIZE 0xHASH
 *   vma-layout 0xWORD ... (PGW_VMA_LAYOUT_WORDS), vma-fns 0xFN ... (both
 *   or neither)
 *
 * The library checks them again before it uses them; here a line is
 * only read as what it says, and refused when it says anything else.
 */
#include "facts_kernel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TASK_WORDS (sizeof(struct pgw_task_layout) / sizeof(uint32_t))
_Static_assert(sizeof(struct pgw_task_layout) % sizeof(uint32_t) == 0 &&
	       sizeof(unsigned) == sizeof(uint32_t),
	       "a task layout is words");

bool facts_hex_word(const char *w, uint64_t *v)
{
	size_t n = strlen(w);

	if (n < 3 || n > 18 || w[0] != '0' || w[1] != 'x' ||
	    strspn(w + 2, "0123456789abcdef") != n - 2)
		return false;
	*v = strtoull(w + 2, NULL, 16);
	return true;
}

/* Exactly n hex words after the key, each at most max. */
static bool hex_words(char *rest, uint64_t *v, size_t n, uint64_t max)
{
	char *save = NULL, *w = strtok_r(rest, " ", &save);

	for (size_t i = 0; i < n; i++, w = strtok_r(NULL, " ", &save))
		if (!w || !facts_hex_word(w, &v[i]) || v[i] > max)
			return false;
	return w == NULL;
}

static bool u32_words(char *rest, void *out, size_t n)
{
	uint64_t v[PGW_VMA_LAYOUT_WORDS];
	uint32_t w[PGW_VMA_LAYOUT_WORDS];

	if (n > PGW_VMA_LAYOUT_WORDS || !hex_words(rest, v, n, UINT32_MAX))
		return false;
	for (size_t i = 0; i < n; i++)
		w[i] = (uint32_t)v[i];
	memcpy(out, w, n * sizeof(uint32_t));
	return true;
}

static bool space_line(char *rest, struct pgw_kernel_facts *k)
{
	char *sp = strchr(rest, ' ');
	uint64_t v[4];

	if (!sp)
		return false;
	*sp = '\0';
	if (!(k->mode = pgw_mode_by_name(rest)) || !hex_words(sp + 1, v, 4,
							      UINT64_MAX))
		return false;
	k->root = v[0];
	k->root_upper = v[1];
	k->enc.enc = v[2];
	k->enc.shared = v[3];
	return true;
}

static bool tasks_line(char *rest, struct pgw_kernel_facts *k)
{
	static const enum pgw_tasks_method kept[] = {
		PGW_TASKS_BTF, PGW_TASKS_SCANNED_BTF,
	};
	char *sp = strchr(rest, ' ');

	if (!sp)
		return false;
	*sp = '\0';
	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++)
		if (strcmp(rest, pgw_tasks_method_key(kept[i])) == 0) {
			k->how.method = kept[i];
			return hex_words(sp + 1, &k->how.init_task, 1,
					 UINT64_MAX);
		}
	return false;
}

static bool why_line(char *rest, struct pgw_kernel_facts *k)
{
	size_t n = strlen(rest);

	if (n == 0 || n >= sizeof(k->how.why))
		return false;
	for (size_t i = 0; i < n; i++)
		if (rest[i] < 0x20 || rest[i] > 0x7e)
			return false;
	memcpy(k->how.why, rest, n + 1);
	return true;
}

static bool three(char *rest, uint64_t *a, uint64_t *b, uint64_t *c)
{
	uint64_t v[3];

	if (!hex_words(rest, v, 3, UINT64_MAX))
		return false;
	*a = v[0];
	*b = v[1];
	*c = v[2];
	return true;
}

static bool kallsyms_line(char *rest, struct pgw_kernel_facts *k)
{
	return three(rest, &k->ks_lo, &k->ks_hi, &k->ks_hash);
}

static bool btf_line(char *rest, struct pgw_kernel_facts *k)
{
	return three(rest, &k->btf_va, &k->btf_size, &k->btf_hash);
}

static bool task_layout_line(char *rest, struct pgw_kernel_facts *k)
{
	return u32_words(rest, &k->how.layout, TASK_WORDS);
}

static bool vma_layout_line(char *rest, struct pgw_kernel_facts *k)
{
	return u32_words(rest, k->vma_layout, PGW_VMA_LAYOUT_WORDS);
}

static bool vma_fns_line(char *rest, struct pgw_kernel_facts *k)
{
	return hex_words(rest, k->vma_fn, PGW_VMA_FNS, UINT64_MAX);
}

static const struct {
	const char *key;
	bool (*read)(char *rest, struct pgw_kernel_facts *k);
} lines[] = {
	{ "kernel-space", space_line }, { "tasks", tasks_line },
	{ "task-layout", task_layout_line }, { "tasks-why", why_line },
	{ "kallsyms", kallsyms_line }, { "btf", btf_line },
	{ "vma-layout", vma_layout_line }, { "vma-fns", vma_fns_line },
};
#define NLINES (sizeof(lines) / sizeof(lines[0]))
/* The lines every entry with kernel facts has; the VMA two are both or
 * neither. */
#define NEEDED 6u

int facts_kernel_line(char *line, struct facts_kernel_read *r, char *why,
		      size_t n)
{
	char *sp = strchr(line, ' ');

	if (!sp)
		return 0;
	for (unsigned i = 0; i < NLINES; i++) {
		if ((size_t)(sp - line) != strlen(lines[i].key) ||
		    strncmp(line, lines[i].key, (size_t)(sp - line)))
			continue;
		if ((r->seen & 1u << i) || !lines[i].read(sp + 1, &r->k)) {
			snprintf(why, n, "a %s line that is not one, or twice",
				 lines[i].key);
			return -1;
		}
		r->seen |= 1u << i;
		return 1;
	}
	return 0;
}

bool facts_kernel_done(struct facts_kernel_read *r, char *why, size_t n)
{
	unsigned all = (1u << NEEDED) - 1, vma = 3u << NEEDED;

	if (r->seen == 0)
		return true;
	if ((r->seen & all) != all || ((r->seen & vma) && (r->seen & vma) !=
							  vma)) {
		snprintf(why, n, "kernel facts without all their lines");
		return false;
	}
	r->k.have_vma = (r->seen & vma) != 0;
	r->have = true;
	return true;
}

/* " 0x..." for each of n words, into buf at *k. */
static void put_words(char *buf, size_t n, size_t *k, const uint64_t *v,
		      size_t nv)
{
	for (size_t i = 0; i < nv && *k < n; i++)
		*k += (size_t)snprintf(buf + *k, n - *k, " 0x%llx",
				       (unsigned long long)v[i]);
	if (*k < n)
		*k += (size_t)snprintf(buf + *k, n - *k, "\n");
}

static void put_u32s(char *buf, size_t n, size_t *k, const void *p,
		     size_t nw)
{
	uint32_t w[PGW_VMA_LAYOUT_WORDS];
	uint64_t v[PGW_VMA_LAYOUT_WORDS];

	memcpy(w, p, nw * sizeof(uint32_t));
	for (size_t i = 0; i < nw; i++)
		v[i] = w[i];
	put_words(buf, n, k, v, nw);
}

size_t facts_kernel_format(const struct pgw_kernel_facts *f, char *buf,
			   size_t n)
{
	size_t k = 0;
	const uint64_t space[] = { f->root, f->root_upper, f->enc.enc,
				   f->enc.shared };

	k += (size_t)snprintf(buf, n, "kernel-space %s", f->mode->name);
	put_words(buf, n, &k, space, 4);
	if (k < n)
		k += (size_t)snprintf(buf + k, n - k, "tasks %s",
				      pgw_tasks_method_key(f->how.method));
	put_words(buf, n, &k, &f->how.init_task, 1);
	if (k < n)
		k += (size_t)snprintf(buf + k, n - k, "task-layout");
	put_u32s(buf, n, &k, &f->how.layout, TASK_WORDS);
	if (k < n)
		k += (size_t)snprintf(buf + k, n - k, "tasks-why %s\n",
				      f->how.why);
	if (k < n)
		k += (size_t)snprintf(buf + k, n - k, "kallsyms");
	put_words(buf, n, &k, (const uint64_t[]){ f->ks_lo, f->ks_hi,
						  f->ks_hash }, 3);
	if (k < n)
		k += (size_t)snprintf(buf + k, n - k, "btf");
	put_words(buf, n, &k, (const uint64_t[]){ f->btf_va, f->btf_size,
						  f->btf_hash }, 3);
	if (f->have_vma && k < n) {
		k += (size_t)snprintf(buf + k, n - k, "vma-layout");
		put_u32s(buf, n, &k, f->vma_layout, PGW_VMA_LAYOUT_WORDS);
		if (k < n)
			k += (size_t)snprintf(buf + k, n - k, "vma-fns");
		put_words(buf, n, &k, f->vma_fn, PGW_VMA_FNS);
	}
	return k;
}
