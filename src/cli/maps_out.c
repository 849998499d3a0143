/*
 * maps' records (maps_out.h) and their text: per process a `#` line
 * (pid, comm, mm, how many VMAs, and why when they were cut short), then
 * each VMA exactly as the kernel's /proc/PID/maps prints it
 * (show_map_vma: the name after column 73 on 64-bit kernels, 48 on
 * 32-bit), bytes from the image escaped; a name the image does not give
 * is `<unknown: why>`.  With --smaps the VMA's measure follows it in
 * smaps' own lines ("Rss: 4 kB"), with --pages a line per leaf or run,
 * indented.  A last `#` line sums up.
 */
#include <stdio.h>

#include "maps_out.h"

static void text_process(struct out *o, const void *rec)
{
	const struct maps_process_rec *p = rec;
	struct line l;

	l.len = 0;
	emit_str(&l, "# pid ");
	emit_u64(&l, p->pid);
	emit_char(&l, ' ');
	emit_bytes(&l, o->f, p->comm.s, p->comm.n, emit_text_char);
	emit_str(&l, " mm ");
	emit_hex(&l, p->mm);
	if (p->vmas.has) {
		emit_str(&l, ": ");
		emit_u64(&l, p->vmas.v);
		emit_str(&l, p->vmas.v == 1 ? " VMA" : " VMAs");
	}
	if (p->why) {
		emit_str(&l, p->vmas.has ? ", cut short: " : ": no VMAs: ");
		emit_bytes(&l, o->f, p->why, strlen(p->why), emit_text_char);
	}
	emit_char(&l, '\n');
	emit_spill(&l, o->f);
}

/* seq_put_hex_ll: at least `width` lower-case hex digits. */
static void hex_w(struct line *l, uint64_t v, int width)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%0*llx", width, (unsigned long long)v);
	emit_str(l, buf);
}

/* "Rss:                4 kB", as smaps pads them. */
static void kb_line(struct line *l, const char *name, uint64_t bytes)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%-16s%8llu kB\n", name,
		 (unsigned long long)(bytes >> 10));
	emit_str(l, buf);
}

static void usage_lines(struct line *l, const struct vma_rec *v)
{
	const struct vma_usage_rec *u = v->usage;

	kb_line(l, "Size:", v->span.end - v->span.va);
	if (u->kernel_page_size.has)
		kb_line(l, "KernelPageSize:", u->kernel_page_size.v);
	else
		emit_str(l, "KernelPageSize:        ? (a hugetlb VMA with no "
			    "page)\n");
	kb_line(l, "Rss:", u->rss);
	kb_line(l, "Present:", u->present);
	kb_line(l, "ProtNone:", u->protnone);
	kb_line(l, "Swap:", u->swap);
	if (u->other_non_present)
		kb_line(l, "OtherNonPresent:", u->other_non_present);
	kb_line(l, "Empty:", u->empty);
	kb_line(l, "AnonHugePages:", u->anon_huge);
	kb_line(l, "Hugetlb:", u->hugetlb);
	kb_line(l, "NotInImage:", u->bytes_not_in_image);
	if (u->table_not_in_image)
		kb_line(l, "TableNotInImage:", u->table_not_in_image);
	if (!u->measured)
		emit_str(l, "# the walk's budget cut this VMA's measure short\n");
	emit_str(l, "VmFlags:");
	for (unsigned bit = 0; bit < v->vm_flag_names.n; bit++) {
		const char *w = rec_key(&v->vm_flag_names, bit);
		if (w) {
			emit_char(l, ' ');
			emit_str(l, w);
		}
	}
	emit_char(l, '\n');
}

static void text_page(struct out *o, const void *rec)
{
	const struct page_rec *pg = rec;
	struct line l;

	l.len = 0;
	emit_str(&l, "    0x");
	emit_hex_w(&l, pg->span.va, 16);
	emit_str(&l, "-0x");
	emit_hex_w(&l, pg->span.end, 16);
	emit_char(&l, ' ');
	emit_str(&l, pg->state);
	if (pg->pa.has) {
		emit_str(&l, " pa ");
		emit_hex(&l, pg->pa.v);
		emit_char(&l, ' ');
		emit_u64(&l, pg->page_size.v >> 10);
		emit_char(&l, 'K');
	}
	if (pg->in_image.has && !pg->in_image.v)
		emit_str(&l, " not-in-image");
	if (pg->special.has && pg->special.v)
		emit_str(&l, " special");
	if (pg->swap_type.has) {
		emit_str(&l, " type ");
		emit_u64(&l, pg->swap_type.v);
		emit_str(&l, " offset ");
		emit_hex(&l, pg->swap_offset.v);
	}
	emit_char(&l, '\n');
	emit_spill(&l, o->f);
}

static void text_vma(struct out *o, const void *rec)
{
	const struct vma_rec *v = rec;
	struct line l;

	l.len = 0;
	hex_w(&l, v->span.va, 8);
	emit_char(&l, '-');
	hex_w(&l, v->span.end, 8);
	emit_char(&l, ' ');
	emit_str(&l, v->perms);
	emit_char(&l, ' ');
	hex_w(&l, v->pgoff, 8);
	emit_char(&l, ' ');
	emit_str(&l, v->dev);
	emit_char(&l, ' ');
	emit_u64(&l, v->inode);
	emit_char(&l, ' ');
	if (strcmp(v->naming, "none") != 0) {
		size_t col = o->mode && o->mode->va_bits <= 32 ? 47 : 72;
		while (l.len < col)
			emit_char(&l, ' ');
		emit_char(&l, ' ');
	}
	if (v->why) {
		emit_str(&l, "<unknown: ");
		emit_bytes(&l, o->f, v->why, strlen(v->why), emit_text_char);
		emit_char(&l, '>');
	} else {
		emit_bytes(&l, o->f, v->name.s, v->name.n, emit_text_char);
	}
	emit_char(&l, '\n');
	if (v->usage)
		usage_lines(&l, v);
	emit_spill(&l, o->f);
}

static void text_summary(struct out *o, const void *rec)
{
	const struct maps_summary_rec *s = rec;
	struct line l;

	l.len = 0;
	emit_str(&l, "# ");
	emit_u64(&l, s->processes);
	emit_str(&l, s->processes == 1 ? " process, " : " processes, ");
	emit_u64(&l, s->vmas);
	emit_str(&l, s->vmas == 1 ? " VMA" : " VMAs");
	if (!s->complete) {
		emit_str(&l, "; incomplete (");
		emit_str(&l, s->reason);
		emit_str(&l, "): ");
		emit_bytes(&l, o->f, s->why, strlen(s->why), emit_text_char);
	}
	emit_char(&l, '\n');
	emit_spill(&l, o->f);
}

RECORD_TYPE(maps_process_rec, "process", MAPS_PROCESS_FIELDS, text_process);
RECORD_TYPE(vma_usage_rec, "usage", VMA_USAGE_FIELDS, NULL);
RECORD_TYPE(vma_rec, "vma", VMA_FIELDS, text_vma);
RECORD_TYPE(page_rec, "page", PAGE_FIELDS, text_page);
RECORD_TYPE(maps_summary_rec, "summary", MAPS_SUMMARY_FIELDS, text_summary);

static const struct rec_type *const maps_types[] = {
	&maps_process_rec_type, &vma_rec_type, &page_rec_type,
	&maps_summary_rec_type, NULL,
};

const struct rec_table maps_table = {
	"type,pid,comm,va,end,size,perms,pgoff,dev,inode,naming,path,"
	"vm_flags,complete,reason,why,detail",
	maps_types, NULL,
};

void maps_say_process(struct out *o, const struct maps_proc *p)
{
	const struct pgw_task *t = p->task;
	struct maps_process_rec r = {
		.pid = (uint32_t)t->pid,
		.comm = { (const char *)t->comm, t->comm_len },
		.mm = t->mm,
		.vmas = { p->vmas ? p->vmas->n : 0, p->vmas != NULL },
		.complete = !p->why,
		.reason = p->why ? p->reason : NULL,
		.why = p->why,
	};

	out_record(o, &maps_process_rec_type, &r);
}

static const char *const naming_keys[] = {
	[PGW_VMA_NONE] = "none", [PGW_VMA_PATH] = "path",
	[PGW_VMA_NAMED] = "named", [PGW_VMA_UNKNOWN] = "unknown",
};

void maps_say_vma(struct out *o, const struct maps_proc *p,
		  const struct pgw_vma *v, const struct pgw_vma_usage *u)
{
	const struct pgw_task *t = p->task;
	const char *name = p->vmas->names + v->name_at;
	bool named = v->naming == PGW_VMA_PATH || v->naming == PGW_VMA_NAMED;
	char perms[5], dev[32];
	struct vma_usage_rec ur;
	struct vma_rec r = {
		.pid = (uint32_t)t->pid,
		.comm = { (const char *)t->comm, t->comm_len },
		.span = { v->start, v->end },
		.perms = perms,
		.pgoff = v->pgoff,
		.dev = dev,
		.inode = v->ino,
		.naming = naming_keys[v->naming],
		.path = { named ? name : NULL, v->name_len },
		.why = v->naming == PGW_VMA_UNKNOWN ? v->why : NULL,
		.vm_flags = v->flags,
		.vm_flag_names = { v->flags, pgw_vma_flag_name, 64 },
		.vma = v->vma,
		.file = { v->file, v->file != 0 },
		.name = { name, v->name_len },
	};

	pgw_vma_perms(v->flags, perms);
	snprintf(dev, sizeof(dev), "%02x:%02x", v->dev >> 20,
		 v->dev & 0xfffff);
	if (u) {
		ur = (struct vma_usage_rec){
			.kernel_page_size = { u->kernel_page_size,
					      u->kernel_page_size != 0 },
			.rss = u->rss, .present = u->present,
			.protnone = u->protnone, .swap = u->swap,
			.other_non_present = u->other_np, .empty = u->empty,
			.anon_huge = u->thp, .hugetlb = u->hugetlb,
			.bytes_not_in_image = u->not_in_image,
			.table_not_in_image = u->unknown,
			.measured = u->complete,
		};
		r.usage = &ur;
	}
	out_record(o, &vma_rec_type, &r);
}

void maps_say_page(struct out *o, const struct maps_proc *p,
		   const struct pgw_vma_page *pg)
{
	const struct pgw_task *t = p->task;
	bool mapped = pg->state == PGW_PAGE_PRESENT ||
		      pg->state == PGW_PAGE_PROTNONE;
	bool present = pg->state == PGW_PAGE_PRESENT;
	bool swap = pg->state == PGW_PAGE_SWAP;
	struct page_rec r = {
		.pid = (uint32_t)t->pid,
		.comm = { (const char *)t->comm, t->comm_len },
		.span = { pg->va, pg->end },
		.state = pgw_page_state_key(pg->state),
		.pa = { pg->pa, mapped },
		.page_size = { pg->page_size, mapped },
		.in_image = { pg->in_image, present },
		.special = { pg->special, present },
		.swap_type = { swap ? pg->entry->swap_type : 0, swap },
		.swap_offset = { swap ? pg->entry->swap_offset : 0, swap },
	};

	out_record(o, &page_rec_type, &r);
}

void maps_say_summary(struct out *o, const struct maps_summary *s)
{
	struct maps_summary_rec r = {
		.processes = s->processes, .vmas = s->vmas,
		.processes_incomplete = s->incomplete,
		.complete = s->complete,
		.reason = s->complete ? NULL : s->reason,
		.why = s->complete ? NULL : s->why,
	};

	out_record(o, &maps_summary_rec_type, &r);
}
