#include "err.h"
#include "dynlib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void try_load(struct pgw_dynlib *lib)
{
	/* RTLD_LOCAL: its symbols are reached through the table only.
	 * Never closed: the addresses stay in use until exit. */
	void *h = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		const char *e = dlerror();
		snprintf(lib->why, sizeof(lib->why), "%s", e ? e : "dlopen");
		lib->state = -1;
		return;
	}
	for (size_t i = 0; i < lib->nsyms; i++) {
		void *p = dlsym(h, lib->syms[i].name);
		if (!p) {
			snprintf(lib->why, sizeof(lib->why), "%s has no %s",
				 lib->soname, lib->syms[i].name);
			lib->state = -1;
			return;
		}
		*lib->syms[i].slot = p;
	}
	lib->state = 1;
}

enum pgw_status pgw_dynlib_load(struct pgw_dynlib *lib, struct pgw_err *err)
{
	int state;

	pthread_mutex_lock(&lock);
	if (lib->state == 0)
		try_load(lib);
	state = lib->state;
	pthread_mutex_unlock(&lock);
	if (state > 0)
		return PGW_OK;
	return pgw_err_set(err, PGW_E_UNSUPPORTED,
			   "%s is needed and cannot be loaded: %s (install %s)",
			   lib->what, lib->why, lib->package);
}
