// SPDX-License-Identifier: GPL-2.0-or-later
#ifndef CTERMINALGUARD_H
#define CTERMINALGUARD_H

#include <stddef.h>

/// Puts the terminal on `fd` in raw mode and switches to the alternate screen, having
/// saved its settings, and installs handlers that put it back exactly as it was before
/// the process dies of a signal: SIGTERM, SIGHUP, SIGINT, SIGQUIT, and the signals of a
/// crash (SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE). Each handler restores and
/// then dies of the same signal with its default action, so the parent sees what
/// happened. SIGWINCH and SIGCONT write one byte to `wake_fd` (a pipe the event loop
/// polls). Returns 0, or -1 with errno set (not a terminal).
int terminal_guard_enter(int fd, int wake_fd, const char *enter_sequence, const char *leave_sequence);

/// Restores what `terminal_guard_enter` changed (idempotent; async-signal-safe).
void terminal_guard_leave(void);

/// What `terminal_guard_leave` writes from now on (the grid learns what the terminal
/// shows, kitty's images, after it took it over).
void terminal_guard_set_leave(const char *leave_sequence);

/// Raw mode again after a suspension (Ctrl-Z), with the saved settings kept.
int terminal_guard_resume(void);

/// The window's size in cells and, where the terminal says, in pixels (0 when not).
/// Returns 0, or -1 with errno set.
int terminal_guard_size(int fd, int *columns, int *rows, int *pixel_width, int *pixel_height);

/// The process's environment, as libchafa's terminal database reads it.
char **terminal_guard_environment(void);

#endif
