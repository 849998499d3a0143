/*
 * Standard input as one address per line (translate -, ptov -): read in
 * blocks and split with memchr, because for millions of lines getline's
 * per-call cost shows.
 */
#ifndef PGW_LINES_H
#define PGW_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An input line is echoed back at most this long. */
#define ECHO_MAX 1024

/* Input is read LINES_BUF - 1 bytes at most at a time: a line that long
 * or longer is overlong.  A buffer of lines has LINES_AFTER bytes of
 * room after them (hex0x_body reads ahead; block_lines writes a NUL). */
enum { LINES_BUF = 1 << 16, LINES_AFTER = 16 };

struct line_reader {
	/* A line to answer: its n bytes without the newline and trailing
	 * CRs, NUL-terminated after them (it may hold a NUL); blank lines
	 * and lines starting '#' never come here. */
	void (*line)(void *arg, char *text, size_t n, unsigned long lineno);
	/* Usual lines, "0x" and 1 to 16 hex digits, parsed here
	 * (hexdigits.h): the values of n of them in a row, in order (NULL:
	 * such lines go to line too).  In a row, so that a batch pays for
	 * a call and its set-up per run of lines, not per line. */
	void (*addrs)(void *arg, const uint64_t *v, size_t n);
	/* A line longer than the buffer (no address): its first n bytes;
	 * the rest of it is skipped. */
	void (*overlong)(void *arg, const char *start, size_t n,
			 unsigned long lineno);
	void *arg;
};

/* Every line of standard input to r.  0, or PGW_EXIT_NOINPUT after
 * saying why on stderr (what was answered stands).  Stops early, with 0,
 * when stdout refused a write: nobody reads the answers. */
int stdin_lines(const struct line_reader *r);

/* Every line of p[0 .. n) to r, as stdin_lines does (the last may
 * lack its newline; the line numbers from 1; a line of LINES_BUF - 1
 * bytes or more overlong): the number of lines.  p has LINES_AFTER bytes
 * of room after n. */
unsigned long block_lines(const struct line_reader *r, char *p, size_t n);

/* Say on stderr that arg (escaped) is not an address. */
void addr_arg_error(const char *arg);
/* The address arguments (ADDR..., "-" for stdin) checked before any
 * work, so nothing half-prints: 0, or the exit status after saying why
 * (a bad address, a standard input that cannot be read).  *stdin_ret:
 * "-" is among them. */
int addr_args_check(char **args, int n, bool *stdin_ret);
/* A stdin line that is not an address, said on stderr (the first ten;
 * *count counts them all). */
void stdin_bad_line(unsigned long *count, const char *text, size_t n,
		    unsigned long lineno);
/* The same for a line that is not what is asked for (what: "ADDR LEN"). */
void stdin_bad_request(unsigned long *count, const char *text, size_t n,
		       unsigned long lineno, const char *what);
/* The message alone: the line's first n (<= 80) bytes; nul: the line
 * (its first ECHO_MAX bytes) holds a NUL. */
void stdin_bad_say(const char *text, size_t n, bool nul,
		   unsigned long lineno, const char *what);

#endif
