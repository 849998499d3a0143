/*
 * maps as CSV and TSV (docs/output.md): one header row, then a row per
 * JSON record (process, vma, page, summary) in the columns
 *   type, pid, comm, va, end, size, perms, pgoff, dev, inode, naming,
 *   path, vm_flags, complete, reason, why, detail
 * with vm_flags' names joined by |, and the fields JSON has beyond these
 * as key=value words in detail (a page's state among them).
 */
#include "delim_cells.h"
#include "maps_out.h"

#include <stdio.h>

void delim_maps_begin(struct out *o, const struct delim *d)
{
	header(o, d, "type,pid,comm,va,end,size,perms,pgoff,dev,inode,naming,"
		     "path,vm_flags,complete,reason,why,detail");
}

/* n bytes from the image (a path may be 4 KiB, four times that escaped),
 * escaped as text and quoted in CSV when needed, spilling the row to the
 * output as it fills: never cut short. */
static void long_cell(struct out *o, struct line *l, const struct delim *d,
		      const char *s, size_t n)
{
	bool quote = d->sep == ',' && (memchr(s, ',', n) || memchr(s, '"', n));

	if (!n)
		emit_str(l, d->empty);
	if (quote)
		emit_char(l, '"');
	for (size_t i = 0; i < n; i++) {
		if (l->len > sizeof(l->buf) - 16)
			emit_spill(l, o->f);
		if (quote && s[i] == '"')
			emit_char(l, '"');
		emit_text_char(l, (unsigned char)s[i]);
	}
	if (quote)
		emit_char(l, '"');
	sep(l, d);
}

static void task_cells(struct out *o, struct line *l, const struct delim *d,
		       const struct pgw_task *t)
{
	num(l, d, (uint64_t)(uint32_t)t->pid);
	long_cell(o, l, d, (const char *)t->comm, t->comm_len);
}

static void kv(struct line *l, size_t from, const char *key, uint64_t v,
	       bool hexv)
{
	if (l->len > from)
		emit_char(l, ' ');
	emit_str(l, key);
	emit_char(l, '=');
	if (hexv)
		emit_hex(l, v);
	else
		emit_u64(l, v);
}

/* The detail cell begun at from, and the row's end. */
static void detail_end(struct out *o, struct line *l, const struct delim *d,
		       size_t from)
{
	if (l->len == from)
		emit_str(l, d->empty);
	sep(l, d);
	row_end(o, l);
}

void delim_maps_process(struct out *o, const struct delim *d,
			const struct maps_proc *p)
{
	struct line l;

	l.len = 0;
	word(&l, d, "process");
	task_cells(o, &l, d, p->task);
	empty(&l, d, 10);
	word(&l, d, p->why ? "false" : "true");
	word(&l, d, p->why ? p->reason : "");
	text(&l, d, p->why ? p->why : "");
	size_t from = l.len;
	kv(&l, from, "mm", p->task->mm, true);
	if (p->vmas)
		kv(&l, from, "vmas", p->vmas->n, false);
	detail_end(o, &l, d, from);
}

static const char *const naming_keys[] = {
	[PGW_VMA_NONE] = "none", [PGW_VMA_PATH] = "path",
	[PGW_VMA_NAMED] = "named", [PGW_VMA_UNKNOWN] = "unknown",
};

void delim_maps_page(struct out *o, const struct delim *d,
		     const struct maps_proc *p, const struct pgw_vma_page *pg)
{
	struct line l;

	l.len = 0;
	word(&l, d, "page");
	task_cells(o, &l, d, p->task);
	hex(&l, d, pg->va);
	hex(&l, d, pg->end);
	num(&l, d, pg->end - pg->va);
	empty(&l, d, 9);
	size_t from = l.len;
	emit_str(&l, "state=");
	emit_str(&l, pgw_page_state_key(pg->state));
	if (pg->state == PGW_PAGE_PRESENT || pg->state == PGW_PAGE_PROTNONE) {
		kv(&l, from, "pa", pg->pa, true);
		kv(&l, from, "page_size", pg->page_size, false);
	}
	if (pg->state == PGW_PAGE_PRESENT) {
		emit_str(&l, pg->in_image ? " in_image=true" :
					    " in_image=false");
		emit_str(&l, pg->special ? " special=true" : " special=false");
	}
	if (pg->state == PGW_PAGE_SWAP) {
		kv(&l, from, "swap_type", pg->entry->swap_type, false);
		kv(&l, from, "swap_offset", pg->entry->swap_offset, true);
	}
	detail_end(o, &l, d, from);
}

void delim_maps_vma(struct out *o, const struct delim *d,
		    const struct maps_proc *p, const struct pgw_vma *v,
		    const struct pgw_vma_usage *u)
{
	char perms[5], dev[32];
	struct line l;

	l.len = 0;
	word(&l, d, "vma");
	task_cells(o, &l, d, p->task);
	hex(&l, d, v->start);
	hex(&l, d, v->end);
	num(&l, d, v->end - v->start);
	pgw_vma_perms(v->flags, perms);
	word(&l, d, perms);
	num(&l, d, v->pgoff);
	snprintf(dev, sizeof(dev), "%02x:%02x", v->dev >> 20,
		 v->dev & 0xfffff);
	word(&l, d, dev);
	num(&l, d, v->ino);
	word(&l, d, naming_keys[v->naming]);
	if (v->naming == PGW_VMA_PATH || v->naming == PGW_VMA_NAMED)
		long_cell(o, &l, d, p->vmas->names + v->name_at, v->name_len);
	else
		empty(&l, d, 1);
	size_t from = l.len;
	for (unsigned bit = 0; bit < 64; bit++) {
		const char *w = pgw_vma_flag_name(bit);
		if (!(v->flags >> bit & 1) || !w)
			continue;
		if (l.len > from)
			emit_char(&l, '|');
		emit_str(&l, w);
	}
	if (l.len == from)
		emit_str(&l, d->empty);
	sep(&l, d);
	empty(&l, d, 2);
	text(&l, d, v->naming == PGW_VMA_UNKNOWN ? v->why : "");
	from = l.len;
	kv(&l, from, "vm_flags", v->flags, true);
	kv(&l, from, "vma", v->vma, true);
	if (v->file)
		kv(&l, from, "file", v->file, true);
	if (u) {
		if (u->kernel_page_size)
			kv(&l, from, "kernel_page_size", u->kernel_page_size,
			   false);
		kv(&l, from, "rss", u->rss, false);
		kv(&l, from, "present", u->present, false);
		kv(&l, from, "protnone", u->protnone, false);
		kv(&l, from, "swap", u->swap, false);
		kv(&l, from, "other_non_present", u->other_np, false);
		kv(&l, from, "empty", u->empty, false);
		kv(&l, from, "anon_huge", u->thp, false);
		kv(&l, from, "hugetlb", u->hugetlb, false);
		kv(&l, from, "bytes_not_in_image", u->not_in_image, false);
		kv(&l, from, "table_not_in_image", u->unknown, false);
		emit_str(&l, u->complete ? " measured=true" :
					   " measured=false");
	}
	detail_end(o, &l, d, from);
}

void delim_maps_end(struct out *o, const struct delim *d,
		    const struct maps_summary *s)
{
	struct line l;

	l.len = 0;
	word(&l, d, "summary");
	empty(&l, d, 12);
	word(&l, d, s->complete ? "true" : "false");
	word(&l, d, s->complete ? "" : s->reason);
	text(&l, d, s->complete ? "" : s->why);
	size_t from = l.len;
	kv(&l, from, "processes", s->processes, false);
	kv(&l, from, "vmas", s->vmas, false);
	kv(&l, from, "processes_incomplete", s->incomplete, false);
	detail_end(o, &l, d, from);
}
