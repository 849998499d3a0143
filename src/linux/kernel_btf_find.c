/*
 * Finding the kernel's BTF in memory.  The linker script puts it in the
 * read-only data, between __start_BTF and __stop_BTF; kallsyms lists both
 * when it lists data symbols (CONFIG_KALLSYMS_ALL).  Without them, the
 * read-only data after the kallsyms tables (which lie there too) is
 * scanned for a BTF header, up to init_uts_ns (VMCOREINFO; .data, which
 * comes after it) and never more than PGW_KERNEL_BTF_MAX bytes; a blob
 * counts only when libbpf accepts it and it describes task_struct (BPF
 * programs built into the kernel carry small BTF blobs of their own).
 * The scan does not stop at the first: a stale or forged copy may come
 * before the kernel's, so of several the one whose task list the image
 * proves is taken (kernel_btf_fit.c), and two that read different lists
 * equally well are a conflict, not a choice.
 */
#include "../lib/err.h"
#include "kernel_btf.h"
#include "../walk/in_place.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BTF_HDR_LEN 24
#define SCAN_CHUNK ((size_t)1 << 20)
/* Headers that pass the checks are read and parsed whole: at most this
 * many per scan, so read-only data full of fake headers costs a bounded
 * number of window-sized reads. */
#define SCAN_MAX_PARSES 8
/* Blobs describing task_struct kept to choose among. */
#define SCAN_MAX_FOUND 4

struct found {
	struct pgw_kernel_btf *kb[SCAN_MAX_FOUND];
	size_t n;
};

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

bool pgw_btf_header_plausible(const uint8_t *p, size_t n,
			      uint64_t *size_ret)
{
	if (n < BTF_HDR_LEN || p[0] != 0x9f || p[1] != 0xeb || p[2] != 1 ||
	    p[3] != 0)
		return false;  /* magic 0xeB9F, version 1, no flags */
	uint64_t hdr_len = le32(p + 4), type_off = le32(p + 8),
		 type_len = le32(p + 12), str_off = le32(p + 16),
		 str_len = le32(p + 20);
	if (hdr_len < BTF_HDR_LEN || hdr_len > 4096 || type_off % 4 ||
	    type_len == 0 || str_len == 0 || type_off + type_len > str_off)
		return false;
	*size_ret = hdr_len + str_off + str_len;
	return *size_ret <= PGW_KERNEL_BTF_MAX;
}

/* Read [va, va + size) and parse it.  libbpf copies the blob: one held
 * in place in the image's file is not copied twice. */
static enum pgw_status read_blob(const struct pgw_space *kernel,
				 uint64_t va, uint64_t size,
				 struct pgw_kernel_btf **kb_ret,
				 struct pgw_err *err)
{
	const uint8_t *in_place = pgw_virt_in_place(kernel, va, (size_t)size);
	enum pgw_status st;

	if (in_place) {
		st = pgw_kernel_btf_from_blob(in_place, (size_t)size, kb_ret,
					      err);
		if (st == PGW_OK)
			(*kb_ret)->info.va = va;
		return st;
	}
	uint8_t *buf = malloc(size ? (size_t)size : 1);
	if (!buf)
		return pgw_err_set(err, PGW_E_NOMEM, "BTF: %llu bytes",
				   (unsigned long long)size);
	st = pgw_read_virt(kernel, va, buf, (size_t)size, NULL, err);
	if (st != PGW_OK)
		pgw_err_prefix(err, "BTF at 0x%llx (%llu bytes)",
			       (unsigned long long)va,
			       (unsigned long long)size);
	else
		st = pgw_kernel_btf_from_blob(buf, (size_t)size, kb_ret, err);
	free(buf);
	if (st == PGW_OK)
		(*kb_ret)->info.va = va;
	return st;
}

/* A candidate header at va: a BTF describing task_struct, lying inside
 * the window that ends at end?  Kept in found; anything else is no.
 * Returns the bytes the scan may skip (a kept blob's). */
static uint64_t try_candidate(const struct pgw_space *kernel, uint64_t va,
			      uint64_t end, const uint8_t *hdr, size_t avail,
			      unsigned *parses, struct found *found)
{
	uint64_t size;
	struct pgw_err ignored;
	struct pgw_kernel_btf *kb;

	if (!pgw_btf_header_plausible(hdr, avail, &size) || size > end - va ||
	    *parses >= SCAN_MAX_PARSES)
		return 0;
	++*parses;
	if (read_blob(kernel, va, size, &kb, &ignored) != PGW_OK)
		return 0;
	if (pgw_kernel_btf_has_struct(kb, "task_struct")) {
		found->kb[found->n++] = kb;
		return size;
	}
	pgw_kernel_btf_close(kb);
	return 0;
}

static void found_free(struct found *found, const struct pgw_kernel_btf *keep)
{
	for (size_t i = 0; i < found->n; i++)
		if (found->kb[i] != keep)
			pgw_kernel_btf_close(found->kb[i]);
	found->n = 0;
}

/* "N tasks, R with a root", or why a blob does not fit. */
static void say_fit(char *out, size_t n, const struct linux_btf_fit *f)
{
	if (f->fits)
		snprintf(out, n, "%zu tasks, %zu with a root", f->tasks,
			 f->roots);
	else
		snprintf(out, n, "no task list: %.60s", f->why);
}

/*
 * Of several blobs describing task_struct, the one whose task list the
 * image proves best, said in its info.how; two that fit equally well
 * and read different lists are a conflict.
 */
static enum pgw_status choose(const struct pgw_space *kernel,
			      const struct pgw_kallsyms *ks,
			      struct found *found, uint64_t start,
			      uint64_t end, struct pgw_kernel_btf **kb_ret,
			      struct pgw_err *err)
{
	struct linux_btf_fit fit[SCAN_MAX_FOUND];
	size_t best = 0, other = 1, tied = 0;
	char a[100], b[100];

	for (size_t i = 0; i < found->n; i++) {
		linux_btf_fit(kernel, ks, found->kb[i], &fit[i]);
		if (fit[i].fits && (!fit[best].fits ||
				    fit[i].roots > fit[best].roots))
			best = i;
	}
	for (size_t i = 0; i < found->n; i++) {
		if (i == best)
			continue;
		if (other == best || other >= found->n ||
		    (fit[i].fits && !fit[other].fits))
			other = i;
		if (fit[best].fits && fit[i].fits &&
		    fit[i].roots == fit[best].roots &&
		    fit[i].sum != fit[best].sum) {
			tied = i;
			other = i;
		}
	}
	struct pgw_kernel_btf_info *bi = &found->kb[best]->info,
				   *oi = &found->kb[other]->info;
	say_fit(a, sizeof(a), &fit[best]);
	say_fit(b, sizeof(b), &fit[other]);
	if (tied) {
		pgw_err_set(err, PGW_E_FORMAT, "BTF: the scan of 0x%llx-0x%llx "
			    "found %zu blobs describing task_struct; those at "
			    "0x%llx and 0x%llx both read the task list (%s) "
			    "and disagree: which is the kernel's is not "
			    "known, so neither names anything",
			    (unsigned long long)start, (unsigned long long)end,
			    found->n, (unsigned long long)bi->va,
			    (unsigned long long)oi->va, a);
		found_free(found, NULL);
		return PGW_E_FORMAT;
	}
	snprintf(bi->how, sizeof(bi->how), "scan of 0x%llx-0x%llx: %zu "
		 "blobs with task_struct; 0x%llx's %s (0x%llx's: %.38s)",
		 (unsigned long long)start, (unsigned long long)end, found->n,
		 (unsigned long long)bi->va,
		 !fit[best].fits ? "is the first, none reads a task list" :
		 fit[other].fits && fit[other].sum == fit[best].sum ?
				   "is the first, the same list read" :
				   "reads the most roots",
		 (unsigned long long)oi->va, b);
	*kb_ret = found->kb[best];
	found_free(found, *kb_ret);
	return PGW_OK;
}

/* Scan, keeping what fits; choose with kallsyms' init_task (ks: may be
 * NULL). */
static enum pgw_status scan(const struct pgw_space *kernel,
			    const struct pgw_kallsyms *ks, uint64_t start,
			    uint64_t end, struct pgw_kernel_btf **kb_ret,
			    struct pgw_err *err)
{
	uint8_t *buf = malloc(SCAN_CHUNK + BTF_HDR_LEN);
	uint64_t va = start, stopped_at = start;
	struct pgw_err stop = { 0 };
	bool readable = true;
	unsigned parses = 0;
	struct found found = { .n = 0 };

	*kb_ret = NULL;
	if (!buf)
		return pgw_err_set(err, PGW_E_NOMEM, "BTF scan");
	if (end - start > PGW_KERNEL_BTF_MAX)
		end = start + PGW_KERNEL_BTF_MAX;
	while (va < end && readable && found.n < SCAN_MAX_FOUND &&
	       parses < SCAN_MAX_PARSES) {
		/* Chunks overlap by a header, so none is missed. */
		uint64_t want = end - va < SCAN_CHUNK + BTF_HDR_LEN ?
					end - va : SCAN_CHUNK + BTF_HDR_LEN;
		size_t got;
		readable = pgw_read_virt(kernel, va, buf, (size_t)want, &got,
					 &stop) == PGW_OK;
		stopped_at = va + got;
		size_t last = got < SCAN_CHUNK ? got : SCAN_CHUNK;
		uint64_t next = va + SCAN_CHUNK;
		for (const uint8_t *p = buf;
		     found.n < SCAN_MAX_FOUND && p < buf + last; p++) {
			p = memchr(p, 0x9f, (size_t)(buf + last - p));
			if (!p)
				break;
			uint64_t at = va + (uint64_t)(p - buf);
			uint64_t skip = try_candidate(kernel, at, end, p,
						      (size_t)(buf + got - p),
						      &parses, &found);
			/* Past a blob kept: its bytes hold no other. */
			if (skip && at + skip > next)
				next = at + skip;
			if (skip && at + skip >= va + last)
				break;
			if (skip)
				p += skip - 1;
		}
		va = next;
	}
	free(buf);
	if (found.n > 1)
		return choose(kernel, ks, &found, start, end, kb_ret, err);
	if (found.n == 1) {
		*kb_ret = found.kb[0];
		snprintf((*kb_ret)->info.how, sizeof((*kb_ret)->info.how),
			 "found by scanning 0x%llx-0x%llx for a BTF header "
			 "(the only blob there describing task_struct)",
			 (unsigned long long)start, (unsigned long long)end);
		return PGW_OK;
	}
	if (parses >= SCAN_MAX_PARSES)
		return pgw_err_set(err, PGW_E_LIMIT,
				   "no BTF describing task_struct among the "
				   "first %u headers in 0x%llx-0x%llx (the scan "
				   "parses no more)", parses,
				   (unsigned long long)start,
				   (unsigned long long)end);
	if (readable)
		return pgw_err_set(err, PGW_E_NOTFOUND,
				   "no BTF header describing task_struct in "
				   "0x%llx-0x%llx", (unsigned long long)start,
				   (unsigned long long)end);
	*err = stop;
	return pgw_err_prefix(err, "no BTF header describing task_struct in "
			      "0x%llx-0x%llx, where the scan stopped",
			      (unsigned long long)start,
			      (unsigned long long)stopped_at);
}

enum pgw_status pgw_kernel_btf_scan(const struct pgw_space *kernel,
				    uint64_t start, uint64_t end,
				    struct pgw_kernel_btf **kb_ret,
				    struct pgw_err *err)
{
	return scan(kernel, NULL, start, end, kb_ret, err);
}

/* The scan's window: from the end of the kallsyms tables (or _stext)
 * to init_uts_ns. */
static bool scan_window(const struct pgw_space *kernel,
			const struct pgw_kallsyms *ks, uint64_t *start,
			uint64_t *end)
{
	struct pgw_kallsyms_info ki;
	uint64_t uts;

	if (ks) {
		pgw_kallsyms_info(ks, &ki);
		*start = ki.tables.token_index + 512;
	} else if (!pgw_vmcoreinfo_u64(kernel->img, "SYMBOL(_stext)", start)) {
		return false;
	}
	*end = *start + PGW_KERNEL_BTF_MAX;
	if (*end < *start)
		*end = 0 - PGW_PAGE_SIZE;
	if (pgw_vmcoreinfo_u64(kernel->img, "SYMBOL(init_uts_ns)", &uts) &&
	    uts > *start && uts < *end)
		*end = uts;
	return true;
}

static enum pgw_status from_kallsyms(const struct pgw_space *kernel,
				     uint64_t start, uint64_t stop,
				     struct pgw_kernel_btf **kb_ret,
				     struct pgw_err *err)
{
	if (stop <= start || stop - start > PGW_KERNEL_BTF_MAX)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "BTF: kallsyms __start_BTF 0x%llx, "
				   "__stop_BTF 0x%llx: not 1 to %llu bytes",
				   (unsigned long long)start,
				   (unsigned long long)stop,
				   (unsigned long long)PGW_KERNEL_BTF_MAX);
	enum pgw_status st = read_blob(kernel, start, stop - start, kb_ret,
				       err);
	if (st == PGW_OK)
		snprintf((*kb_ret)->info.how, sizeof((*kb_ret)->info.how),
			 "kallsyms __start_BTF 0x%llx, __stop_BTF 0x%llx",
			 (unsigned long long)start,
			 (unsigned long long)stop);
	return st;
}

enum pgw_status pgw_kernel_btf_open(const struct pgw_space *kernel,
				    const struct pgw_kallsyms *ks,
				    struct pgw_kernel_btf **kb_ret,
				    struct pgw_err *err)
{
	struct pgw_kallsyms_info ki = { 0 };
	uint64_t start, stop;
	struct pgw_err ignored;
	enum pgw_status st;

	*kb_ret = NULL;
	if (ks) {
		pgw_kallsyms_info(ks, &ki);
		if (pgw_kallsyms_lookup(ks, "__start_BTF", &start, NULL,
					&ignored) == PGW_OK &&
		    pgw_kallsyms_lookup(ks, "__stop_BTF", &stop, NULL,
					&ignored) == PGW_OK)
			return from_kallsyms(kernel, start, stop, kb_ret, err);
		/* kallsyms lists data symbols but not these: there is no
		 * .BTF section. */
		if (ki.data_symbols > ki.symbols / 100)
			return pgw_err_set(
				err, PGW_E_NOTFOUND,
				"no BTF: the kernel was built without "
				"CONFIG_DEBUG_INFO_BTF (kallsyms lists %u "
				"data symbols but no __start_BTF)",
				ki.data_symbols);
	}
	if (!scan_window(kernel, ks, &start, &stop))
		return pgw_err_set(err, PGW_E_NOTFOUND,
				   "no BTF: neither kallsyms nor VMCOREINFO "
				   "says where the kernel's read-only data is");
	st = scan(kernel, ks, start, stop, kb_ret, err);
	/* Only a scan of the whole window says the kernel has none. */
	if (st == PGW_E_NOTFOUND) {
		char scan[sizeof(err->msg)];
		memcpy(scan, err->msg, sizeof(scan));
		pgw_err_set(err, PGW_E_NOTFOUND,
			    "no BTF: the kernel was built without "
			    "CONFIG_DEBUG_INFO_BTF (%s no __start_BTF; %s)",
			    ks ? "kallsyms holds text symbols only, so" :
				 "without kallsyms,", scan);
	} else if (st != PGW_OK) {
		pgw_err_prefix(err, "no BTF found (%s no __start_BTF)",
			       ks ? "kallsyms holds text symbols only, so" :
				    "without kallsyms,");
	}
	return st;
}
