/* pgwalk info: what the image holds and how pgwalk would walk it. */
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "exit_codes.h"
#include "lists.h"
#include "info_out.h"
#include "output.h"
#include "session.h"

/* The task list through the kernel's own root (the root info shows may
 * be a CPU's): how the processes are named, or why they are not. */
static void info_names(const struct session *s, struct info_view *v)
{
	struct pgw_root_request kr = { .kernel = true, .enc = s->why.enc.bits };
	struct pgw_root kroot;
	struct pgw_task *tasks = NULL;
	struct pgw_tasks_how how;
	struct pgw_err err = { 0 };
	enum pgw_status st;

	v->names_tried = true;
	st = pgw_root_resolve(s->img, s->why.mode.mode, &kr, &kroot, &err);
	if (st == PGW_OK) {
		struct pgw_space k = { s->img, s->why.mode.mode, kroot.table,
				       s->why.enc.bits };
		if (k.mode->root_select_bit) {  /* the kernel's is the upper */
			k.root = 0;
			k.root_upper = kroot.table;
		}
		st = pgw_linux_tasks_how(&k, &tasks, &v->ntasks, &how, &err);
	}
	for (size_t i = 0; i < v->ntasks; i++)
		v->nprocesses += tasks[i].mm != 0;
	v->names_complete = st == PGW_OK;
	if (v->ntasks) {
		v->names_method = pgw_tasks_method_key(how.method);
		snprintf(v->names_why, sizeof(v->names_why), "%.480s%s%.500s",
			 how.why,
			 st == PGW_OK ? "" : "; cut short: ",
			 st == PGW_OK ? "" : err.msg);
	} else {
		snprintf(v->names_why, sizeof(v->names_why), "%.1000s", err.msg);
	}
	pgw_linux_tasks_free(tasks);
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct image_args *a = state->input;
	char names[64];

	if (key == ARGP_KEY_SUCCESS &&
	    formatter_by_name(a->opts.output_format)->kind == OUT_DELIM)
		pgw_usage_error(state, "--format: info prints %s",
				list_join(names, sizeof(names),
					  list_info_format, " or "));
	return session_parse_image(a, "info", key, arg, state);
}

static const char doc[] =
	"Describe IMAGE: format, whether it holds all the memory it describes "
	"(pages by reason, bytes the file lacks), physical ranges, CPUs and "
	"their control registers, VMCOREINFO parsed, the paging mode pgwalk "
	"would use and why, and the root it would walk from.\v"
	"--format=json prints one JSON object.  Exit status: 0, 2 the image "
	"lacks pages it describes (filtered, truncated, incomplete: "
	"\"complete\":false), 3 no mode or root can be chosen (everything "
	"else is still printed), 64 usage, 65 bad image, 66 cannot open, 74 "
	"cannot write.";

static const struct argp info_argp = {
	NULL, parse_opt, "IMAGE", doc, session_children, NULL, NULL
};

int cmd_info(int argc, char **argv)
{
	struct image_args a = { 0 };
	struct session s = { 0 };
	struct pgw_pti *pti = NULL;
	const struct pgw_cpu *cpus;
	int rc;

	pgw_argp_parse(&info_argp, argc, argv, &a);
	const struct formatter *fmt = formatter_by_name(a.opts.output_format);
	s.opts = a.opts;
	s.conflict_in_record = true;
	rc = session_open_image(&s, a.image);
	if (rc)
		return rc;
	int choose_rc = session_choose(&s);
	if (choose_rc == 0)
		session_say(&s);
	const struct pgw_mode *mode = s.why.mode.mode;
	size_t ncpus = pgw_image_cpus(s.img, &cpus);
	/* Each CPU's CR3 read as a PTI pair, once the mode is known. */
	if (mode && ncpus && !(pti = calloc(ncpus, sizeof(*pti)))) {
		pgw_cli_error("out of memory");
		session_close(&s);
		return PGW_EXIT_INTERNAL;
	}
	for (size_t i = 0; pti && i < ncpus; i++)
		if (cpus[i].has_cr)
			pgw_pti_check(s.img, mode, &s.why.enc.bits,
				      pgw_cr3_table(mode, cpus[i].cr3,
						    &s.why.enc.bits),
				      &pti[i]);
	struct out out = { stdout, fmt, mode, NULL, false };
	struct info_view view = {
		.img = s.img, .why = &s.why, .have_root = choose_rc == 0,
		.root = s.why.root.table, .pti = pti,
	};
	pgw_image_evidence(s.img, &view.ev);
	if (mode)
		info_names(&s, &view);
	info_print(&out, &view);
	rc = choose_rc ? choose_rc :
		view.ev.complete ? PGW_EXIT_OK : PGW_EXIT_EVIDENCE;
	rc = pgw_cli_flush(rc);
	free(pti);
	session_close(&s);
	return rc;
}
