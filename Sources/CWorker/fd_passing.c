// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include "CWorker.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int curator_seqpacket_pair(int fds[2]) {
    return socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds);
}

ssize_t curator_send_with_fds(int socket, const void *bytes, size_t length, const int *fds, int fd_count) {
    if (fd_count < 0 || fd_count > CURATOR_MAX_PASSED_FDS) { errno = EINVAL; return -1; }
    struct iovec iov = { .iov_base = (void *)bytes, .iov_len = length };
    union {
        char buffer[CMSG_SPACE(sizeof(int) * CURATOR_MAX_PASSED_FDS)];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof control);
    struct msghdr message = { .msg_iov = &iov, .msg_iovlen = 1 };
    if (fd_count > 0) {
        message.msg_control = control.buffer;
        message.msg_controllen = CMSG_SPACE(sizeof(int) * fd_count);
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int) * fd_count);
        memcpy(CMSG_DATA(header), fds, sizeof(int) * fd_count);
    }
    ssize_t sent;
    do { sent = sendmsg(socket, &message, MSG_NOSIGNAL); } while (sent < 0 && errno == EINTR);
    return sent;
}

ssize_t curator_receive_with_fds(int socket, void *bytes, size_t capacity, int *fds, int *fd_count) {
    struct iovec iov = { .iov_base = bytes, .iov_len = capacity };
    union {
        char buffer[CMSG_SPACE(sizeof(int) * CURATOR_MAX_PASSED_FDS)];
        struct cmsghdr align;
    } control;
    struct msghdr message = { .msg_iov = &iov, .msg_iovlen = 1,
                              .msg_control = control.buffer, .msg_controllen = sizeof control.buffer };
    ssize_t received;
    do { received = recvmsg(socket, &message, MSG_CMSG_CLOEXEC); } while (received < 0 && errno == EINTR);
    *fd_count = 0;
    if (received < 0) return -1;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        int count = (int)((header->cmsg_len - CMSG_LEN(0)) / sizeof(int));
        int passed[CURATOR_MAX_PASSED_FDS * 2];
        if (count > (int)(sizeof passed / sizeof passed[0])) count = sizeof passed / sizeof passed[0];
        memcpy(passed, CMSG_DATA(header), sizeof(int) * count);
        for (int i = 0; i < count; i++) {
            if (*fd_count < CURATOR_MAX_PASSED_FDS) fds[(*fd_count)++] = passed[i];
            else close(passed[i]);
        }
    }
    // A truncated message or truncated descriptors: never act on half a job.
    if ((message.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) != 0) {
        for (int i = 0; i < *fd_count; i++) close(fds[i]);
        *fd_count = 0;
        errno = EMSGSIZE;
        return -1;
    }
    return received;
}
