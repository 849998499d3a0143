/* pgwalk: dispatch to a subcommand.  Only src/cli/ prints or exits. */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "config.h"   /* PGW_CODECS: from make */
#include "exit_codes.h"
#include "session.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{ "info", cmd_info, "describe an image: format, ranges, CPUs, mode, root" },
	{ "translate", cmd_translate,
	  "virtual to physical, one record per address" },
	{ "dump", cmd_dump, "every mapping and hole of an address space" },
	{ "regions", cmd_regions, "the kernel memory map: regions and bases" },
	{ "roots", cmd_roots, "every page-table root in memory, named by "
			      "the task list" },
	{ "ps", cmd_ps, "every task of the kernel's task list: pid, parent, "
			"state, CPU, root" },
	{ "read", cmd_read, "the bytes at an address: hex, raw or records" },
	{ "ptov", cmd_ptov, "physical to virtual: every address that maps a "
			    "frame, in one root or all" },
	{ "check", cmd_check, "what is wrong in an address space (or in "
			      "all), with the entries that show it" },
	{ "diff", cmd_diff, "what changed between two address spaces" },
	{ "maps", cmd_maps, "each process's VMAs as /proc/PID/maps shows "
			    "them, from the kernel's structures" },
	{ "search", cmd_search, "where strings and bytes lie in memory, each "
				"hit named by process and address" },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	fprintf(f, "Usage: pgwalk COMMAND [OPTION...] IMAGE [ARG...]\n"
		   "Walk x86 and AArch64 page tables inside memory dumps.\n\nCommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name,
			commands[i].summary);
	fprintf(f, "\n'pgwalk help COMMAND' (or 'pgwalk COMMAND --help') lists "
		   "a command's options.\n"
		   "Exit status: 0 ok, 1 some items had no answer, 2 partial "
		   "evidence (the image\nlacked pages the answer needed), 3 no "
		   "root or mode, 4 a walk limit was\nreached, 64 usage, 65 "
		   "bad image, 66 cannot open, 69 unsupported, 70 internal\n"
		   "error, 74 cannot write output.\n");
}

/* The one-line synopsis (--usage). */
static void short_usage(FILE *f)
{
	fprintf(f, "Usage: pgwalk {");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "%s%s", i ? "|" : "", commands[i].name);
	fprintf(f, "} [OPTION...] IMAGE [ARG...]\n");
}

static int run(size_t i, int argc, char **argv)
{
	/* argp names the program after argv[0]: "pgwalk translate". */
	static char name[64];
	snprintf(name, sizeof(name), "pgwalk %s", commands[i].name);
	argv[0] = name;
	return commands[i].run(argc, argv);
}

static int command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(name, commands[i].name) == 0)
			return (int)i;
	return -1;
}

/* pgwalk help [COMMAND]: the command's --help. */
static int help(int argc, char **argv)
{
	int c;

	if (argc < 3) {
		usage(stdout);
		return pgw_cli_flush(PGW_EXIT_OK);
	}
	if ((c = command(argv[2])) < 0) {
		fprintf(stderr, "pgwalk: help: unknown command '%s' (see "
			"'pgwalk --help')\n", argv[2]);
		return PGW_EXIT_USAGE;
	}
	char *args[] = { argv[2], (char *)"--help", NULL };
	return run((size_t)c, 2, args);
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
	int c;

	sigemptyset(&sa.sa_mask);
	(void)sigaction(SIGBUS, &sa, NULL);
	/* Before anything is opened: a closed stdin or stdout must not lend
	 * its number to the image. */
	pgw_std_fds_check();
	if (argc < 2) {
		usage(stderr);
		return PGW_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "-?") == 0) {
		usage(stdout);
		return pgw_cli_flush(PGW_EXIT_OK);
	}
	if (strcmp(argv[1], "help") == 0)
		return help(argc, argv);
	if (strcmp(argv[1], "--usage") == 0) {
		short_usage(stdout);
		return pgw_cli_flush(PGW_EXIT_OK);
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("pgwalk %s (codecs: %s)\n", pgw_version(), PGW_CODECS);
		return pgw_cli_flush(PGW_EXIT_OK);
	}
	if ((c = command(argv[1])) >= 0)
		return run((size_t)c, argc - 1, argv + 1);
	fprintf(stderr, "pgwalk: unknown command '%s' (see 'pgwalk --help')\n",
		argv[1]);
	return PGW_EXIT_USAGE;
}
