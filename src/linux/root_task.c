/*
 * A process's root, chosen by pid or by name: the task list (kallsyms,
 * BTF, init_task.tasks) read through the kernel's page tables gives each
 * process's mm->pgd, whose physical address is the root its CPU loads
 * into CR3 (under PTI: the kernel copy, which maps the user half too).
 */
#include "../lib/err.h"
#include "linux.h"
#include "memo.h"

#include <stdio.h>
#include <string.h>

/* Pids listed when a name is ambiguous. */
#define MAX_LISTED 16

void linux_escape_comm(char *out, size_t n, const uint8_t *bytes,
		       size_t len)
{
	size_t o = 0;

	for (size_t i = 0; i < len && o + 5 <= n; i++) {
		uint8_t c = bytes[i];
		if (c >= 0x20 && c < 0x7f && c != '\\')
			out[o++] = (char)c;
		else
			o += (size_t)snprintf(out + o, n - o, "\\x%02x", c);
	}
	if (n)
		out[o < n ? o : n - 1] = '\0';
}

static bool matches(const struct pgw_root_request *req,
		    const struct pgw_task *t)
{
	if (req->have_pid)
		return t->pid == req->pid;
	size_t len = strlen(req->comm);
	return t->comm_len == len && memcmp(t->comm, req->comm, len) == 0;
}

/* "--pid=127" or "--comm=NAME", escaped. */
static void asked(const struct pgw_root_request *req, char *buf, size_t n)
{
	char esc[4 * PGW_TASK_COMM_MAX + 1];

	if (req->have_pid) {
		snprintf(buf, n, "--pid=%d", req->pid);
		return;
	}
	linux_escape_comm(esc, sizeof(esc), (const uint8_t *)req->comm,
		     strnlen(req->comm, PGW_TASK_COMM_MAX));
	snprintf(buf, n, "--comm=%s", esc);
}

/* The one task req names; PGW_E_NOTFOUND (saying why) when none or,
 * for a name, several do. */
static enum pgw_status pick(const struct pgw_root_request *req,
			    const struct pgw_task *t, size_t n,
			    const char *what, const char *incomplete,
			    size_t *pick_ret, struct pgw_err *err)
{
	size_t found = 0, first = 0;
	char pids[MAX_LISTED * 12 + 16] = "";
	size_t len = 0;

	for (size_t i = 0; i < n; i++) {
		if (!matches(req, &t[i]))
			continue;
		if (found++ == 0)
			first = i;
		if (found <= MAX_LISTED)
			len += (size_t)snprintf(pids + len, sizeof(pids) - len,
						"%s%d", found > 1 ? ", " : "",
						t[i].pid);
	}
	if (found > MAX_LISTED)
		snprintf(pids + len, sizeof(pids) - len, ", ...");
	if (found == 0)
		return pgw_err_set(err, PGW_E_NOTFOUND,
				   "%s: no process %s among the %zu tasks of "
				   "the kernel's task list%s (it lists each "
				   "process by its first thread)", what,
				   req->have_pid ? "with that pid" :
						   "of that name",
				   n, incomplete);
	if (found > 1)
		return pgw_err_set(err, PGW_E_NOTFOUND,
				   "%s: %zu processes have that name: pids "
				   "%s; give --pid", what, found, pids);
	*pick_ret = first;
	return PGW_OK;
}

enum pgw_status linux_root_tasks(struct pgw_linux_kernel *lk,
				 const struct pgw_space *kernel,
				 const char *what,
				 const struct pgw_task **tasks_ret,
				 size_t *n_ret,
				 const struct pgw_tasks_how **how,
				 char *incomplete, size_t size,
				 struct pgw_err *err)
{
	struct pgw_err list_err = { 0 };
	enum pgw_status st;

	linux_kernel_bind(lk, kernel);
	*tasks_ret = linux_kernel_tasks(lk, n_ret, how, &st, &list_err);
	incomplete[0] = '\0';
	if (st != PGW_OK && *n_ret == 0) {
		*tasks_ret = NULL;
		if (st == PGW_E_NOMEM)
			return pgw_err_set(err, st, "%s", list_err.msg);
		return pgw_err_set(err, PGW_E_NOTFOUND,
				   "%s: no task list: %s", what, list_err.msg);
	}
	/* A list cut short (an unreadable task, a loop) still names the
	 * processes read before it. */
	if (st != PGW_OK)
		snprintf(incomplete, size, "; the list is cut short: %.200s",
			 list_err.msg);
	return PGW_OK;
}

enum pgw_status linux_task_root(struct pgw_linux_kernel *lk,
				const struct pgw_space *kernel,
				const struct pgw_root_request *req,
				struct pgw_root *root, struct pgw_err *err)
{
	const struct pgw_task *tasks;
	size_t n, i = 0;
	char what[4 * PGW_TASK_COMM_MAX + 16];
	char comm[4 * PGW_TASK_COMM_MAX + 1];
	char incomplete[240];

	asked(req, what, sizeof(what));
	const struct pgw_tasks_how *how;
	enum pgw_status st = linux_root_tasks(lk, kernel, what, &tasks, &n,
					      &how, incomplete,
					      sizeof(incomplete), err);
	if (st != PGW_OK)
		return st;
	st = pick(req, tasks, n, what, incomplete, &i, err);
	if (st != PGW_OK)
		return st;
	const struct pgw_task *t = &tasks[i];
	linux_escape_comm(comm, sizeof(comm), t->comm, t->comm_len);
	if (!t->mm)
		st = pgw_err_set(err, PGW_E_NOTFOUND,
				 "%s: pid %d (%s) is a kernel thread: it has "
				 "no address space of its own (leave out %s "
				 "to walk the kernel's)", what, t->pid, comm,
				 req->have_pid ? "--pid" : "--comm");
	else if (!t->has_pgd_pa)
		st = pgw_err_set(err, PGW_E_NOTFOUND, "%s: pid %d (%s): %s",
				 what, t->pid, comm, t->why);
	if (st == PGW_OK) {
		root->pid = t->pid;
		memcpy(root->comm, t->comm, sizeof(root->comm));
		root->comm_len = t->comm_len;
		root->table = root->cr3 = t->pgd_pa;
		snprintf(root->why, sizeof(root->why),
			 "pid %d (%.64s): mm->pgd 0x%llx from the task list "
			 "(%s), read through the kernel root 0x%llx",
			 t->pid, comm, (unsigned long long)t->pgd,
			 pgw_tasks_method_key(how->method),
			 (unsigned long long)kernel->root);
	}
	return st;
}
