/*
 * translate's hint for a user-space address asked of the kernel's own
 * root: which processes and CPUs map it (hint.c).
 */
#ifndef PGW_HINT_H
#define PGW_HINT_H

#include "session.h"

struct hint {
	const struct session *s;
	bool on;                     /* the root is the kernel's own */
	bool loaded;
	struct pgw_task *tasks;      /* the task list, or NULL */
	size_t ntasks;
	struct pgw_roots *roots;     /* without one: the roots scanned */
	unsigned tried, said;
};

void hint_init(struct hint *h, const struct session *s);
/* va did not translate: say on stderr who maps it (a few times at most). */
void hint_user_address(struct hint *h, uint64_t va);
void hint_free(struct hint *h);

#endif
