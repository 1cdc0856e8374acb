// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import Glibc

/// `reload`: the configuration read again and put in force, as SIGHUP does. Root
/// and the daemon's own user only, since a reload changes what every user of a
/// shared daemon sees. Answered once the new configuration is in force.
enum ReloadCommand: CuratorCommand {
    static func run(_ args: ReloadRequest, curator: any ServerScope, caller: Caller) throws(ProtocolError) -> ReloadResult {
        let daemonUID = geteuid()
        guard caller.uid == 0 || caller.uid == daemonUID else {
            log.notice("refused a reload asked by uid \(caller.uid)")
            throw ProtocolError(.permissionDenied, "Only root and the user curatord runs as (uid \(daemonUID)) may reload its configuration.")
        }
        if curator.isStopping { throw ProtocolError(.shuttingDown, "curatord is stopping.") }
        guard let reloader = curator.reloader else {
            throw ProtocolError(.internalError, "this curatord cannot reload its configuration")
        }
        return try reloader.reload(askedBy: "uid \(caller.uid)", waitForWatcher: true).get()
    }
}
