/*
 * Which paging mode an image uses, decided by the strongest evidence it
 * has: CPU registers, then VMCOREINFO, then the ELF machine, and for a
 * root given by the caller a validation walk that keeps the mode under
 * which the kernel's direct map is a consistent linear mapping.  The
 * hardware rules are the modes' own hints (struct pgw_mode_hints); the
 * Linux rules are the VMCOREINFO table below.
 */
#include "../lib/err.h"
#include "linux.h"
#include "arm64.h"
#include "../arch/x86.h"
#include "../lib/names.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* The first mode whose hints a CPU's state matches. */
static const struct pgw_mode *mode_for_cpu(uint64_t cr4, bool long_mode)
{
	const struct pgw_mode *const *m = pgw_modes();

	for (size_t i = 0; m[i]; i++) {
		const struct pgw_mode_hints *h = &m[i]->hints;
		if (h->long_mode == long_mode &&
		    (cr4 & h->cr4_set) == h->cr4_set && !(cr4 & h->cr4_clear))
			return m[i];
	}
	return NULL;
}

/* Does a mode of this ELF machine run in long mode? */
static bool machine_is_long(unsigned machine)
{
	const struct pgw_mode *const *m = pgw_modes();

	for (size_t i = 0; m[i]; i++)
		if (m[i]->hints.elf_machine == machine && m[i]->hints.long_mode)
			return true;
	return false;
}

/* Long mode of a CPU: EFER.LMA where known; QEMU's note has no EFER, so
 * a 64-bit code segment on any CPU, or the ELF machine QEMU picks from
 * LMA, says it. */
static bool cpu_long_mode(struct pgw_image *img, const struct pgw_cpu *c,
			  const char **how)
{
	const struct pgw_cpu *cpus;
	size_t n = pgw_image_cpus(img, &cpus);
	bool any_l = false, lm;

	for (size_t k = 0; k < n; k++)
		any_l |= cpus[k].has_cs && (cpus[k].cs_flags & X86_DESC_L);
	if (c->has_efer) {
		lm = c->efer & X86_EFER_LMA;
		*how = lm ? "long mode (EFER.LMA=1)" :
			    "not long mode (EFER.LMA=0)";
	} else if (any_l) {
		lm = true;
		*how = "long mode (a 64-bit code segment, CS.L=1)";
	} else {
		lm = machine_is_long(pgw_image_machine(img));
		*how = lm ? "long mode (ELF machine x86-64)" :
			    "not long mode (no 64-bit code segment, ELF "
			    "machine not x86-64)";
	}
	return lm;
}

/* The mode CPU c's registers select (NULL: paging off, no registers, no
 * mode matches), with the reason in why. */
static const struct pgw_mode *cpu_mode(struct pgw_image *img, size_t i,
				       char *why, size_t size)
{
	const struct pgw_cpu *cpus;
	size_t n = pgw_image_cpus(img, &cpus);
	const struct pgw_cpu *c = i < n ? &cpus[i] : NULL;
	const struct pgw_mode *m;
	const char *how;

	if (!c || !c->has_cr || !(c->cr0 & X86_CR0_PG))
		return NULL;
	m = mode_for_cpu(c->cr4, cpu_long_mode(img, c, &how));
	if (m)
		snprintf(why, size, "CPU %zu registers: CR0.PG=1 CR4.PAE=%d "
			 "CR4.PSE=%d CR4.LA57=%d, %s", i,
			 !!(c->cr4 & X86_CR4_PAE), !!(c->cr4 & X86_CR4_PSE),
			 !!(c->cr4 & X86_CR4_LA57), how);
	return m;
}

/* What VMCOREINFO says about the mode, strongest first. */
enum vmci_test {
	V_NONZERO,           /* a number, not 0 */
	V_ZERO,              /* the number 0 */
	V_YES,               /* the string "y" */
	V_ROOT_64,           /* the kernel root symbol is in the 64-bit kernel
				text mapping */
	V_ROOT_32,           /* ... is not */
};

static const struct vmci_rule {
	const char *key;     /* NULL: the kernel root symbol */
	enum vmci_test test;
	const struct pgw_mode *mode;
	const char *why;     /* NULL: "VMCOREINFO KEY=VALUE" */
} vmci_rules[] = {
	{ "NUMBER(pgtable_l5_enabled)", V_NONZERO, &pgw_mode_la57, NULL },
	{ "NUMBER(pgtable_l5_enabled)", V_ZERO, &pgw_mode_x86_64, NULL },
	{ "CONFIG_X86_PAE", V_YES, &pgw_mode_pae, NULL },
	{ NULL, V_ROOT_64, &pgw_mode_x86_64,
	  "VMCOREINFO kernel symbols are 64-bit (no pgtable_l5_enabled: "
	  "4-level)" },
	{ NULL, V_ROOT_32, &pgw_mode_i386,
	  "VMCOREINFO kernel symbols are 32-bit and CONFIG_X86_PAE is "
	  "absent" },
};

static bool vmci_holds(struct pgw_image *img, const struct vmci_rule *r)
{
	const char *s = r->key ? pgw_vmcoreinfo_get(img, r->key) : NULL;
	const char *sym;
	uint64_t v;

	switch (r->test) {
	case V_NONZERO:
	case V_ZERO:
		return pgw_vmcoreinfo_u64(img, r->key, &v) &&
		       (v != 0) == (r->test == V_NONZERO);
	case V_YES:
		return s && strcmp(s, "y") == 0;
	case V_ROOT_64:
	case V_ROOT_32:
		return linux_kernel_root_symbol(img, &sym, &v) &&
		       (v >= LINUX_START_KERNEL_MAP) == (r->test == V_ROOT_64);
	}
	return false;
}

/* Rule 2: the first VMCOREINFO rule that holds (explicit_only: only the
 * rules that name the mode, not the width of a symbol). */
static bool from_vmcoreinfo(struct pgw_image *img, struct pgw_mode_choice *ch,
			    bool explicit_only)
{
	for (size_t i = 0; i < PGW_NELEMS(vmci_rules); i++) {
		const struct vmci_rule *r = &vmci_rules[i];
		if (explicit_only && !r->key)
			continue;
		if (!vmci_holds(img, r))
			continue;
		ch->mode = r->mode;
		ch->rule = PGW_MODE_VMCOREINFO;
		if (r->why)
			snprintf(ch->why, sizeof(ch->why), "%s", r->why);
		else
			snprintf(ch->why, sizeof(ch->why), "VMCOREINFO %s=%s",
				 r->key, pgw_vmcoreinfo_get(img, r->key));
		return true;
	}
	return false;
}

/* Rule 2 on arm64: its VMCOREINFO, checked by walking (arm64.c). */
static bool from_arm64(struct pgw_image *img, struct pgw_mode_choice *ch)
{
	struct pgw_vmci_source s = pgw_vmci_image(img);
	uint64_t table;

	if (!linux_arm64_facts(&s) ||
	    !linux_arm64_kernel(img, &s, &ch->mode, &table, ch->why,
				sizeof(ch->why)))
		return false;
	ch->rule = PGW_MODE_VMCOREINFO;
	return true;
}

#define MAX_MODES 16

/* The modes of this ELF machine, shallowest first, NULL-terminated; all
 * modes when none has it (raw images, whose machine is 0).  Whether any
 * has it. */
static bool machine_modes(unsigned machine,
			  const struct pgw_mode *out[MAX_MODES + 1])
{
	const struct pgw_mode *const *m = pgw_modes();
	size_t n = 0;

	for (size_t i = 0; m[i] && n < MAX_MODES; i++)
		if (m[i]->hints.elf_machine == machine)
			out[n++] = m[i];
	bool own = n > 0;
	for (size_t i = 0; !own && m[i] && n < MAX_MODES; i++)
		out[n++] = m[i];
	out[n] = NULL;
	return own;
}

/*
 * Rule 3 with a root: the mode under which the root maps a linear direct
 * map.  Shallowest first, and a later mode must match strictly more: a
 * deeper mode reading a shallower mode's tables sees every leaf one level
 * up, as a bigger page that still looks linear at the small sample
 * offsets (la57 reading a 2 MiB x86-64 direct map, x86-64 reading a PAE
 * one), so ties must go to the shallower mode.  A mode that matches every
 * sample therefore ends the search: no deeper one can beat it, and a
 * deeper mode's walk over tables that are not its own may spend its
 * whole entry budget finding nothing (la57 over x86-64 tables: 16 385
 * entries, 97 % of the instructions of a one-address translate on a raw
 * image).
 */
static bool from_validation(struct pgw_image *img, uint64_t root,
			    const struct pgw_enc_choice *enc,
			    const struct pgw_mode *const *modes,
			    struct pgw_mode_choice *ch)
{
	unsigned best = 0, all = pgw_direct_map_samples(img);

	for (size_t i = 0; modes[i] && best < all; i++) {
		const struct pgw_mode *m = modes[i];
		struct pgw_enc_choice bits = { 0 };
		if (enc)
			bits = *enc;
		/* An undeclared C-bit is the tables' own, in each mode. */
		if (bits.source == PGW_ENC_NONE)
			(void)pgw_enc_infer(img, m, root, &bits);
		struct pgw_space sp = {
			.img = img, .mode = m,
			.root = pgw_cr3_table(m, root, &bits.bits),
			.enc = bits.bits,
		};
		uint64_t base;
		unsigned matches;
		if (pgw_find_direct_map(&sp, &base, &matches) &&
		    matches > best) {
			best = matches;
			ch->mode = m;
			ch->rule = PGW_MODE_VALIDATION;
			snprintf(ch->why, sizeof(ch->why),
				 "validation walk: %s maps a linear "
				 "direct map (0x%llx -> physical 0, %u/%u "
				 "samples)", m->name, (unsigned long long)base,
				 matches, all);
		}
	}
	return best > 0;
}

/* s after the n bytes of buf (size), upper-cased when upper; the new n. */
static size_t append(char *buf, size_t size, size_t n, const char *s,
		     bool upper)
{
	for (; *s && n + 1 < size; s++)
		buf[n++] = upper ? (char)toupper((unsigned char)*s) : *s;
	buf[n] = '\0';
	return n;
}

/* Rule 3 without (or failing) validation: the machine's shallowest mode,
 * naming the deeper ones nothing could confirm ("PAE"). */
static void assume(unsigned machine, const struct pgw_mode *const *modes,
		   struct pgw_mode_choice *ch)
{
	char others[48] = "";
	size_t n = 0;

	for (size_t i = 1; modes[i]; i++) {
		if (i > 1)
			n = append(others, sizeof(others), n, " or ", false);
		n = append(others, sizeof(others), n, modes[i]->name, true);
	}
	ch->mode = modes[0];
	ch->rule = PGW_MODE_MACHINE;
	snprintf(ch->why, sizeof(ch->why),
		 "ELF machine %s (%u-level assumed: no CPU state, VMCOREINFO "
		 "or root to validate %s)", pgw_machine_name(machine),
		 pgw_mode_depth(modes[0]), others);
}

/*
 * Rule 1: the CPUs' registers, each CPU with paging on one vote, and
 * VMCOREINFO's explicit word one more.  Linux runs every CPU in one mode,
 * so a disagreement is damage or forgery: it is said (ch->conflict), and
 * the majority wins; a tie goes to the mode under which the first voting
 * CPU's root maps a consistent direct map, else to VMCOREINFO.
 */
struct vote {
	const struct pgw_mode *mode;
	unsigned n;
	char who[96];           /* "CPU 0, CPU 1, VMCOREINFO" */
};

static void tally(struct vote *v, size_t *nv, const struct pgw_mode *m,
		  const char *who)
{
	size_t i;

	for (i = 0; i < *nv && v[i].mode != m; i++)
		;
	if (i == *nv) {
		if (*nv == MAX_MODES)
			return;
		v[i] = (struct vote){ .mode = m };
		(*nv)++;
	}
	size_t len = strlen(v[i].who);
	if (v[i].n < 4)
		snprintf(v[i].who + len, sizeof(v[i].who) - len, "%s%s",
			 v[i].n ? ", " : "", who);
	else if (v[i].n == 4)
		snprintf(v[i].who + len, sizeof(v[i].who) - len, ", ...");
	v[i].n++;
}

/* The tied modes' winner by a validation walk from root, or NULL. */
static const struct pgw_mode *break_tie(struct pgw_image *img, uint64_t root,
					const struct pgw_enc_choice *enc,
					const struct vote *v, size_t nv,
					unsigned top)
{
	const struct pgw_mode *tied[MAX_MODES + 1];
	struct pgw_mode_choice vc = { 0 };
	size_t n = 0;

	/* Shallowest first, as from_validation expects. */
	for (const struct pgw_mode *const *m = pgw_modes(); *m; m++)
		for (size_t i = 0; i < nv; i++)
			if (v[i].mode == *m && v[i].n == top)
				tied[n++] = *m;
	tied[n] = NULL;
	return from_validation(img, root, enc, tied, &vc) ? vc.mode : NULL;
}

static bool from_cpus(struct pgw_image *img, const struct pgw_enc_choice *enc,
		      struct pgw_mode_choice *ch)
{
	const struct pgw_cpu *cpus;
	size_t ncpus = pgw_image_cpus(img, &cpus);
	struct vote v[MAX_MODES];
	struct pgw_mode_choice vmci = { 0 };
	size_t nv = 0, first = SIZE_MAX;
	char why[sizeof(ch->why)], who[32];

	for (size_t i = 0; i < ncpus; i++) {
		const struct pgw_mode *m = cpu_mode(img, i, why, sizeof(why));
		if (!m)
			continue;
		if (first == SIZE_MAX) {
			first = i;
			ch->mode = m;
			memcpy(ch->why, why, sizeof(ch->why));
		}
		snprintf(who, sizeof(who), "CPU %zu", i);
		tally(v, &nv, m, who);
	}
	if (first == SIZE_MAX)
		return false;
	ch->rule = PGW_MODE_CPU;
	if (from_vmcoreinfo(img, &vmci, true))
		tally(v, &nv, vmci.mode, "VMCOREINFO");
	if (nv == 1)
		return true;   /* every source agrees */

	size_t len = 0, best = 0;
	unsigned top = 0, total = 0, ntop = 0;
	for (size_t i = 0; i < nv; i++) {
		len += (size_t)snprintf(ch->conflict + len,
					len < sizeof(ch->conflict) ?
					sizeof(ch->conflict) - len : 0,
					"%s%s %s %s", i ? "; " : "",
					v[i].who, v[i].n == 1 ? "says" : "say",
					v[i].mode->name);
		if (len >= sizeof(ch->conflict))
			len = sizeof(ch->conflict) - 1;
		total += v[i].n;
		if (v[i].n > top) {
			top = v[i].n;
			best = i;
		}
	}
	for (size_t i = 0; i < nv; i++)
		ntop += v[i].n == top;
	const struct pgw_mode *m = v[best].mode;
	const char *rule = "the majority";
	if (ntop > 1) {
		m = break_tie(img, cpus[first].cr3, enc, v, nv, top);
		rule = "a validation walk from the first CPU's CR3, of the "
		       "tied modes";
		if (!m) {
			m = vmci.mode ? vmci.mode : ch->mode;
			rule = vmci.mode ? "VMCOREINFO, the tie unresolved" :
					   "the first CPU, the tie unresolved";
		}
	}
	for (size_t i = 0; i < nv; i++)
		if (v[i].mode == m)
			best = i;
	ch->mode = m;
	snprintf(ch->why, sizeof(ch->why),
		 "conflicting evidence, %s chosen by %s (%u of %u sources: "
		 "%s)", m->name, rule, v[best].n, total, v[best].who);
	return true;
}

enum pgw_status pgw_detect_mode(struct pgw_image *img, uint64_t root_hint,
				bool have_root_hint,
				const struct pgw_enc_choice *enc,
				struct pgw_mode_choice *ch,
				struct pgw_err *err)
{
	unsigned machine = pgw_image_machine(img);
	const struct pgw_mode *modes[MAX_MODES + 1];
	bool own = machine_modes(machine, modes);

	memset(ch, 0, sizeof(*ch));
	if (from_cpus(img, enc, ch) || from_arm64(img, ch) ||
	    from_vmcoreinfo(img, ch, false))
		return PGW_OK;
	if (have_root_hint &&
	    from_validation(img, root_hint, enc, modes, ch))
		return PGW_OK;
	if (own) {
		assume(machine, modes, ch);
		return PGW_OK;
	}
	return pgw_err_set(err, PGW_E_NOTFOUND,
			   "cannot tell the paging mode: the image has no CPU "
			   "state, VMCOREINFO or ELF machine%s; give --mode",
			   have_root_hint ? ", and no mode maps a consistent "
					    "direct map from that root" :
					    " (with --cr3 a validation walk "
					    "can decide)");
}
