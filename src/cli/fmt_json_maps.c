/*
 * maps as JSON Lines: a "process" record (pid, comm, mm, how many VMAs,
 * complete or why not), then a "vma" record per VMA with every field
 * /proc/PID/maps prints and the rest the kernel keeps (the decoded
 * vm_flags, the vm_area_struct and file addresses; with --smaps its
 * measure against the page tables), --pages a "page" record per leaf or
 * run of one state inside it, then a "summary".
 * Field names are docs/output.md's.
 */
#include "json_kv.h"
#include "maps_out.h"

void json_maps_process(struct out *o, const struct maps_proc *p)
{
	struct line l;

	l.len = 0;
	emit_str(&l, "{\"type\":\"process\"");
	kv_task(o, &l, p->task);
	kv_hex(&l, "mm", p->task->mm);
	if (p->vmas)
		kv_u64(&l, "vmas", p->vmas->n);
	else
		kv_null(&l, "vmas");
	kv_bool(&l, "complete", !p->why);
	if (p->why) {
		kv_str(&l, "reason", p->reason);
		kv_str(&l, "why", p->why);
	}
	emit_str(&l, "}\n");
	emit_spill(&l, o->f);
}

static const char *const naming_keys[] = {
	[PGW_VMA_NONE] = "none", [PGW_VMA_PATH] = "path",
	[PGW_VMA_NAMED] = "named", [PGW_VMA_UNKNOWN] = "unknown",
};

/* --smaps: the VMA measured against the page tables. */
static void usage_fields(struct line *l, const struct pgw_vma_usage *u)
{
	if (u->kernel_page_size)
		kv_u64(l, "kernel_page_size", u->kernel_page_size);
	else
		kv_null(l, "kernel_page_size");
	kv_u64(l, "rss", u->rss);
	kv_u64(l, "present", u->present);
	kv_u64(l, "protnone", u->protnone);
	kv_u64(l, "swap", u->swap);
	kv_u64(l, "other_non_present", u->other_np);
	kv_u64(l, "empty", u->empty);
	kv_u64(l, "anon_huge", u->thp);
	kv_u64(l, "hugetlb", u->hugetlb);
	kv_u64(l, "bytes_not_in_image", u->not_in_image);
	kv_u64(l, "table_not_in_image", u->unknown);
	kv_bool(l, "measured", u->complete);
}

void json_maps_page(struct out *o, const struct maps_proc *p,
		    const struct pgw_vma_page *pg)
{
	struct line l;

	l.len = 0;
	emit_str(&l, "{\"type\":\"page\"");
	kv_task(o, &l, p->task);
	kv_hex(&l, "va", pg->va);
	kv_hex(&l, "end", pg->end);
	kv_u64(&l, "size", pg->end - pg->va);
	kv_str(&l, "state", pgw_page_state_key(pg->state));
	if (pg->state == PGW_PAGE_PRESENT || pg->state == PGW_PAGE_PROTNONE) {
		kv_hex(&l, "pa", pg->pa);
		kv_u64(&l, "page_size", pg->page_size);
	} else {
		kv_null(&l, "pa");
	}
	if (pg->state == PGW_PAGE_PRESENT) {
		kv_bool(&l, "in_image", pg->in_image);
		kv_bool(&l, "special", pg->special);
	}
	if (pg->state == PGW_PAGE_SWAP) {
		kv_u64(&l, "swap_type", pg->entry->swap_type);
		kv_hex(&l, "swap_offset", pg->entry->swap_offset);
	}
	emit_str(&l, "}\n");
	emit_spill(&l, o->f);
}

void json_maps_vma(struct out *o, const struct maps_proc *p,
		   const struct pgw_vma *v, const struct pgw_vma_usage *u)
{
	char perms[5], dev[32];
	struct line l;

	l.len = 0;
	emit_str(&l, "{\"type\":\"vma\"");
	kv_task(o, &l, p->task);
	kv_hex(&l, "va", v->start);
	kv_hex(&l, "end", v->end);
	kv_u64(&l, "size", v->end - v->start);
	pgw_vma_perms(v->flags, perms);
	kv_str(&l, "perms", perms);
	kv_u64(&l, "pgoff", v->pgoff);
	snprintf(dev, sizeof(dev), "%02x:%02x", v->dev >> 20,
		 v->dev & 0xfffff);
	kv_str(&l, "dev", dev);
	kv_u64(&l, "inode", v->ino);
	kv_str(&l, "naming", naming_keys[v->naming]);
	if (v->naming == PGW_VMA_PATH || v->naming == PGW_VMA_NAMED) {
		emit_str(&l, ",\"path\":\"");
		emit_bytes(&l, o->f, p->vmas->names + v->name_at, v->name_len,
			   emit_json_char);
		emit_char(&l, '"');
	} else {
		kv_null(&l, "path");
	}
	if (v->naming == PGW_VMA_UNKNOWN)
		kv_str(&l, "why", v->why);
	kv_hex(&l, "vm_flags", v->flags);
	emit_str(&l, ",\"vm_flag_names\":[");
	bool first = true;
	for (unsigned bit = 0; bit < 64; bit++) {
		const char *w = pgw_vma_flag_name(bit);
		if (!(v->flags >> bit & 1) || !w)
			continue;
		emit_str(&l, first ? "\"" : ",\"");
		emit_str(&l, w);
		emit_char(&l, '"');
		first = false;
	}
	emit_char(&l, ']');
	kv_hex(&l, "vma", v->vma);
	if (v->file)
		kv_hex(&l, "file", v->file);
	else
		kv_null(&l, "file");
	if (u)
		usage_fields(&l, u);
	emit_str(&l, "}\n");
	emit_spill(&l, o->f);
}

void json_maps_end(struct out *o, const struct maps_summary *s)
{
	struct line l;

	l.len = 0;
	emit_str(&l, "{\"type\":\"summary\"");
	kv_u64(&l, "processes", s->processes);
	kv_u64(&l, "vmas", s->vmas);
	kv_u64(&l, "processes_incomplete", s->incomplete);
	kv_bool(&l, "complete", s->complete);
	if (!s->complete) {
		kv_str(&l, "reason", s->reason);
		kv_str(&l, "why", s->why);
	}
	emit_str(&l, "}\n");
	emit_spill(&l, o->f);
}
