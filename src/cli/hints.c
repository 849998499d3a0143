#include "hints.h"
#include "emit.h"
#include "exit_codes.h"
#include "output.h"

#include <stdlib.h>
#include <string.h>

/* x86-64 CR3 bits 52..60 are reserved (61 and 62 are LAM, 63 NOFLUSH):
 * a value with any of them set is no CR3, and a kernel virtual address
 * (0xffff8...) always has them. */
#define CR3_NEVER_SET (UINT64_C(0x1ff) << 52)

/* The kernel's own space (VMCOREINFO's root, else CPU 0's), mode and
 * encryption bits as the session chose or would choose them. */
static bool kernel_space(struct session *s, struct pgw_space *sp)
{
	struct pgw_space_request req = { .mode = s->opts.space.mode,
					 .enc = s->opts.space.enc };
	struct pgw_space_why why;
	struct pgw_err err = { 0 };

	if (s->why.mode.mode)
		req.mode = s->why.mode.mode->name;
	return pgw_space_open(s->img, &req, sp, &why, &err) == PGW_OK;
}

/* The physical address the kernel's tables give va; false if none. */
static bool kernel_pa(struct session *s, uint64_t va, uint64_t *pa,
		      char *why, size_t n)
{
	struct pgw_space sp;
	struct pgw_xlat x;

	if (!kernel_space(s, &sp)) {
		snprintf(why, n, "no kernel root to translate it with");
		return false;
	}
	if (pgw_translate(&sp, va, &x) != PGW_STOP_OK) {
		snprintf(why, n, "the kernel's page tables do not map it (%s)",
			 pgw_stop_key(x.stop));
		return false;
	}
	*pa = x.pa;
	return true;
}

bool hint_cr3_virtual(struct session *s)
{
	uint64_t cr3 = s->opts.space.root.cr3, pa;
	char why[160];

	if (!(cr3 & CR3_NEVER_SET))
		return false;
	if (kernel_pa(s, cr3, &pa, why, sizeof(why)))
		pgw_cli_error("--cr3=0x%llx looks like a virtual address (bits "
			      "52-60 are set; crash's vm prints pgd as one): "
			      "the kernel's direct map puts it at physical "
			      "0x%llx: give --cr3=0x%llx",
			      (unsigned long long)cr3, (unsigned long long)pa,
			      (unsigned long long)pa);
	else
		pgw_cli_error("--cr3=0x%llx looks like a virtual address (bits "
			      "52-60 are set; crash's vm prints pgd as one), "
			      "and %s: give the table's physical address",
			      (unsigned long long)cr3, why);
	return true;
}

bool hint_root_failed(struct session *s, const struct pgw_err *err)
{
	const struct pgw_root_request *r = &s->opts.space.root;
	const struct pgw_cpu *cpus;
	size_t ncpus = pgw_image_cpus(s->img, &cpus);
	size_t nprs = pgw_image_prstatus_count(s->img);
	uint64_t pa;
	char why[160];

	if (r->have_cpu && ncpus == 0 && nprs > 0) {
		pgw_cli_error("%s: --cpu=%u: this image's CPU notes are "
			      "NT_PRSTATUS only (%zu), which carry no CR3; "
			      "'pgwalk roots' lists the roots found in "
			      "memory, to give as --cr3", s->path, r->cpu,
			      nprs);
		return true;
	}
	if (r->have_cr3 && err->status == PGW_E_NOTFOUND && s->why.mode.mode &&
	    kernel_pa(s, r->cr3, &pa, why, sizeof(why)) && pa != r->cr3) {
		pgw_cli_error("%s: %s; 0x%llx is mapped as a kernel virtual "
			      "address, at physical 0x%llx: if it is a pgd "
			      "as crash prints it, give --cr3=0x%llx", s->path,
			      err->msg, (unsigned long long)r->cr3,
			      (unsigned long long)pa, (unsigned long long)pa);
		return true;
	}
	return false;
}

/* The region of va in layout, or NULL. */
static const struct pgw_region *region_of(const struct pgw_layout *lay,
					  uint64_t va)
{
	return lay->nregions ? &lay->region[pgw_layout_find(lay, va)] : NULL;
}

static const struct pgw_region *direct_map(const struct pgw_layout *lay)
{
	for (size_t i = 0; i < lay->nregions; i++)
		if (strcmp(lay->region[i].key, "direct_map") == 0)
			return &lay->region[i];
	return NULL;
}

/* The eras whose default direct map holds va: "x86-64-2.6.11 (Linux
 * ...)". */
static void older_eras(struct session *s, const char *current, uint64_t va,
		       char *buf, size_t n)
{
	const char *const *names = pgw_layout_names();
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; names[i] && len < n; i++) {
		uint64_t start, end;
		if (strcmp(names[i], current) == 0 ||
		    !pgw_layout_default_region(names[i], s->space.mode,
					       "direct_map", &start, &end) ||
		    va < start || (end && va >= end))
			continue;
		len += (size_t)snprintf(buf + len, n - len, "%s%s (%s)",
					len ? ", " : "", names[i],
					pgw_layout_describe(names[i]));
	}
}

static void hint_kernel_half(struct session *s, const struct pgw_xlat *x,
			     const struct pgw_layout *lay,
			     const struct pgw_region *r)
{
	const struct pgw_region *dm = direct_map(lay);
	char eras[400], base[400] = "";

	/* In this kernel's own direct map: its frame lies past the memory
	 * the kernel mapped there. */
	if (dm && r == dm) {
		pgw_cli_error("0x%llx is in this kernel's direct map (from "
			      "0x%llx): physical 0x%llx, which it does not "
			      "map", (unsigned long long)x->va,
			      (unsigned long long)dm->start,
			      (unsigned long long)(x->va - dm->start));
		return;
	}

	const char *rel = pgw_vmcoreinfo_get(s->img, "OSRELEASE");
	struct line k;
	k.len = 0;
	if (rel) {
		/* From the image: escaped before it reaches a terminal. */
		emit_str(&k, " (Linux ");
		emit_text_strn(&k, rel, 64);
		emit_char(&k, ')');
	}
	k.buf[k.len] = '\0';
	if (dm)
		snprintf(base, sizeof(base), "; this kernel's%.200s direct map "
			 "starts at 0x%llx", k.buf,
			 (unsigned long long)dm->start);
	older_eras(s, lay->name, x->va, eras, sizeof(eras));
	pgw_cli_error("0x%llx is in the %s region (%s) of layout %s%s%s%s",
		      (unsigned long long)x->va, r->key, r->name, lay->name,
		      base, eras[0] ? "; it was the direct map in " : "",
		      eras);
}

/* A user address asked of the kernel's root: the CPUs caught in user
 * mode hold a process's root. */
static void hint_user_half(struct session *s, const struct pgw_xlat *x)
{
	const struct pgw_cpu *cpus;
	size_t n = pgw_image_cpus(s->img, &cpus);
	char list[120] = "";
	size_t len = 0, found = 0;
	static bool said;

	/* The same for every user address: once. */
	if (s->why.root.source != PGW_ROOT_VMCOREINFO || said)
		return;
	said = true;
	for (size_t i = 0; i < n && len < sizeof(list); i++) {
		if (!cpus[i].has_cr || !cpus[i].has_cs ||
		    (cpus[i].cs_selector & 3) != 3)
			continue;
		len += (size_t)snprintf(list + len, sizeof(list) - len,
					"%s--cpu=%zu", found ? " or " : "", i);
		found++;
	}
	if (found)
		pgw_cli_error("0x%llx is a user address and the root is the "
			      "kernel's, which maps no process; a CPU caught "
			      "in user mode holds one: %s",
			      (unsigned long long)x->va, list);
	else
		pgw_cli_error("0x%llx is a user address and the root is the "
			      "kernel's, which maps no process: give a "
			      "process's root (--cr3, or --cpu for a CPU that "
			      "ran it)", (unsigned long long)x->va);
}

void hint_translate(struct session *s, const struct pgw_xlat *x)
{
	static struct pgw_layout *lay;
	static bool tried;
	const struct pgw_region *r;

	/* Only an empty entry leaves the user guessing; every other reason
	 * (a table the image lacks, reserved bits, non-canonical) says
	 * what happened in the record itself. */
	if (x->stop != PGW_STOP_NOT_PRESENT)
		return;
	/* The layout once: inferring its bases walks the kernel's tables. */
	if (!tried) {
		struct pgw_layout_request req = { 0 };
		struct pgw_err err = { 0 };
		tried = true;
		lay = malloc(sizeof(*lay));
		if (lay && pgw_layout_resolve(&s->space, &req, lay, &err) !=
				   PGW_OK) {
			free(lay);
			lay = NULL;
		}
	}
	if (!lay || !(r = region_of(lay, x->va)))
		return;
	if (strcmp(r->key, "user") == 0)
		hint_user_half(s, x);
	else
		hint_kernel_half(s, x, lay, r);
}
