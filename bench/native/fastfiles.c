// SPDX-License-Identifier: GPL-2.0-or-later
// The harness's two file-writing jobs that Python does 5-10x slower than the kernel
// allows (bench/native.py compiles this on first use; without a C compiler the
// harness writes the files in Python and says so):
//
//   fastfiles plan ROOT < PLAN
//       makes the folders and files a plan describes (gen_tree.py writes the plan,
//       so the tree is the same byte for byte whoever writes it). Records:
//         'D' u32 len, path      make ROOT/path (and its parents) if needed; later
//                                files go into it
//         'F' u32 len, name, i64 mtime_ns, u32 size, bytes
//                                create name (O_EXCL) in the current folder, write
//                                the bytes, set atime and mtime, close
//       Integers are little-endian. Prints the count of folders and files.
//
//   fastfiles flood DIR COUNT PER_FOLDER SIZE [PREFIX]
//       writes COUNT files of SIZE bytes (PREFIX + IMG_000000.JPG ...) under DIR as
//       fast as it can: create, write, close, one file after the other. With
//       PER_FOLDER > 0, DIR is made and the files go into new sub-folders of that
//       many, as `tar -x` or `rsync` of a library does; with 0, straight into DIR,
//       which may exist (a watched folder). Prints "first_ns last_ns" on
//       CLOCK_MONOTONIC (Python's perf_counter clock): before the first create and
//       after the last close.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what, const char *path) {
    fprintf(stderr, "fastfiles: %s %s: %s\n", what, path ? path : "", strerror(errno));
    exit(1);
}

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void write_all(int fd, const unsigned char *data, size_t size, const char *path) {
    while (size > 0) {
        ssize_t n = write(fd, data, size);
        if (n < 0) {
            if (errno == EINTR) continue;
            die("write", path);
        }
        data += n;
        size -= (size_t)n;
    }
}

// MARK: plan

static unsigned char *buffer;
static size_t buffer_size, buffer_used, buffer_at;

// Makes `n` unread bytes available at buffer + buffer_at, or returns 0 at a clean end.
static int need(size_t n) {
    if (buffer_used - buffer_at >= n) return 1;
    memmove(buffer, buffer + buffer_at, buffer_used - buffer_at);
    buffer_used -= buffer_at;
    buffer_at = 0;
    if (n > buffer_size) {
        buffer_size = n * 2;
        buffer = realloc(buffer, buffer_size);
        if (!buffer) die("realloc", NULL);
    }
    while (buffer_used < n) {
        ssize_t r = read(0, buffer + buffer_used, buffer_size - buffer_used);
        if (r < 0) {
            if (errno == EINTR) continue;
            die("read", "stdin");
        }
        if (r == 0) {
            if (buffer_used == 0) return 0;
            fprintf(stderr, "fastfiles: plan ends inside a record\n");
            exit(1);
        }
        buffer_used += (size_t)r;
    }
    return 1;
}

static uint32_t u32(void) {
    uint32_t v;
    need(4);
    memcpy(&v, buffer + buffer_at, 4);
    buffer_at += 4;
    return v;
}

static int64_t i64(void) {
    int64_t v;
    need(8);
    memcpy(&v, buffer + buffer_at, 8);
    buffer_at += 8;
    return v;
}

// A copy of the next `n` bytes as a C string (names are short).
static void string(char *out, size_t cap, uint32_t n) {
    if (n + 1 > cap) {
        fprintf(stderr, "fastfiles: name of %u bytes in the plan is too long\n", n);
        exit(1);
    }
    need(n);
    memcpy(out, buffer + buffer_at, n);
    out[n] = 0;
    buffer_at += n;
}

// mkdir -p of `path` under `root_fd`; returns an O_PATH descriptor of it.
static int make_folder(int root_fd, char *path) {
    for (char *p = path; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdirat(root_fd, path, 0755) != 0 && errno != EEXIST) die("mkdir", path);
        *p = '/';
    }
    if (mkdirat(root_fd, path, 0755) != 0 && errno != EEXIST) die("mkdir", path);
    int fd = openat(root_fd, path, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) die("open", path);
    return fd;
}

static int run_plan(const char *root) {
    if (mkdir(root, 0755) != 0 && errno != EEXIST) die("mkdir", root);
    int root_fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (root_fd < 0) die("open", root);
    buffer_size = 1 << 20;
    buffer = malloc(buffer_size);
    if (!buffer) die("malloc", NULL);
    int dir_fd = dup(root_fd);
    char name[4096];
    long folders = 0, files = 0;
    while (need(1)) {
        unsigned char kind = buffer[buffer_at++];
        if (kind == 'D') {
            string(name, sizeof name, u32());
            close(dir_fd);
            dir_fd = make_folder(root_fd, name);
            folders++;
        } else if (kind == 'F') {
            string(name, sizeof name, u32());
            int64_t mtime = i64();
            uint32_t size = u32();
            need(size);
            int fd = openat(dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
            if (fd < 0) die("create", name);
            write_all(fd, buffer + buffer_at, size, name);
            buffer_at += size;
            // mtime = shooting time: what a camera import leaves behind.
            struct timespec times[2] = {{mtime / 1000000000, mtime % 1000000000}, {mtime / 1000000000, mtime % 1000000000}};
            if (futimens(fd, times) != 0) die("futimens", name);
            if (close(fd) != 0) die("close", name);
            files++;
        } else {
            fprintf(stderr, "fastfiles: unknown plan record 0x%02x\n", kind);
            return 1;
        }
    }
    printf("%ld %ld\n", folders, files);
    return 0;
}

// MARK: flood

static int run_flood(const char *dir, long count, long per_folder, long size, const char *prefix) {
    unsigned char *data = calloc(1, size > 0 ? (size_t)size : 1);
    if (!data) die("calloc", NULL);
    if (size >= 2) { data[0] = 0xff; data[1] = 0xd8; }  // a JPEG's first bytes
    if (mkdir(dir, 0755) != 0 && !(per_folder == 0 && errno == EEXIST)) die("mkdir", dir);
    int dir_fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd < 0) die("open", dir);
    int into = dup(dir_fd);
    char name[96];
    uint64_t first = now_ns();
    for (long i = 0; i < count; i++) {
        if (per_folder > 0 && i % per_folder == 0) {
            snprintf(name, sizeof name, "part-%05ld", i / per_folder);
            if (mkdirat(dir_fd, name, 0755) != 0) die("mkdir", name);
            close(into);
            into = openat(dir_fd, name, O_PATH | O_DIRECTORY | O_CLOEXEC);
            if (into < 0) die("open", name);
        }
        snprintf(name, sizeof name, "%.32sIMG_%06ld.JPG", prefix, i);
        int fd = openat(into, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0) die("create", name);
        write_all(fd, data, (size_t)size, name);
        if (close(fd) != 0) die("close", name);
    }
    uint64_t last = now_ns();
    printf("%llu %llu\n", (unsigned long long)first, (unsigned long long)last);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "plan") == 0) return run_plan(argv[2]);
    if ((argc == 6 || argc == 7) && strcmp(argv[1], "flood") == 0)
        return run_flood(argv[2], atol(argv[3]), atol(argv[4]), atol(argv[5]), argc == 7 ? argv[6] : "");
    fprintf(stderr, "usage: fastfiles plan ROOT < PLAN | fastfiles flood DIR COUNT PER_FOLDER SIZE [PREFIX]\n");
    return 2;
}
