// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc

signal(SIGPIPE, SIG_IGN)
exit(CuratorCtl.main(Array(CommandLine.arguments.dropFirst())))
