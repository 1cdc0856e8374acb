// SPDX-License-Identifier: GPL-2.0-or-later
// The peer of the `rate` benchmark (bench/marks_bench.py): sets xmp:Rating in each
// sidecar named on the command line with exempi, in a loop, each replaced the way
// curatord replaces one (a temporary file beside it with the original's owner and
// mode, fsync, rename, fsync of the folder), so that the two do the same work on disk.
//
//     exempi_rate RATING FILE...
#include <exempi/xmp.h>
#include <exempi/xmpconsts.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail(const char *what, const char *path) {
    fprintf(stderr, "exempi_rate: %s %s: %s (xmp error %d)\n", what, path, strerror(errno), xmp_get_error());
    return 1;
}

static int rate(const char *path, const char *rating) {
    int fd = open(path, O_RDONLY | O_NOFOLLOW);
    if (fd < 0) return fail("open", path);
    struct stat st;
    if (fstat(fd, &st) != 0) return fail("fstat", path);
    char *bytes = malloc(st.st_size + 1);
    ssize_t got = 0;
    while (got < st.st_size) {
        ssize_t n = read(fd, bytes + got, st.st_size - got);
        if (n <= 0) return fail("read", path);
        got += n;
    }
    close(fd);
    XmpPtr xmp = xmp_new_empty();
    if (!xmp_parse(xmp, bytes, got)) return fail("parse", path);
    free(bytes);
    if (!xmp_set_property(xmp, NS_XAP, "Rating", rating, 0)) return fail("set", path);
    XmpStringPtr out = xmp_string_new();
    if (!xmp_serialize(xmp, out, XMP_SERIAL_OMITPACKETWRAPPER | XMP_SERIAL_USECOMPACTFORMAT, 0)) return fail("serialize", path);

    char folder[4096], name[4096], temporary[8192];
    snprintf(folder, sizeof folder, "%s", path);
    snprintf(name, sizeof name, "%s", path);
    const char *directory = dirname(folder);
    snprintf(temporary, sizeof temporary, "%s/.%s.partial", directory, basename(name));
    int tfd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
    if (tfd < 0) return fail("create", temporary);
    const char *text = xmp_string_cstr(out);
    size_t length = strlen(text), done = 0;
    while (done < length) {
        ssize_t n = write(tfd, text + done, length - done);
        if (n <= 0) return fail("write", temporary);
        done += n;
    }
    if (fchown(tfd, st.st_uid, st.st_gid) != 0 || fchmod(tfd, st.st_mode & 07777) != 0) return fail("chown", temporary);
    if (fsync(tfd) != 0) return fail("fsync", temporary);
    close(tfd);
    if (rename(temporary, path) != 0) return fail("rename", path);
    int dfd = open(directory, O_RDONLY | O_DIRECTORY);
    if (dfd < 0 || fsync(dfd) != 0) return fail("fsync", directory);
    close(dfd);
    xmp_string_free(out);
    xmp_free(xmp);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: exempi_rate RATING FILE...\n");
        return 2;
    }
    if (!xmp_init()) return fail("init", "");
    for (int i = 2; i < argc; i++) {
        if (rate(argv[i], argv[1]) != 0) return 1;
    }
    xmp_terminate();
    return 0;
}
