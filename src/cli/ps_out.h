/*
 * What `ps` prints: a record per task of the kernel's task list, then a
 * summary saying how the list was read (ps_out.c: the types and their
 * text; cmd_ps.c fills them in).
 */
#ifndef PGW_PS_OUT_H
#define PGW_PS_OUT_H

#include "record.h"

#define TASK_FIELDS(F, S)                                                 \
	F(S, pid, U64, 0)                                                 \
	F(S, tgid, U64, 0)                                                \
	F(S, ppid, OU64, RF_NULL)                                         \
	F(S, comm, BYTES, 0)                                              \
	F(S, state, WORD, RF_NULL)                                        \
	F(S, state_value, OU64, RF_NULL | RF_JSON)                        \
	F(S, cpu, OU64, RF_NULL)                                          \
	F(S, running, OBOOL, RF_NULL)                                     \
	F(S, current_cpu, OU64, RF_NULL)                                  \
	F(S, current_by, WORD, RF_NULL)                                   \
	F(S, kthread, BOOL, 0)                                            \
	F(S, task, HEX, 0)                                                \
	F(S, mm, OHEX, RF_NULL)                                           \
	F(S, root, OHEX, RF_NULL)                                         \
	F(S, start_time, OU64, RF_NULL)                                   \
	F(S, why, TEXT, 0)                                                \
	F(S, marked, BOOL, RF_TEXT)
RECORD_STRUCT(task_rec, TASK_FIELDS);

#define PS_SUMMARY_FIELDS(F, S)                                           \
	F(S, tasks, U64, RF_DETAIL)                                       \
	F(S, processes, U64, RF_DETAIL)                                   \
	F(S, kernel_threads, U64, RF_DETAIL)                              \
	F(S, method, WORD, RF_NULL | RF_DETAIL)                           \
	F(S, method_why, TEXT, RF_JSON)                                   \
	F(S, threads, BOOL, RF_DETAIL)                                    \
	F(S, cpu_registers, U64, RF_DETAIL)                               \
	F(S, complete, BOOL, 0)                                           \
	F(S, why, TEXT, 0)
RECORD_STRUCT(ps_summary_rec, PS_SUMMARY_FIELDS);

extern const struct rec_table ps_table;

#endif
