/* pgwalk info: what the image holds and how pgwalk would walk it. */
#include <stdlib.h>

#include "commands.h"
#include "exit_codes.h"
#include "lists.h"
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

/* VMCOREINFO keys worth showing. */
static const char *const highlights[] = {
	"OSRELEASE", "KERNELOFFSET", "NUMBER(phys_base)",
	"NUMBER(pgtable_l5_enabled)", "SYMBOL(init_top_pgt)",
	"SYMBOL(swapper_pg_dir)", "CONFIG_X86_PAE", "NUMBER(MAX_PHYSMEM_BITS)",
	"NUMBER(sme_mask)", NULL,
};

int cmd_info(int argc, char **argv)
{
	struct image_args a = { 0 };
	struct session s = { 0 };
	struct pgw_pti *pti = NULL;
	const struct pgw_cpu *cpus;
	int rc;

	argp_parse(&info_argp, argc, argv, 0, NULL, &a);
	const struct formatter *fmt = formatter_by_name(a.opts.output_format);
	if (!fmt || !fmt->info) {
		char names[64];
		pgw_cli_error("info: output format is %s",
			      list_join(names, sizeof(names),
					list_info_format, " or "));
		return PGW_EXIT_USAGE;
	}
	s.opts = a.opts;
	rc = session_open_image(&s, a.image);
	if (rc)
		return rc;
	int choose_rc = session_choose(&s);
	const struct pgw_mode *mode = s.why.mode.mode;
	size_t ncpus = pgw_image_cpus(s.img, &cpus);
	/* Each CPU's CR3 read as a PTI pair, once the mode is known. */
	if (mode && ncpus && !(pti = calloc(ncpus, sizeof(*pti)))) {
		pgw_cli_error("out of memory");
		session_close(&s);
		return PGW_EXIT_INTERNAL;
	}
	for (size_t i = 0; pti && i < ncpus; i++)
		pgw_pti_check(s.img, mode, &s.why.enc.bits,
			      pgw_cr3_table(mode, cpus[i].cr3, &s.why.enc.bits),
			      &pti[i]);
	struct out out = { stdout, fmt, mode, NULL };
	struct info_view view = {
		.img = s.img, .why = &s.why, .have_root = choose_rc == 0,
		.root = s.space.root, .pti = pti, .vmcoreinfo = highlights,
	};
	fmt->info(&out, &view);
	rc = pgw_cli_flush(choose_rc);
	free(pti);
	session_close(&s);
	return rc;
}
