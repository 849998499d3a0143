/*
 * A process's other threads: the task list (tasks.c) links thread-group
 * leaders only.  Since 3.14 every thread is on its signal_struct's
 * thread_head list through its thread_node; before 6.7 the threads also
 * form a ring through thread_group.  Either list is followed from each
 * leader, whichever the layout has (thread_head first: it is the one
 * that stayed).
 *
 * Hostile images: every task seen (leaders too) is remembered, so a
 * thread list that loops, or reaches a task already listed, stops with
 * an error; so does one that reaches a task of another thread group, or
 * more tasks than PGW_TASKS_MAX in all.  What was read stays, and the
 * leaders not yet reached are still listed.
 */
#include "../lib/err.h"
#include "../lib/grow.h"
#include "linux.h"
#include "pgwalk.h"

#include <stdlib.h>
#include <string.h>

struct walk {
	const struct pgw_space *kernel;
	const struct pgw_task_layout *lay;
	struct pgw_task *all;
	size_t n;
	struct linux_seen seen;  /* every task listed, leaders included */
};

static enum pgw_status read_ptr(const struct walk *w, uint64_t va,
				uint64_t *v, struct pgw_err *err)
{
	uint8_t b[8] = { 0 };

	if (pgw_read_virt(w->kernel, va, b, w->lay->ptr_size, NULL, err) !=
	    PGW_OK)
		return err->status;
	*v = 0;
	for (unsigned i = w->lay->ptr_size; i-- > 0;)
		*v = *v << 8 | b[i];
	return PGW_OK;
}

static enum pgw_status append(struct walk *w, const struct pgw_task *t,
			      struct pgw_err *err)
{
	enum pgw_status st = pgw_grow(&w->all, w->n, sizeof(*w->all), err);

	if (st == PGW_OK)
		w->all[w->n++] = *t;
	return st;
}

/* The list head a leader's threads hang on, and the offset of the link
 * in each task_struct. */
static enum pgw_status thread_list(const struct walk *w,
				   const struct pgw_task *leader,
				   uint64_t *head, uint32_t *link,
				   struct pgw_err *err)
{
	const struct pgw_task_layout *l = w->lay;

	if (l->thread_group && !(l->signal && l->signal_thread_head &&
				 l->thread_node)) {
		*link = l->thread_group;
		*head = leader->task + l->thread_group;
		return PGW_OK;
	}
	uint64_t signal;
	enum pgw_status st = read_ptr(w, leader->task + l->signal, &signal,
				      err);
	if (st != PGW_OK)
		return pgw_err_prefix(err, "pid %d: its signal pointer",
				      leader->pid);
	if (signal == 0)
		return pgw_err_set(err, PGW_E_FORMAT, "pid %d (task 0x%llx): "
				   "signal is NULL, so no thread list",
				   leader->pid,
				   (unsigned long long)leader->task);
	*link = l->thread_node;
	*head = signal + l->signal_thread_head;
	return PGW_OK;
}

/* The leader's other threads, appended after it. */
static enum pgw_status threads_of(struct walk *w,
				  const struct pgw_task *leader,
				  struct pgw_err *err)
{
	uint64_t head = 0, node = 0;
	uint32_t link = 0;
	enum pgw_status st = thread_list(w, leader, &head, &link, err);

	bool leader_met = false;

	if (st != PGW_OK)
		return st;
	if ((st = read_ptr(w, head, &node, err)) != PGW_OK)
		return pgw_err_prefix(err, "pid %d: its thread list",
				      leader->pid);
	while (node != head) {
		uint64_t va = node - link;
		struct pgw_task t;
		if (node == 0)
			return pgw_err_set(err, PGW_E_FORMAT, "pid %d: its "
					   "thread list links to NULL",
					   leader->pid);
		/* The leader is listed already, and met once. */
		if (va == leader->task && leader_met)
			return pgw_err_set(err, PGW_E_FORMAT, "pid %d: its "
					   "thread list loops through it",
					   leader->pid);
		leader_met |= va == leader->task;
		if (va != leader->task) {
			bool nomem = false;
			if (!linux_seen_add(&w->seen, va, &nomem))
				return nomem ? pgw_err_set(err, PGW_E_NOMEM,
							   "thread list") :
					pgw_err_set(
					err, PGW_E_FORMAT, "pid %d: its "
					"thread list loops, or reaches "
					"task 0x%llx listed before",
					leader->pid, (unsigned long long)va);
			if (w->n >= PGW_TASKS_MAX)
				return pgw_err_set(err, PGW_E_LIMIT,
						   "more than %u tasks with "
						   "the threads",
						   PGW_TASKS_MAX);
			if ((st = linux_task_read(w->kernel, w->lay, va, &t,
						  err)) != PGW_OK) {
				bool broken = linux_task_damaged_link(err);
				return pgw_err_prefix(
					err, "pid %d: thread task 0x%llx%s",
					leader->pid, (unsigned long long)va,
					broken ? " (a damaged list: no "
						 "task_struct there)" : "");
			}
			if (t.tgid != leader->tgid)
				return pgw_err_set(
					err, PGW_E_FORMAT, "pid %d: its "
					"thread list reaches task 0x%llx "
					"(pid %d) of thread group %d",
					leader->pid, (unsigned long long)va,
					t.pid, t.tgid);
			if ((st = append(w, &t, err)) != PGW_OK)
				return st;
		}
		if ((st = read_ptr(w, node, &node, err)) != PGW_OK)
			return pgw_err_prefix(err, "pid %d: its thread list",
					      leader->pid);
	}
	return PGW_OK;
}

enum pgw_status pgw_linux_task_threads(const struct pgw_space *kernel,
				       const struct pgw_task_layout *lay,
				       const struct pgw_task *leaders,
				       size_t n, struct pgw_task **all_ret,
				       size_t *n_ret, struct pgw_err *err)
{
	struct walk w = { kernel, lay, NULL, 0, { 0 } };
	bool nomem = false;
	bool links = lay->thread_group ||
		     (lay->signal && lay->signal_thread_head &&
		      lay->thread_node);
	enum pgw_status st = links ? PGW_OK :
		pgw_err_set(err, PGW_E_UNSUPPORTED, "the layout has no "
			    "thread links (signal_struct.thread_head or "
			    "thread_group): thread-group leaders only");

	*all_ret = NULL;
	*n_ret = 0;
	for (size_t i = 0; i < n && !nomem; i++)
		if (!linux_seen_add(&w.seen, leaders[i].task, &nomem) && nomem)
			st = pgw_err_set(err, PGW_E_NOMEM, "thread list");
	for (size_t i = 0; i < n; i++) {
		enum pgw_status a = append(&w, &leaders[i], err);
		if (a != PGW_OK) {
			st = a;
			break;
		}
		/* After a failure the other leaders are still listed. */
		if (st == PGW_OK && !leaders[i].kthread)
			st = threads_of(&w, &leaders[i], err);
	}
	free(w.seen.slot);
	if (links)
		linux_resolve_ppids(kernel, lay, w.all, w.n);
	*all_ret = w.all;
	*n_ret = w.n;
	return st;
}
