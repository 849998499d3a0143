/* pgwalk info: what the image holds and how pgwalk would walk it. */
#include <string.h>

#include "commands.h"
#include "exit_codes.h"
#include "output.h"
#include "session.h"

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	return session_parse_image(state->input, "info", key, arg, state);
}

static const char doc[] =
	"Describe IMAGE: format, physical ranges, CPUs and their control "
	"registers, VMCOREINFO highlights, the paging mode pgwalk would use "
	"and why, and the root it would walk from.\v"
	"--format=json prints one JSON object.  Exit status: 0, or 3 when no "
	"mode or root can be chosen (everything else is still printed), 64 "
	"usage, 65 bad image, 66 cannot open.";

static const struct argp info_argp = {
	NULL, parse_opt, "IMAGE", doc, session_children, NULL, NULL
};

#define INFO_TEXT_RANGES 8

static const char *const highlights[] = {
	"OSRELEASE", "KERNELOFFSET", "NUMBER(phys_base)",
	"NUMBER(pgtable_l5_enabled)", "SYMBOL(init_top_pgt)",
	"SYMBOL(swapper_pg_dir)", "CONFIG_X86_PAE", "NUMBER(MAX_PHYSMEM_BITS)",
	"NUMBER(sme_mask)",
};
#define NHIGHLIGHTS (sizeof(highlights) / sizeof(highlights[0]))

static const char *machine_name(unsigned m)
{
	return m == 62 ? "x86-64" : m == 3 ? "i386" : m ? "other" : "none";
}

/* "kernel"/"user" from the code segment's privilege level, if known. */
static const char *cpu_ring(const struct pgw_cpu *c)
{
	if (!c->has_cs)
		return "unknown";
	return (c->cs_selector & 3) == 3 ? "user" : "kernel";
}

static void text_info(const struct session *s, int choose_rc,
		      const struct pgw_mode *pti_mode)
{
	const struct pgw_phys_range *r;
	const struct pgw_cpu *cpus;
	const char *const *fk, *const *fv;
	struct pgw_image *img = s->img;
	size_t nr = pgw_image_ranges(img, &r);
	size_t nc = pgw_image_cpus(img, &cpus);
	size_t nf = pgw_image_facts(img, &fk, &fv);
	uint64_t total = 0;

	printf("image:       %s\n", pgw_image_path(img));
	printf("format:      %s", pgw_image_format(img));
	if (pgw_image_class(img))
		printf(", ELF%u, machine %s", pgw_image_class(img),
		       machine_name(pgw_image_machine(img)));
	printf("\n");
	for (size_t i = 0; i < nf; i++)
		printf("  %s: %s\n", fk[i], fv[i]);
	for (size_t i = 0; i < nr; i++)
		total += r[i].size;
	printf("physical:    %zu range%s, %llu bytes (%.1f MiB), highest "
	       "0x%llx\n", nr, nr == 1 ? "" : "s", (unsigned long long)total,
	       (double)total / (1 << 20),
	       nr ? (unsigned long long)(r[nr - 1].start + r[nr - 1].size - 1)
		  : 0ULL);
	/* A filtered or sparse dump can have thousands: text shows the
	 * first few, JSON all of them. */
	for (size_t i = 0; i < nr && i < INFO_TEXT_RANGES; i++)
		printf("  0x%llx-0x%llx\n", (unsigned long long)r[i].start,
		       (unsigned long long)(r[i].start + r[i].size - 1));
	if (nr > INFO_TEXT_RANGES)
		printf("  ... %zu more (--format=json lists all)\n",
		       nr - INFO_TEXT_RANGES);
	printf("cpus:        %zu with registers (QEMU notes), %zu "
	       "NT_PRSTATUS\n", nc, pgw_image_prstatus_count(img));
	for (size_t i = 0; i < nc; i++) {
		const struct pgw_cpu *c = &cpus[i];
		printf("  cpu%zu: CR0=0x%llx CR3=0x%llx CR4=0x%llx", i,
		       (unsigned long long)c->cr0, (unsigned long long)c->cr3,
		       (unsigned long long)c->cr4);
		if (c->has_efer)
			printf(" EFER=0x%llx", (unsigned long long)c->efer);
		else
			printf(" EFER=unknown");
		printf(" %s mode", cpu_ring(c));
		if (pti_mode) {
			struct pgw_pti pti;
			pgw_pti_check(img, pti_mode,
				      pgw_cr3_table(pti_mode, c->cr3), &pti);
			if (pti.is_user_root)
				printf(", PTI user root (kernel root 0x%llx)",
				       (unsigned long long)pti.kernel_table);
		}
		printf("\n");
	}
	printf("vmcoreinfo:  %zu entries\n", pgw_vmcoreinfo_count(img));
	for (size_t i = 0; i < NHIGHLIGHTS; i++) {
		const char *v = pgw_vmcoreinfo_get(img, highlights[i]);
		if (v)
			printf("  %s=%s\n", highlights[i], v);
	}
	/* The mode may be known when the root is not (the error says why
	 * on stderr). */
	if (s->why.mode.mode)
		printf("mode:        %s (%s)\n", s->why.mode.mode->name,
		       s->why.mode.why);
	else
		printf("mode:        unknown\n");
	if (choose_rc == 0)
		printf("root:        0x%llx (%s)\n",
		       (unsigned long long)s->space.root, s->why.root.why);
	else
		printf("root:        none\n");
}

static void json_str(const char *key, const char *v, bool comma)
{
	printf("\"%s\":\"", key);
	for (const char *p = v; *p; p++) {
		if (*p == '"' || *p == '\\')
			printf("\\%c", *p);
		else if ((unsigned char)*p < 0x20)
			printf("\\u%04x", *p);
		else
			putchar(*p);
	}
	printf("\"%s", comma ? "," : "");
}

static void json_info(const struct session *s, int choose_rc,
		      const struct pgw_mode *pti_mode)
{
	const struct pgw_phys_range *r;
	const struct pgw_cpu *cpus;
	const char *const *fk, *const *fv;
	struct pgw_image *img = s->img;
	size_t nr = pgw_image_ranges(img, &r);
	size_t nc = pgw_image_cpus(img, &cpus);
	size_t nf = pgw_image_facts(img, &fk, &fv);

	printf("{");
	json_str("image", pgw_image_path(img), true);
	json_str("format", pgw_image_format(img), true);
	printf("\"elf_class\":%u,", pgw_image_class(img));
	json_str("machine", machine_name(pgw_image_machine(img)), true);
	printf("\"facts\":{");
	for (size_t i = 0; i < nf; i++)
		json_str(fk[i], fv[i], i + 1 < nf);
	printf("},\"ranges\":[");
	for (size_t i = 0; i < nr; i++)
		printf("%s{\"start\":\"0x%llx\",\"size\":%llu}", i ? "," : "",
		       (unsigned long long)r[i].start,
		       (unsigned long long)r[i].size);
	printf("],\"prstatus\":%zu,\"cpus\":[", pgw_image_prstatus_count(img));
	for (size_t i = 0; i < nc; i++) {
		const struct pgw_cpu *c = &cpus[i];
		printf("%s{\"cpu\":%zu,\"cr0\":\"0x%llx\",\"cr3\":\"0x%llx\","
		       "\"cr4\":\"0x%llx\",", i ? "," : "", i,
		       (unsigned long long)c->cr0, (unsigned long long)c->cr3,
		       (unsigned long long)c->cr4);
		if (c->has_efer)
			printf("\"efer\":\"0x%llx\",",
			       (unsigned long long)c->efer);
		else
			printf("\"efer\":null,");
		json_str("ring", cpu_ring(c), false);
		if (pti_mode) {
			struct pgw_pti pti;
			pgw_pti_check(img, pti_mode,
				      pgw_cr3_table(pti_mode, c->cr3), &pti);
			printf(",\"pti_user_root\":%s",
			       pti.is_user_root ? "true" : "false");
			if (pti.is_user_root)
				printf(",\"pti_kernel_root\":\"0x%llx\"",
				       (unsigned long long)pti.kernel_table);
		}
		printf("}");
	}
	printf("],\"vmcoreinfo\":{");
	bool first = true;
	for (size_t i = 0; i < NHIGHLIGHTS; i++) {
		const char *v = pgw_vmcoreinfo_get(img, highlights[i]);
		if (!v)
			continue;
		if (!first)
			printf(",");
		json_str(highlights[i], v, false);
		first = false;
	}
	printf("}");
	if (s->why.mode.mode) {
		printf(",");
		json_str("mode", s->why.mode.mode->name, true);
		json_str("mode_reason", s->why.mode.why, false);
	} else {
		printf(",\"mode\":null");
	}
	if (choose_rc == 0) {
		printf(",\"root\":\"0x%llx\",",
		       (unsigned long long)s->space.root);
		json_str("root_reason", s->why.root.why, false);
	} else {
		printf(",\"root\":null");
	}
	printf("}\n");
}

int cmd_info(int argc, char **argv)
{
	struct image_args a = { 0 };
	struct session s = { 0 };
	int rc;

	argp_parse(&info_argp, argc, argv, 0, NULL, &a);
	bool json = strcmp(a.opts.output_format, "json") == 0;
	if (!json && strcmp(a.opts.output_format, "text") != 0) {
		pgw_cli_error("info: output format is text or json");
		return PGW_EXIT_USAGE;
	}
	s.opts = a.opts;
	rc = session_open_image(&s, a.image);
	if (rc)
		return rc;
	int choose_rc = session_choose(&s);
	const struct pgw_mode *m = s.why.mode.mode;
	if (json)
		json_info(&s, choose_rc, m);
	else
		text_info(&s, choose_rc, m);
	rc = pgw_cli_flush(choose_rc);
	session_close(&s);
	return rc;
}
