// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// A user who may not open the daemon's socket is told so, and why, not that
/// curatord is not running (issue 13 item 7): the real curatorctl as another uid
/// (`setpriv`) against a running daemon whose socket is 0660 for a group that uid
/// is not in, the way the system service's socket is for group curatord.
@Suite(.serialized)
struct SocketPermissionTests {
    static let outsider: UInt32 = 4245

    /// The socket as curatord.socket makes it: owner root, group `gid`, mode 0660, in a searchable directory.
    static func shareSocket(_ daemon: Daemon, group gid: gid_t) {
        chmod(daemon.home.path, 0o755)
        chown(daemon.socket, 0, gid)
        chmod(daemon.socket, 0o660)
    }

    static var groupName: String {
        guard let entry = getgrgid(0), let name = entry.pointee.gr_name else { return "gid 0" }
        return String(cString: name)
    }

    @Test func anOutsiderIsToldTheGroupTheModeAndHowToBeLetIn() throws {
        guard getuid() == 0, Tool.exists("/usr/bin/setpriv") else {
            print("skipped: needs root and setpriv to connect as another uid")
            return
        }
        let daemon = Daemon()
        Files.write(daemon.root() + "/a.jpg")
        try daemon.start()
        Self.shareSocket(daemon, group: 0)

        let refused = try daemon.ctl(["status"], asUID: Self.outsider)
        #expect(refused.status == 3, "\(refused)")
        let text = refused.stderr
        #expect(!text.contains("not running"), "\(text)")
        #expect(text.contains("you (uid \(Self.outsider)) may not use curatord's socket \(daemon.socket)"), "\(text)")
        #expect(text.contains("it belongs to root:\(Self.groupName) with mode 0660 (srw-rw----)"), "\(text)")
        #expect(text.contains("only root and members of the group \(Self.groupName) may connect"), "\(text)")
        #expect(text.contains("is not in the group \(Self.groupName)"), "\(text)")
        #expect(text.contains("usermod -aG \(Self.groupName) "), "\(text)")

        // A member of the group is let in by the same socket: the refusal above was the group's.
        let member = try Tool.run("/usr/bin/setpriv", ["--reuid=\(Self.outsider)", "--regid=\(Self.outsider)", "--groups=0",
                                                       Daemon.curatorctl, "--socket", daemon.socket, "status"],
                                  environment: daemon.environment)
        #expect(member.status == 0, "\(member.stdout) \(member.stderr)")
        #expect(member.stdout.contains("1 photo"), "\(member.stdout)")
        #expect(daemon.stop() == 0)
    }

    @Test func aDirectoryThatDoesNotLetTheUserInIsNamed() throws {
        guard getuid() == 0, Tool.exists("/usr/bin/setpriv") else {
            print("skipped: needs root and setpriv to connect as another uid")
            return
        }
        let daemon = Daemon()
        try daemon.start()
        Self.shareSocket(daemon, group: 0)
        chmod(daemon.home.path, 0o750)

        let refused = try daemon.ctl(["status"], asUID: Self.outsider)
        #expect(refused.status == 3, "\(refused)")
        #expect(refused.stderr.contains("may not use curatord's socket \(daemon.socket): the directory \(daemon.home.path) "
                                        + "(root:\(Self.groupName), mode 0750) does not let you in."), "\(refused.stderr)")
        #expect(daemon.stop() == 0)
    }

    @Test func aSocketWithNoSocketThereStillSaysNotRunning() throws {
        // The other side of the distinction: no socket at all is "not running".
        let daemon = Daemon()
        let result = try daemon.ctl(["status"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("curatord is not running (there is no socket at \(daemon.socket))"), "\(result.stderr)")
    }
}
