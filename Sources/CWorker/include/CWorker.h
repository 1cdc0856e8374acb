// SPDX-License-Identifier: GPL-2.0-or-later
// What the thumbnailer worker and its client need from Linux that Swift cannot reach
// directly: descriptors passed over a Unix socket (the CMSG_* macros), and the calls
// that lower a process's priority (SCHED_IDLE, ioprio_set, prctl need _GNU_SOURCE or
// have no glibc wrapper), and what takes its privileges away (capabilities,
// seccomp). Each returns -1 with errno on failure.
#ifndef CURATOR_CWORKER_H
#define CURATOR_CWORKER_H

#include <stddef.h>
#include <sys/types.h>

/// The most descriptors one message carries.
#define CURATOR_MAX_PASSED_FDS 4

/// A connected pair of SOCK_SEQPACKET Unix sockets, both close-on-exec: each
/// send is one message, read whole by one receive.
int curator_seqpacket_pair(int fds[2]);

/// Sends `length` bytes as one message with `fd_count` descriptors attached
/// (SCM_RIGHTS). MSG_NOSIGNAL: a dead peer is EPIPE, not SIGPIPE.
ssize_t curator_send_with_fds(int socket, const void *bytes, size_t length, const int *fds, int fd_count);

/// Receives one message into `bytes` and up to CURATOR_MAX_PASSED_FDS descriptors
/// (close-on-exec) into `fds`, their number in `*fd_count`. A message longer than
/// `capacity` is an error (EMSGSIZE), its descriptors closed.
ssize_t curator_receive_with_fds(int socket, void *bytes, size_t capacity, int *fds, int *fd_count);

/// nice 19, SCHED_IDLE and I/O priority class idle for every thread of the
/// process, the caller's first (a thread it starts meanwhile or later inherits
/// them). Returns 0, or -1 with the errno of the first call that failed (the others
/// are still made; ESRCH of a thread that ended is no failure).
int curator_worker_lower_all_threads(void);

/// At most `arenas` malloc arenas (not one per thread, each reserving 64 MiB of
/// address space); the mmap threshold is left to adapt.
void curator_worker_limit_arenas(int arenas);

/// The caller dies with SIGKILL when its parent does (PR_SET_PDEATHSIG) and can
/// never gain privileges through exec (PR_SET_NO_NEW_PRIVS).
int curator_worker_bind_to_parent(void);

/// Drops every capability the process was started with: ambient, bounding (where
/// CAP_SETPCAP allows), effective, permitted and inheritable. Capabilities are per
/// thread: call it before any thread starts. 0 (also when capset is refused, as
/// systemd's ~@privileged filter does, but nothing is effective or permitted), or
/// -1 with errno.
int curator_worker_drop_capabilities(void);

/// Clears the calling thread's ambient capabilities, so that a program it executes
/// as a user other than root starts with none. 0, or -1 with errno.
int curator_clear_ambient_capabilities(void);

/// A seccomp filter on every thread (TSYNC) that refuses, with EPERM, the calls a
/// thumbnail decoder never needs: exec, ptrace and process_vm_*, new sockets,
/// mounts and namespaces, bpf, keyrings, modules, reboot, swap, perf and
/// userfaultfd. Needs PR_SET_NO_NEW_PRIVS first. 0, or -1 with errno.
int curator_worker_deny_system_calls(void);

#endif
