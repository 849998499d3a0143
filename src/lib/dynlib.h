/*
 * Libraries loaded when first needed: the codecs a compressed page needs
 * and libbpf (BTF) cost a millisecond of dynamic loading at every start
 * (snappy brings in libstdc++), and most runs never use them.  A library
 * is a soname and a table of symbols; pgw_dynlib_load resolves them all
 * once, or says why not, and every later call answers the same.
 */
#ifndef PGW_DYNLIB_H
#define PGW_DYNLIB_H

#include "pgwalk.h"

struct pgw_dynsym {
	const char *name;
	void **slot;            /* where the address goes */
};

struct pgw_dynlib {
	const char *what;       /* "snappy": the feature, for messages */
	const char *soname;     /* "libsnappy.so.1" */
	const char *package;    /* what to install when it is missing */
	const struct pgw_dynsym *syms;
	size_t nsyms;
	/* Filled by pgw_dynlib_load (under its lock). */
	int state;              /* 0 not tried, 1 loaded, -1 failed */
	char why[200];          /* -1: what dlopen or dlsym said */
};

/* Every symbol of lib resolved (PGW_OK), or PGW_E_UNSUPPORTED with
 * "<what> is needed and cannot be loaded: <why>" in err (the build has
 * it; this system lacks the library).  Thread-safe. */
enum pgw_status pgw_dynlib_load(struct pgw_dynlib *lib, struct pgw_err *err);

#endif
