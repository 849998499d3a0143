#ifndef PGW_COMMANDS_H
#define PGW_COMMANDS_H

/* Each subcommand parses its own argv (argv[0] is the command name) and
 * returns an exit status from exit_codes.h. */
int cmd_info(int argc, char **argv);
int cmd_translate(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_regions(int argc, char **argv);
int cmd_roots(int argc, char **argv);
int cmd_ps(int argc, char **argv);
int cmd_read(int argc, char **argv);
int cmd_ptov(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_maps(int argc, char **argv);
int cmd_search(int argc, char **argv);

#endif
