// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include "CLinux.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/fs.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <malloc.h>
#include <pthread.h>

const int curator_O_PATH = O_PATH;
const int curator_O_TMPFILE = O_TMPFILE;
const int curator_O_NOFOLLOW = O_NOFOLLOW;
const int curator_O_DIRECTORY = O_DIRECTORY;
const int curator_O_CLOEXEC = O_CLOEXEC;
const int curator_AT_EMPTY_PATH = AT_EMPTY_PATH;
const int curator_AT_SYMLINK_NOFOLLOW = AT_SYMLINK_NOFOLLOW;
const int curator_AT_REMOVEDIR = AT_REMOVEDIR;
const unsigned int curator_RENAME_NOREPLACE = RENAME_NOREPLACE;

int curator_renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags) {
    return (int)syscall(SYS_renameat2, olddirfd, oldpath, newdirfd, newpath, flags);
}

int curator_peer_credentials(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid) {
    struct ucred cred;
    socklen_t len = sizeof(cred);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) return -1;
    *pid = cred.pid;
    *uid = cred.uid;
    *gid = cred.gid;
    return 0;
}

int curator_accept4_cloexec(int fd) {
    return accept4(fd, NULL, NULL, SOCK_CLOEXEC);
}

int curator_eventfd(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

int curator_mount_id(int dirfd, const char *path, int flags, uint64_t *mnt_id) {
#ifdef STATX_MNT_ID
    struct statx sx;
    if (statx(dirfd, path, flags, STATX_MNT_ID, &sx) != 0) return -1;
    if (!(sx.stx_mask & STATX_MNT_ID)) { errno = ENOSYS; return -1; }
    *mnt_id = sx.stx_mnt_id;
    return 0;
#else
    (void)dirfd; (void)path; (void)flags; (void)mnt_id;
    errno = ENOSYS;
    return -1;
#endif
}

int curator_openat(int dirfd, const char *path, int flags, unsigned int mode) {
    return openat(dirfd, path, flags, (mode_t)mode);
}

// The walk openat2 replaces: each directory opened with O_NOFOLLOW from the one
// before, the last component with the caller's flags and O_NOFOLLOW.
static int curator_open_beneath_walk(int dirfd, const char *path, int flags) {
    size_t length = strlen(path);
    if (length == 0 || path[0] == '/') { errno = EXDEV; return -1; }
    char *copy = strdup(path);
    if (!copy) return -1;
    int current = dirfd;
    char *component = copy;
    int result = -1;
    for (;;) {
        char *slash = strchr(component, '/');
        if (slash) *slash = '\0';
        if (strcmp(component, "..") == 0) { errno = EXDEV; break; }
        if (!slash) {
            result = openat(current, component, flags | O_NOFOLLOW | O_CLOEXEC);
            break;
        }
        int next = openat(current, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (current != dirfd) close(current);
        if (next < 0) { current = dirfd; break; }
        current = next;
        component = slash + 1;
    }
    int saved = errno;
    if (current != dirfd) close(current);
    free(copy);
    errno = saved;
    return result;
}

int curator_open_beneath(int dirfd, const char *path, int flags) {
#ifdef SYS_openat2
    struct open_how how = {
        .flags = (uint64_t)(flags | O_CLOEXEC),
        .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
    };
    // EAGAIN: a rename elsewhere on the file system raced the lookup; it is safe to ask again.
    for (int attempt = 0; attempt < 8; attempt++) {
        long fd = syscall(SYS_openat2, dirfd, path, &how, sizeof how);
        if (fd >= 0) return (int)fd;
        if (errno == EAGAIN) continue;
        // No openat2 (kernel before 5.6, or a seccomp filter that refuses it): the walk.
        if (errno == ENOSYS || errno == EPERM) break;
        return -1;
    }
    if (errno == EAGAIN) return -1;
#endif
    return curator_open_beneath_walk(dirfd, path, flags);
}

int curator_linkat_fd(int fd, int newdirfd, const char *newpath) {
    char proc[64];
    snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
    return linkat(AT_FDCWD, proc, newdirfd, newpath, AT_SYMLINK_FOLLOW);
}

int curator_linkat_empty(int fd, int newdirfd, const char *newpath) {
    return linkat(fd, "", newdirfd, newpath, AT_EMPTY_PATH);
}

int curator_syncfs(int fd) {
    return syncfs(fd);
}

int curator_fs_type(const char *path, int64_t *type) {
    struct statfs info;
    if (statfs(path, &info) != 0) return -1;
    *type = (int64_t)info.f_type;
    return 0;
}

void curator_tune_malloc(int arenas, int mmap_threshold) {
    mallopt(M_ARENA_MAX, arenas);
    mallopt(M_MMAP_THRESHOLD, mmap_threshold);
}

void curator_trim_heap(void) {
    malloc_trim(0);
}

int curator_mutex_init_adaptive(void *mutex) {
    pthread_mutexattr_t attributes;
    pthread_mutexattr_init(&attributes);
    pthread_mutexattr_settype(&attributes, PTHREAD_MUTEX_ADAPTIVE_NP);
    int rc = pthread_mutex_init((pthread_mutex_t *)mutex, &attributes);
    pthread_mutexattr_destroy(&attributes);
    return rc;
}

int curator_nice_thread(int nice) { return setpriority(PRIO_PROCESS, 0, nice); }

// From linux/ioprio.h, which older kernels' headers lack.
#define CURATOR_IOPRIO_CLASS_SHIFT 13
#define CURATOR_IOPRIO_CLASS_BE 2
#define CURATOR_IOPRIO_WHO_PROCESS 1

int curator_idle_thread(void) {
    int first_errno = 0;
    if (setpriority(PRIO_PROCESS, 0, 19) != 0) first_errno = errno;
    struct sched_param param = { .sched_priority = 0 };
    int rc = pthread_setschedparam(pthread_self(), SCHED_IDLE, &param);
    if (rc != 0 && !first_errno) first_errno = rc;
    int ioprio = (CURATOR_IOPRIO_CLASS_BE << CURATOR_IOPRIO_CLASS_SHIFT) | 7;
    if (syscall(SYS_ioprio_set, CURATOR_IOPRIO_WHO_PROCESS, 0, ioprio) != 0 && !first_errno) first_errno = errno;
    if (first_errno) { errno = first_errno; return -1; }
    return 0;
}

void curator_name_thread(const char *name) {
    prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}

int curator_random_bytes(void *buffer, size_t length) {
    // Requests of up to 256 bytes are never cut short once the pool is ready;
    // EINTR can still come before it is, so that one is retried.
    if (length > 256) {
        errno = EINVAL;
        return -1;
    }
    ssize_t n;
    do {
        n = getrandom(buffer, length, 0);
    } while (n == -1 && errno == EINTR);
    if (n == -1) return -1;
    if ((size_t)n != length) {
        errno = EIO;
        return -1;
    }
    return 0;
}

ssize_t curator_send_with_descriptor(int socket, const void *bytes, size_t length, int fd) {
    struct iovec iov = { .iov_base = (void *)bytes, .iov_len = length };
    union {
        char buffer[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof control);
    struct msghdr message = { .msg_iov = &iov, .msg_iovlen = 1,
                              .msg_control = control.buffer, .msg_controllen = sizeof control.buffer };
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(header), &fd, sizeof(int));
    return sendmsg(socket, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
}

ssize_t curator_receive_with_descriptor(int socket, void *bytes, size_t capacity, int *fd, int flags) {
    struct iovec iov = { .iov_base = bytes, .iov_len = capacity };
    // Room for a few: a peer that sends more than one has the rest closed, not leaked.
    union {
        char buffer[CMSG_SPACE(sizeof(int) * 8)];
        struct cmsghdr align;
    } control;
    struct msghdr message = { .msg_iov = &iov, .msg_iovlen = 1,
                              .msg_control = control.buffer, .msg_controllen = sizeof control.buffer };
    *fd = -1;
    ssize_t received = recvmsg(socket, &message, flags | MSG_CMSG_CLOEXEC);
    if (received < 0) return -1;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        size_t count = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < count; i++) {
            int passed;
            memcpy(&passed, CMSG_DATA(header) + i * sizeof(int), sizeof(int));
            if (*fd == -1) *fd = passed;
            else close(passed);
        }
    }
    return received;
}
