/* proc_stat: the one reader of /proc/PID/stat (proc(5)), for the undo
 * journal (a process's start time and group), the server activity sampler
 * (a postgres server's CPU) and the noise monitor (every process's CPU).
 *
 * The command name (field 2) is in parentheses and is whatever the process
 * set (prctl PR_SET_NAME): spaces, ')' and "(x) S 1" included. The kernel
 * writes nothing but numbers and the state letter after it, so the name
 * ends at the last ')' of the line. */
#ifndef BENCHGRID_PROC_STAT_H
#define BENCHGRID_PROC_STAT_H

#include <stdbool.h>

/* The fields benchgrid uses, numbered as in proc(5). */
struct proc_stat {
	long pid;                  /* 1 */
	char comm[64];             /* 2, without the parentheses; cut to fit */
	char state;                /* 3: R, S, D, Z (zombie), X (dead), ... */
	long ppid, pgrp, session;  /* 4, 5, 6 */
	unsigned long flags;       /* 9: PF_* (PF_KTHREAD 0x00200000: a kernel thread) */
	unsigned long long utime;  /* 14: clock ticks in user mode */
	unsigned long long stime;  /* 15: clock ticks in kernel mode */
	unsigned long long cutime; /* 16: ticks of its waited-for children, user */
	unsigned long long cstime; /* 17: and kernel */
	unsigned long long start;  /* 22: start time, ticks since boot; with the pid it names one process */
};

/* Parse one /proc/PID/stat line; false when it is not one (fields missing
 * or not numbers). */
bool proc_stat_parse(const char *text, struct proc_stat *st);

/* Read and parse /proc/PID/stat; false when there is no such process (a
 * zombie still has one) or its line cannot be parsed. */
bool proc_stat_read(long pid, struct proc_stat *st);

#endif
