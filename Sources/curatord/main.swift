// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCore
import CuratorDaemon
import CuratorSystem
import Glibc

// libinotifytools waits with select(): its descriptor must be among the first
// opened, so it is initialised before anything else, and before any thread.
Daemon.prepareProcess()
var inotifyError: SystemError?
var inotify: InotifyToolsHandle?
do {
    inotify = try InotifyToolsHandle()
} catch {
    inotifyError = error
}
exit(Daemon.main(arguments: CommandLine.arguments, inotify: inotify, inotifyError: inotifyError))
