/* pgwalk: dispatch to a subcommand.  Only src/cli/ prints or exits. */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "config.h"   /* PGW_VERSION, PGW_CODECS: from VERSION and make */
#include "exit_codes.h"
#include "session.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{ "info", cmd_info, "describe an image: format, ranges, CPUs, mode, root" },
	{ "translate", cmd_translate, "virtual to physical, every level shown" },
	{ "dump", cmd_dump, "every mapping and hole of an address space" },
	{ "regions", cmd_regions, "the kernel memory map: regions and bases" },
	{ "roots", cmd_roots, "every page-table root in memory, named by "
			      "the task list" },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	fprintf(f, "Usage: pgwalk COMMAND [OPTION...] IMAGE [ARG...]\n"
		   "Walk x86 page tables inside memory dumps.\n\nCommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name,
			commands[i].summary);
	fprintf(f, "\n'pgwalk COMMAND --help' lists a command's options.\n"
		   "Exit status: 0 ok, 1 some addresses did not translate, "
		   "2 the image lacked\npages the answer needed, 3 no root or "
		   "mode, 4 a walk limit was reached,\n64 usage, 65 bad image, "
		   "66 cannot open, 69 unsupported, 70 internal error,\n74 "
		   "cannot write output.\n");
}

const char *volatile pgw_mapped_image;

/*
 * The image is mapped: if another process truncates the file while pgwalk
 * reads it, touching a page past the new end raises SIGBUS.  Say so in
 * one line, naming the image, and exit as for a bad image (only
 * async-signal-safe calls here).
 */
static void on_sigbus(int sig)
{
	static const char head[] = "pgwalk: ";
	static const char tail[] = ": the file shrank while it was read "
				   "(truncated by another process?)\n";
	const char *path = pgw_mapped_image ? pgw_mapped_image : "image";
	size_t n = 0;

	(void)sig;
	while (path[n])
		n++;
	/* If stderr refuses, the exit status still says it. */
	bool said = write(2, head, sizeof(head) - 1) > 0 &&
		    write(2, path, n) > 0 &&
		    write(2, tail, sizeof(tail) - 1) > 0;
	(void)said;
	_exit(PGW_EXIT_BADIMAGE);
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_sigbus };

	sigemptyset(&sa.sa_mask);
	(void)sigaction(SIGBUS, &sa, NULL);
	if (argc < 2) {
		usage(stderr);
		return PGW_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return PGW_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("pgwalk %s (codecs: %s)\n", PGW_VERSION, PGW_CODECS);
		return PGW_EXIT_OK;
	}
	for (size_t i = 0; i < NCOMMANDS; i++) {
		if (strcmp(argv[1], commands[i].name) != 0)
			continue;
		/* argp names the program after argv[0]: "pgwalk translate". */
		char name[64];
		snprintf(name, sizeof(name), "pgwalk %s", commands[i].name);
		argv[1] = name;
		return commands[i].run(argc - 1, argv + 1);
	}
	fprintf(stderr, "pgwalk: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return PGW_EXIT_USAGE;
}
