// SPDX-License-Identifier: GPL-2.0-or-later
// The kernel's floor of a batch to the trash: the system calls curatord's batch must
// make for N files (a .trashinfo each, a rename each, the identity looks, the syncs),
// in a C loop with nothing else, on one thread and on two (infos on one, renames on
// the other, as the batch splits them). It says how much of a batch's time is the
// kernel's and how much is ours (docs/BENCHMARKS.md, issue 14's batch).
//
//   cc -O2 -o batch_floor batch_floor.c -lpthread
//   batch_floor MODE DIR [N]     DIR: an empty folder on the file system to measure
//
// MODE letters: r renames only; t .trashinfo by O_TMPFILE + linkat (curatord's way),
// e .trashinfo by O_CREAT|O_EXCL + write (gio's and trash-cli's way); s the looks
// (fstatat before and after each rename); y a syncfs every 4096 files on a thread of
// its own and one at the end (curatord's chunks); p infos and renames on two threads.
// Prints the wall time; run each mode on a fresh DIR.
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/fs.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int count = 15001, files_fd, info_fd, *folders;
static int tmpfile_infos, excl_infos, looks, syncs;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void die(const char *what) {
    perror(what);
    exit(1);
}

static void *write_infos(void *unused) {
    (void)unused;
    char name[80], text[300];
    for (int i = 0; i < count; i++) {
        snprintf(name, sizeof name, "IMG_%06d.JPG.trashinfo", i);
        int length = snprintf(text, sizeof text, "[Trash Info]\nPath=/photos/part-%03d/IMG_%06d.JPG\n"
                              "DeletionDate=2026-12-01T10:00:00\n", i / 100, i);
        if (excl_infos) {
            int fd = openat(info_fd, name, O_CREAT | O_EXCL | O_WRONLY, 0600);
            if (fd < 0 || write(fd, text, length) != length) die("info");
            close(fd);
        } else if (tmpfile_infos) {
            int fd = openat(info_fd, ".", O_TMPFILE | O_WRONLY, 0600);
            if (fd < 0 || write(fd, text, length) != length) die("info");
            char proc[64];
            snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
            if (linkat(AT_FDCWD, proc, info_fd, name, AT_SYMLINK_FOLLOW) != 0) die("linkat");
            close(fd);
        }
    }
    return NULL;
}

static void *sync_once(void *unused) {
    (void)unused;
    syncfs(files_fd);
    return NULL;
}

static void *rename_files(void *unused) {
    (void)unused;
    char name[64];
    struct stat status;
    pthread_t syncer;
    int syncing = 0;
    for (int i = 0; i < count; i++) {
        snprintf(name, sizeof name, "IMG_%06d.JPG", i);
        if (looks) fstatat(folders[i / 100], name, &status, AT_SYMLINK_NOFOLLOW);
        if (syscall(SYS_renameat2, folders[i / 100], name, files_fd, name, RENAME_NOREPLACE) != 0) die("rename");
        if (looks) fstatat(files_fd, name, &status, AT_SYMLINK_NOFOLLOW);
        if (syncs && i % 4096 == 4095) {
            if (syncing) pthread_join(syncer, NULL);
            pthread_create(&syncer, NULL, sync_once, NULL);
            syncing = 1;
        }
    }
    if (syncing) pthread_join(syncer, NULL);
    if (syncs) syncfs(files_fd);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s MODE DIR [N]\n", argv[0]);
        return 2;
    }
    const char *mode = argv[1], *dir = argv[2];
    if (argc > 3) count = atoi(argv[3]);
    tmpfile_infos = strchr(mode, 't') != NULL;
    excl_infos = strchr(mode, 'e') != NULL;
    looks = strchr(mode, 's') != NULL;
    syncs = strchr(mode, 'y') != NULL;
    char path[512];
    snprintf(path, sizeof path, "%s/Trash", dir);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/Trash/files", dir);
    if (mkdir(path, 0700) != 0 || (files_fd = open(path, O_DIRECTORY | O_RDONLY)) < 0) die(path);
    snprintf(path, sizeof path, "%s/Trash/info", dir);
    if (mkdir(path, 0700) != 0 || (info_fd = open(path, O_DIRECTORY | O_RDONLY)) < 0) die(path);
    int folder_count = count / 100 + 1;
    folders = calloc(folder_count, sizeof *folders);
    for (int f = 0; f < folder_count; f++) {
        snprintf(path, sizeof path, "%s/part-%03d", dir, f);
        if (mkdir(path, 0755) != 0 || (folders[f] = open(path, O_DIRECTORY | O_RDONLY)) < 0) die(path);
    }
    char photo[800] = {0};
    for (int i = 0; i < count; i++) {
        snprintf(path, sizeof path, "%s/part-%03d/IMG_%06d.JPG", dir, i / 100, i);
        int fd = open(path, O_CREAT | O_WRONLY, 0644);
        if (fd < 0 || write(fd, photo, sizeof photo) != (ssize_t)sizeof photo) die(path);
        close(fd);
    }
    sync();
    double start = now();
    if (strchr(mode, 'p')) {
        pthread_t infos, renames;
        pthread_create(&infos, NULL, write_infos, NULL);
        pthread_create(&renames, NULL, rename_files, NULL);
        pthread_join(infos, NULL);
        pthread_join(renames, NULL);
    } else {
        write_infos(NULL);
        rename_files(NULL);
    }
    printf("%s: %d files in %.3f s\n", mode, count, now() - start);
    return 0;
}
