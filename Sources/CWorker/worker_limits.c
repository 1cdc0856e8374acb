// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include "CWorker.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <malloc.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

// From linux/ioprio.h, which older kernels' headers lack.
#define CURATOR_IOPRIO_CLASS_SHIFT 13
#define CURATOR_IOPRIO_CLASS_IDLE 3
#define CURATOR_IOPRIO_WHO_PROCESS 1

// Linux keeps nice, the scheduling policy and the I/O priority per thread, and new
// threads inherit them from the thread that starts them.
static int curator_lower_thread(pid_t tid) {
    int first_errno = 0;
    if (setpriority(PRIO_PROCESS, (id_t)tid, 19) != 0 && !first_errno) first_errno = errno;
    struct sched_param param = { .sched_priority = 0 };
    if (sched_setscheduler(tid, SCHED_IDLE, &param) != 0 && !first_errno) first_errno = errno;
    int ioprio = CURATOR_IOPRIO_CLASS_IDLE << CURATOR_IOPRIO_CLASS_SHIFT;
    if (syscall(SYS_ioprio_set, CURATOR_IOPRIO_WHO_PROCESS, tid, ioprio) != 0 && !first_errno) first_errno = errno;
    return first_errno;
}

int curator_worker_lower_all_threads(void) {
    // The calling thread first: a thread it starts from now on is born lowered.
    int first_errno = curator_lower_thread(0);
    DIR *tasks = opendir("/proc/self/task");
    if (!tasks) return -1;
    struct dirent *entry;
    while ((entry = readdir(tasks)) != NULL) {
        if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
        int failed = curator_lower_thread((pid_t)atoi(entry->d_name));
        // A thread that ended meanwhile (ESRCH) has nothing left to lower.
        if (failed && failed != ESRCH && !first_errno) first_errno = failed;
    }
    closedir(tasks);
    if (first_errno) { errno = first_errno; return -1; }
    return 0;
}

int curator_worker_bind_to_parent(void) {
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) return -1;
    return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
}

void curator_worker_limit_arenas(int arenas) {
    mallopt(M_ARENA_MAX, arenas);
}
