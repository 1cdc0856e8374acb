// SPDX-License-Identifier: GPL-2.0-or-later
// The terminal's restoration lives in C so that it can run inside a signal handler:
// only tcsetattr, write and sigaction, on memory set aside before any signal can come.
#include "CTerminalGuard.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <termios.h>
#include <sys/ioctl.h>
#include <unistd.h>

static struct termios saved;
static int terminal_fd = -1;
static int wake = -1;
static volatile sig_atomic_t active = 0;
static char leave_bytes[256];
static size_t leave_length = 0;
static char enter_bytes[256];
static size_t enter_length = 0;

static const int deadly[] = { SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE };

static void write_all(const char *bytes, size_t length) {
    while (length > 0) {
        ssize_t n = write(terminal_fd, bytes, length);
        if (n < 0) {
            if (errno == EINTR) continue;
            return;
        }
        bytes += n;
        length -= (size_t)n;
    }
}

void terminal_guard_leave(void) {
    if (!active) return;
    active = 0;
    int saved_errno = errno;
    write_all(leave_bytes, leave_length);
    tcsetattr(terminal_fd, TCSAFLUSH, &saved);
    errno = saved_errno;
}

static void on_deadly(int sig) {
    terminal_guard_leave();
    // Die of the same signal, as if there had been no handler.
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    sigaction(sig, &action, NULL);
    sigset_t unblock;
    sigemptyset(&unblock);
    sigaddset(&unblock, sig);
    sigprocmask(SIG_UNBLOCK, &unblock, NULL);
    raise(sig);
}

static void on_wake(int sig) {
    (void)sig;
    int saved_errno = errno;
    char byte = 1;
    if (wake >= 0) { ssize_t ignored = write(wake, &byte, 1); (void)ignored; }
    errno = saved_errno;
}

static int raw_mode(void) {
    struct termios raw = saved;
    raw.c_iflag &= ~(tcflag_t)(BRKINT | ICRNL | INPCK | ISTRIP | IXON);
    raw.c_oflag &= ~(tcflag_t)(OPOST);
    raw.c_cflag |= CS8;
    raw.c_lflag &= ~(tcflag_t)(ECHO | ICANON | IEXTEN | ISIG);
    raw.c_cc[VMIN] = 1;
    raw.c_cc[VTIME] = 0;
    if (tcsetattr(terminal_fd, TCSAFLUSH, &raw) != 0) return -1;
    active = 1;
    write_all(enter_bytes, enter_length);
    return 0;
}

int terminal_guard_enter(int fd, int wake_fd, const char *enter_sequence, const char *leave_sequence) {
    if (tcgetattr(fd, &saved) != 0) return -1;
    terminal_fd = fd;
    wake = wake_fd;
    size_t n = strlen(leave_sequence);
    if (n >= sizeof leave_bytes) n = sizeof leave_bytes - 1;
    memcpy(leave_bytes, leave_sequence, n);
    leave_length = n;
    n = strlen(enter_sequence);
    if (n >= sizeof enter_bytes) n = sizeof enter_bytes - 1;
    memcpy(enter_bytes, enter_sequence, n);
    enter_length = n;

    struct sigaction action;
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);
    // The handler runs once: a second crash inside it takes the default action.
    action.sa_flags = SA_RESETHAND | SA_NODEFER;
    action.sa_handler = on_deadly;
    for (size_t i = 0; i < sizeof deadly / sizeof deadly[0]; i++) sigaction(deadly[i], &action, NULL);
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    action.sa_handler = on_wake;
    sigaction(SIGWINCH, &action, NULL);
    sigaction(SIGCONT, &action, NULL);
    return raw_mode();
}

void terminal_guard_set_leave(const char *leave_sequence) {
    // Blocked meanwhile: a handler must never write half of the old bytes and half of the new.
    sigset_t all, before;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &before);
    size_t n = strlen(leave_sequence);
    if (n >= sizeof leave_bytes) n = sizeof leave_bytes - 1;
    memcpy(leave_bytes, leave_sequence, n);
    leave_length = n;
    sigprocmask(SIG_SETMASK, &before, NULL);
}

int terminal_guard_resume(void) {
    if (terminal_fd < 0) return -1;
    return raw_mode();
}

int terminal_guard_size(int fd, int *columns, int *rows, int *pixel_width, int *pixel_height) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return -1;
    *columns = size.ws_col;
    *rows = size.ws_row;
    *pixel_width = size.ws_xpixel;
    *pixel_height = size.ws_ypixel;
    return 0;
}

extern char **environ;

char **terminal_guard_environment(void) {
    return environ;
}
