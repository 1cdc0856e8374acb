// libinotifytools ships no pkg-config file; the modulemap links it by name.
// Not reentrant: every call goes through InotifyTools.swift on one thread.
#include <inotifytools/inotifytools.h>
#include <inotifytools/inotify.h>
