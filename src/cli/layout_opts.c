#include "layout_opts.h"
#include "exit_codes.h"

#include <stdlib.h>
#include <string.h>

enum {
	OPT_LAYOUT = 512, OPT_PAGE_OFFSET, OPT_VMALLOC, OPT_VMEMMAP,
};

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Memory map:", 4 },
	{ "layout", OPT_LAYOUT, "NAME", 0,
	  "Kernel memory-map layout (default: by OSRELEASE in VMCOREINFO); "
	  "--layout=list names them", 4 },
	{ "page-offset-base", OPT_PAGE_OFFSET, "ADDR", 0,
	  "Direct-map base (x86-64 page_offset_base, i386 PAGE_OFFSET) "
	  "instead of inferring it", 4 },
	{ "vmalloc-base", OPT_VMALLOC, "ADDR", 0,
	  "vmalloc area base instead of inferring it", 4 },
	{ "vmemmap-base", OPT_VMEMMAP, "ADDR", 0,
	  "vmemmap base (x86-64) instead of inferring it", 4 },
	{ 0 }
};

static void list_layouts(void)
{
	const char *const *names = pgw_layout_names();

	for (size_t i = 0; names[i]; i++)
		printf("%-14s %s\n", names[i], pgw_layout_describe(names[i]));
	exit(PGW_EXIT_OK);
}

static uint64_t addr_arg(struct argp_state *state, const char *opt,
			 const char *arg)
{
	uint64_t v;

	if (!pgw_parse_u64(arg, &v) || v == 0)
		pgw_bad_addr_option(state, opt, arg);
	return v;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct layout_args *a = state->input;
	struct pgw_layout_request *r = &a->req;

	switch (key) {
	case OPT_LAYOUT:
		if (strcmp(arg, "list") == 0)
			list_layouts();
		if (!pgw_layout_describe(arg))
			pgw_usage_error(state, "--layout: no layout '%s' "
				   "(--layout=list names them)", arg);
		r->name = arg;
		break;
	case OPT_PAGE_OFFSET:
		a->page_offset_arg = arg;
		break;
	case OPT_VMALLOC:
		a->vmalloc_arg = arg;
		break;
	case OPT_VMEMMAP:
		a->vmemmap_arg = arg;
		break;
	case ARGP_KEY_END:
		if (a->page_offset_arg)
			r->page_offset_base = addr_arg(state,
						       "page-offset-base",
						       a->page_offset_arg);
		if (a->vmalloc_arg)
			r->vmalloc_base = addr_arg(state, "vmalloc-base",
						   a->vmalloc_arg);
		if (a->vmemmap_arg)
			r->vmemmap_base = addr_arg(state, "vmemmap-base",
						   a->vmemmap_arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp layout_argp = { options, parse_opt, NULL, NULL, NULL,
				  NULL, NULL };

const struct argp_child layout_children[] = {
	{ &session_argp, 0, NULL, 0 },
	{ &layout_argp, 0, NULL, 0 },
	{ 0 }
};

int cli_layout(struct session *s, const struct pgw_layout_request *req,
	       struct pgw_layout *layout)
{
	struct pgw_err err = { 0 };
	enum pgw_status st = pgw_layout_resolve(&s->space, req, layout, &err);

	if (st != PGW_OK) {
		pgw_cli_error("%s: %s", s->path, err.msg);
		return pgw_exit_for(st);
	}
	return 0;
}

uint64_t cli_user_end(const struct pgw_layout *lay,
		      const struct pgw_mode *mode)
{
	for (size_t i = 0; i < lay->nregions; i++)
		if (strcmp(lay->region[i].key, "user") == 0 &&
		    lay->region[i].end)
			return lay->region[i].end;
	return UINT64_C(1) << (mode->va_bits - 1);
}
