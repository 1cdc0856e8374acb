// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorWeb
import Glibc

WebGateway.prepareProcess()
exit(WebGateway.main(arguments: CommandLine.arguments))
