/*
 * maps as text: per process a `#` line (pid, comm, mm, how many VMAs,
 * and why when they were cut short), then each VMA exactly as the
 * kernel's /proc/PID/maps prints it (show_map_vma: the name after column
 * 73 on 64-bit kernels, 48 on 32-bit), bytes from the image
 * escaped; a name the image does not give is `<unknown: why>`.  With
 * --smaps the VMA's measure follows it in smaps' own lines ("Rss:
 * 4 kB"), with --pages a line per leaf or run, indented.  A last `#`
 * line sums up.
 */
#include "emit.h"
#include "maps_out.h"

static void comm(struct out *o, struct line *l, const struct pgw_task *t)
{
	emit_bytes(l, o->f, (const char *)t->comm, t->comm_len,
		   emit_text_char);
}

void text_maps_process(struct out *o, const struct maps_proc *p)
{
	struct line l;

	l.len = 0;
	emit_str(&l, "# pid ");
	emit_u64(&l, (uint64_t)(uint32_t)p->task->pid);
	emit_char(&l, ' ');
	comm(o, &l, p->task);
	emit_str(&l, " mm ");
	emit_hex(&l, p->task->mm);
	if (p->vmas) {
		emit_str(&l, ": ");
		emit_u64(&l, p->vmas->n);
		emit_str(&l, p->vmas->n == 1 ? " VMA" : " VMAs");
	}
	if (p->why) {
		emit_str(&l, p->vmas ? ", cut short: " : ": no VMAs: ");
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

static void usage_lines(struct line *l, const struct pgw_vma *v,
			const struct pgw_vma_usage *u)
{
	kb_line(l, "Size:", v->end - v->start);
	if (u->kernel_page_size)
		kb_line(l, "KernelPageSize:", u->kernel_page_size);
	else
		emit_str(l, "KernelPageSize:        ? (a hugetlb VMA with no "
			    "page)\n");
	kb_line(l, "Rss:", u->rss);
	kb_line(l, "Present:", u->present);
	kb_line(l, "ProtNone:", u->protnone);
	kb_line(l, "Swap:", u->swap);
	if (u->other_np)
		kb_line(l, "OtherNonPresent:", u->other_np);
	kb_line(l, "Empty:", u->empty);
	kb_line(l, "AnonHugePages:", u->thp);
	kb_line(l, "Hugetlb:", u->hugetlb);
	kb_line(l, "NotInImage:", u->not_in_image);
	if (u->unknown)
		kb_line(l, "TableNotInImage:", u->unknown);
	if (!u->complete)
		emit_str(l, "# the walk's budget cut this VMA's measure short\n");
	emit_str(l, "VmFlags:");
	for (unsigned bit = 0; bit < 64; bit++) {
		const char *w = pgw_vma_flag_name(bit);
		if ((v->flags >> bit & 1) && w) {
			emit_char(l, ' ');
			emit_str(l, w);
		}
	}
	emit_char(l, '\n');
}

void text_maps_page(struct out *o, const struct maps_proc *p,
		    const struct pgw_vma_page *pg)
{
	struct line l;

	(void)p;
	l.len = 0;
	emit_str(&l, "    0x");
	emit_hex_w(&l, pg->va, 16);
	emit_str(&l, "-0x");
	emit_hex_w(&l, pg->end, 16);
	emit_char(&l, ' ');
	emit_str(&l, pgw_page_state_key(pg->state));
	if (pg->state == PGW_PAGE_PRESENT || pg->state == PGW_PAGE_PROTNONE) {
		emit_str(&l, " pa ");
		emit_hex(&l, pg->pa);
		emit_char(&l, ' ');
		emit_u64(&l, pg->page_size >> 10);
		emit_char(&l, 'K');
	}
	if (pg->state == PGW_PAGE_PRESENT && !pg->in_image)
		emit_str(&l, " not-in-image");
	if (pg->special)
		emit_str(&l, " special");
	if (pg->state == PGW_PAGE_SWAP) {
		emit_str(&l, " type ");
		emit_u64(&l, pg->entry->swap_type);
		emit_str(&l, " offset ");
		emit_hex(&l, pg->entry->swap_offset);
	}
	emit_char(&l, '\n');
	emit_spill(&l, o->f);
}

void text_maps_vma(struct out *o, const struct maps_proc *p,
		   const struct pgw_vma *v, const struct pgw_vma_usage *u)
{
	const struct pgw_vmas *s = p->vmas;
	char perms[5];
	struct line l;

	l.len = 0;
	hex_w(&l, v->start, 8);
	emit_char(&l, '-');
	hex_w(&l, v->end, 8);
	emit_char(&l, ' ');
	pgw_vma_perms(v->flags, perms);
	emit_str(&l, perms);
	emit_char(&l, ' ');
	hex_w(&l, v->pgoff, 8);
	emit_char(&l, ' ');
	hex_w(&l, v->dev >> 20, 2);
	emit_char(&l, ':');
	hex_w(&l, v->dev & 0xfffff, 2);
	emit_char(&l, ' ');
	emit_u64(&l, v->ino);
	emit_char(&l, ' ');
	if (v->naming != PGW_VMA_NONE) {
		size_t col = o->mode && o->mode->va_bits <= 32 ? 47 : 72;
		while (l.len < col)
			emit_char(&l, ' ');
		emit_char(&l, ' ');
	}
	if (v->naming == PGW_VMA_UNKNOWN) {
		emit_str(&l, "<unknown: ");
		emit_bytes(&l, o->f, v->why, strlen(v->why), emit_text_char);
		emit_char(&l, '>');
	} else {
		emit_bytes(&l, o->f, s->names + v->name_at, v->name_len,
			   emit_text_char);
	}
	emit_char(&l, '\n');
	if (u)
		usage_lines(&l, v, u);
	emit_spill(&l, o->f);
}

void text_maps_end(struct out *o, const struct maps_summary *s)
{
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
