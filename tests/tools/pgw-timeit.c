/*
 * pgw-timeit: run a command N times and print the median and spread of
 * its wall time (clock_gettime, CLOCK_MONOTONIC, fork to wait), its
 * median CPU time (user + system, from wait4's rusage) and its peak
 * resident set (the highest ru_maxrss), for `make bench`: GNU time's 10 ms
 * steps cannot see a 1 ms start-up, and the best of a few runs hides how
 * much a shared machine moves them.
 *
 * Usage: pgw-timeit [-n RUNS] [-i IN] [-o OUT] [-a] CMD [ARG...]
 *   -n RUNS  runs (default 11); one more first, not counted, warms the
 *            page cache
 *   -i IN    each run's stdin (default /dev/null)
 *   -o OUT   each run's stdout (default /dev/null); stderr is /dev/null
 *   -a       also poll /proc/PID/status every 0.2 ms for the highest
 *            RssAnon (the process's own memory, without the file pages
 *            it maps) over all runs
 * Prints one line of key=value words:
 *   runs=N wall_ms=MEDIAN min_ms=MIN max_ms=MAX cpu_ms=MEDIAN
 *   maxrss_kib=K [anon_kib=K] status=EXIT (the last run's)
 * Exit status: 0, or 1 when a run could not be started or was killed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* RssAnon of pid in KiB, or -1. */
static long rss_anon(pid_t pid)
{
	char path[64], buf[4096];
	long kib = -1;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	char *p = strstr(buf, "RssAnon:");
	if (p)
		kib = strtol(p + 8, NULL, 10);
	return kib;
}

struct run {
	double wall_ms, cpu_ms;
	long maxrss_kib, anon_kib;
	int status;
};

static int run_once(char **cmd, const char *in, const char *out, int poll,
		    struct run *r)
{
	struct rusage ru;
	int st;

	double t0 = now_ms();
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fi = open(in, O_RDONLY);
		int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int fe = open("/dev/null", O_WRONLY);
		if (fi < 0 || fo < 0 || fe < 0)
			_exit(126);
		dup2(fi, 0);
		dup2(fo, 1);
		dup2(fe, 2);
		execvp(cmd[0], cmd);
		_exit(127);
	}
	r->anon_kib = 0;
	for (;;) {
		pid_t w = wait4(pid, &st, poll ? WNOHANG : 0, &ru);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			return -1;
		if (poll) {
			long a = rss_anon(pid);
			if (a > r->anon_kib)
				r->anon_kib = a;
			struct timespec ts = { 0, 200000 };
			nanosleep(&ts, NULL);
		}
	}
	r->wall_ms = now_ms() - t0;
	r->cpu_ms = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
		    (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
	r->maxrss_kib = ru.ru_maxrss;
	if (!WIFEXITED(st) || WEXITSTATUS(st) >= 126)
		return -1;
	r->status = WEXITSTATUS(st);
	return 0;
}

int main(int argc, char **argv)
{
	const char *in = "/dev/null", *out = "/dev/null";
	int runs = 11, poll = 0, c;

	while ((c = getopt(argc, argv, "+n:i:o:a")) != -1) {
		switch (c) {
		case 'n': runs = atoi(optarg); break;
		case 'i': in = optarg; break;
		case 'o': out = optarg; break;
		case 'a': poll = 1; break;
		default: return 64;
		}
	}
	if (optind >= argc || runs < 1 || runs > 1000) {
		fputs("usage: pgw-timeit [-n RUNS] [-i IN] [-o OUT] [-a] "
		      "CMD [ARG...]\n", stderr);
		return 64;
	}
	double *wall = calloc((size_t)runs, sizeof(double));
	double *cpu = calloc((size_t)runs, sizeof(double));
	long maxrss = 0, anon = 0;
	struct run r = { 0 };
	if (!wall || !cpu)
		return 70;
	for (int i = -1; i < runs; i++) {
		if (run_once(argv + optind, in, out, poll, &r)) {
			fprintf(stderr, "pgw-timeit: %s did not run to its "
				"end\n", argv[optind]);
			return 1;
		}
		if (i < 0)
			continue;
		wall[i] = r.wall_ms;
		cpu[i] = r.cpu_ms;
		if (r.maxrss_kib > maxrss)
			maxrss = r.maxrss_kib;
		if (r.anon_kib > anon)
			anon = r.anon_kib;
	}
	double med = median(wall, runs);
	printf("runs=%d wall_ms=%.3f min_ms=%.3f max_ms=%.3f cpu_ms=%.3f "
	       "maxrss_kib=%ld", runs, med, wall[0], wall[runs - 1],
	       median(cpu, runs), maxrss);
	if (poll)
		printf(" anon_kib=%ld", anon);
	printf(" status=%d\n", r.status);
	return 0;
}
