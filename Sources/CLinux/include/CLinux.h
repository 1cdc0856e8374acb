// SPDX-License-Identifier: GPL-2.0-or-later
// Linux calls and constants that Swift's Glibc module hides because it is
// built without _GNU_SOURCE. Each wrapper returns -1 and sets errno on failure.
#ifndef CURATOR_CLINUX_H
#define CURATOR_CLINUX_H

#include <stdint.h>
#include <sys/types.h>

extern const int curator_O_PATH;
extern const int curator_O_TMPFILE;
extern const int curator_O_NOFOLLOW;
extern const int curator_O_DIRECTORY;
extern const int curator_O_CLOEXEC;
extern const int curator_AT_EMPTY_PATH;
extern const int curator_AT_SYMLINK_NOFOLLOW;
extern const int curator_AT_REMOVEDIR;
extern const unsigned int curator_RENAME_NOREPLACE;

int curator_renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags);

/// SO_PEERCRED of a connected Unix socket.
int curator_peer_credentials(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid);

int curator_accept4_cloexec(int fd);

int curator_eventfd(void);

/// The mount id of a path (statx STATX_MNT_ID), or -1 with errno.
int curator_mount_id(int dirfd, const char *path, int flags, uint64_t *mnt_id);

/// open(2) without varargs, for Swift.
int curator_openat(int dirfd, const char *path, int flags, unsigned int mode);

/// Opens `path` below the directory `dirfd` without leaving it and without
/// following any symlink on the way (openat2 RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS;
/// on a kernel without openat2, one O_NOFOLLOW openat per component, `..`
/// refused): ELOOP or ENOTDIR where a component is a symlink, EXDEV where the path
/// would leave `dirfd`. O_CLOEXEC is added.
int curator_open_beneath(int dirfd, const char *path, int flags);

int curator_linkat_fd(int fd, int newdirfd, const char *newpath);

/// linkat(fd, "", newdirfd, newpath, AT_EMPTY_PATH): names an O_TMPFILE file
/// without /proc (needs CAP_DAC_READ_SEARCH).
int curator_linkat_empty(int fd, int newdirfd, const char *newpath);

/// syncfs(2): writes back the whole file system `fd` is on.
int curator_syncfs(int fd);

/// statfs f_type of a path.
int curator_fs_type(const char *path, int64_t *type);

/// Limits glibc's malloc arenas (M_ARENA_MAX) and fixes the size from which
/// blocks get their own mapping (M_MMAP_THRESHOLD).
void curator_tune_malloc(int arenas, int mmap_threshold);

/// Returns free heap memory to the system (malloc_trim).
void curator_trim_heap(void);

/// Initialises an adaptive (briefly spinning) mutex: the state lock is held for
/// microseconds, so a short spin beats sleeping in the kernel.
int curator_mutex_init_adaptive(void *mutex);

/// Names the calling thread for ps/top (at most 15 bytes are kept).
void curator_name_thread(const char *name);

/// Sets the calling thread's nice value (Linux keeps it per thread); 0, or -1 and errno.
int curator_nice_thread(int nice);

/// send(2) of `length` bytes on a stream Unix socket with the descriptor `fd`
/// attached (SCM_RIGHTS), without waiting (MSG_DONTWAIT) or SIGPIPE: the bytes
/// sent, the descriptor with them when that is more than 0, or -1 with errno
/// (EAGAIN: nothing was sent, nor the descriptor).
ssize_t curator_send_with_descriptor(int socket, const void *bytes, size_t length, int fd);

/// recv(2) that also takes a descriptor sent with the bytes (close-on-exec) into
/// `*fd`, -1 when none came; any further descriptors are closed. `flags` as recv's.
ssize_t curator_receive_with_descriptor(int socket, void *bytes, size_t capacity, int *fd, int flags);

/// getrandom(2) from the kernel's pool, blocking until it is initialised: fills all
/// `length` bytes (at most 256) or returns -1 with errno.
int curator_random_bytes(void *buffer, size_t length);

/// Nice 19, SCHED_IDLE and the lowest best-effort I/O class (ioprio_set has no
/// glibc wrapper) for the calling thread: it runs on cores nothing else wants, and
/// its reads queue beside everyone's, last among equals. 0, or -1 and the errno of
/// the first call that failed (all are made).
int curator_idle_thread(void);

/// Asks the CPU to start loading the cache line at `address` for reading: a hint
/// that never faults, whatever the address. Inline, so that it costs one instruction.
static inline void curator_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

#endif
