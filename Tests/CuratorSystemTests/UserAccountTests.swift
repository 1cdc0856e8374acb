// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorSystem
import Foundation
import Glibc
import Testing

/// The user database is read with getpwuid_r into a buffer that lives as long as
/// the strings are read from it, and that grows when an entry does not fit.
@Suite("User accounts", .serialized)
struct UserAccountTests {
    @Test func aBufferTooSmallGrowsUntilTheEntryFits() {
        #expect(UserAccount.entry(uid: 0, bufferSize: 1) { String(cString: $0.pw_name) } == "root")
        #expect(UserAccount.entry(uid: 0, bufferSize: 1) { String(cString: $0.pw_dir) } == "/root")
        #expect(UserAccount.userName(uid: 0) == "root")
    }

    @Test func aUserWithNoEntryHasNoNameAndOnlyItsGroup() {
        let uid: UInt32 = 3_999_999_999
        #expect(getpwuid(uid) == nil)
        #expect(UserAccount.userName(uid: uid) == nil)
        #expect(UserAccount.homeDirectory(uid: uid) == nil)
        #expect(UserAccount.groups(uid: uid, gid: 4242) == [4242])
    }

    /// An entry longer than the first buffer (a long GECOS field) is read whole: its
    /// name, home and groups, not taken for a user that does not exist.
    @Test(.enabled(if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/useradd"),
                   "needs root and useradd to add a user for the test"))
    func aLongEntryIsReadWhole() throws {
        let name = "curtest-hs-gecos"
        var uid: UInt32 = 47_113
        while getpwuid(uid) != nil { uid += 1 }
        let home = "/nonexistent/" + String(repeating: "h", count: 200)
        let added = try Tool.run("/usr/sbin/useradd", ["--no-create-home", "--no-user-group", "--gid", "100", "--uid", "\(uid)",
                                                       "--home-dir", home, "--shell", "/usr/sbin/nologin",
                                                       "--comment", String(repeating: "x", count: 6000), name])
        try #require(added.status == 0, "useradd: \(added.stderr)")
        defer { _ = try? Tool.run("/usr/sbin/userdel", [name]) }

        #expect(UserAccount.userName(uid: uid) == name)
        #expect(UserAccount.homeDirectory(uid: uid) == ByteString(home))
        #expect(UserAccount.groups(uid: uid, gid: 100).contains(100))
    }
}
