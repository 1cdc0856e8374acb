// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include "CWorker.h"

#include <errno.h>
#include <stddef.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int curator_worker_drop_capabilities(void) {
    // Ambient first: while any is raised, capset would keep permitted ones alive.
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) return -1;
    // The bounding set, so that an exec (of a set-uid or root-owned file) gains
    // nothing back; it needs CAP_SETPCAP, which only a root daemon passes on.
    for (int cap = 0; cap <= 63; cap++) {
        if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) == 0) continue;
        if (errno == EINVAL) break;      // past the kernel's last capability
        if (errno == EPERM) break;       // no CAP_SETPCAP: nothing to drop it with
        return -1;
    }
    struct __user_cap_header_struct header = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
    struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = { { 0 } };
    if (syscall(SYS_capset, &header, data) == 0) return 0;
    // Refused (a unit's system call filter): fine only if nothing is held. An
    // inheritable set alone gives nothing: there is no ambient set left, and with
    // no new privileges no file's capabilities count.
    int refused = errno;
    struct __user_cap_data_struct held[_LINUX_CAPABILITY_U32S_3] = { { 0 } };
    if (syscall(SYS_capget, &header, held) != 0) return -1;
    for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++) {
        if (held[i].effective || held[i].permitted) { errno = refused; return -1; }
    }
    return 0;
}

int curator_clear_ambient_capabilities(void) {
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) == 0 || errno == EINVAL) return 0;
    return -1;
}

#if defined(__x86_64__)
#define CURATOR_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define CURATOR_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

#define CURATOR_DENY(nr) \
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), \
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA))

int curator_worker_deny_system_calls(void) {
#ifdef CURATOR_AUDIT_ARCH
    struct sock_filter filter[] = {
        // Another ABI's numbers mean other calls: refuse them all.
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, CURATOR_AUDIT_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#if defined(__x86_64__)
        // x32 calls (the same numbers with bit 30 set) would slip past the list.
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
#endif
        // Running programs, reaching other processes, the network, the kernel's own state.
        CURATOR_DENY(SYS_execve), CURATOR_DENY(SYS_execveat),
        CURATOR_DENY(SYS_ptrace), CURATOR_DENY(SYS_process_vm_readv), CURATOR_DENY(SYS_process_vm_writev),
        CURATOR_DENY(SYS_socket), CURATOR_DENY(SYS_connect), CURATOR_DENY(SYS_bind), CURATOR_DENY(SYS_listen),
        CURATOR_DENY(SYS_mount), CURATOR_DENY(SYS_umount2), CURATOR_DENY(SYS_pivot_root), CURATOR_DENY(SYS_chroot),
        CURATOR_DENY(SYS_unshare), CURATOR_DENY(SYS_setns), CURATOR_DENY(SYS_bpf), CURATOR_DENY(SYS_keyctl),
        CURATOR_DENY(SYS_add_key), CURATOR_DENY(SYS_request_key), CURATOR_DENY(SYS_init_module),
        CURATOR_DENY(SYS_finit_module), CURATOR_DENY(SYS_delete_module), CURATOR_DENY(SYS_kexec_load),
        CURATOR_DENY(SYS_reboot), CURATOR_DENY(SYS_swapon), CURATOR_DENY(SYS_swapoff),
        CURATOR_DENY(SYS_perf_event_open), CURATOR_DENY(SYS_userfaultfd),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog program = { .len = (unsigned short)(sizeof filter / sizeof filter[0]), .filter = filter };
    // Every thread at once: libvips has started its own by now.
    return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &program);
#else
    errno = ENOSYS;
    return -1;
#endif
}
