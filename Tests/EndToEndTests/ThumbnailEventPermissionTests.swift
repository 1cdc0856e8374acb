// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Issue 54, item 9: a `thumbnail` event reaches only the subscribers whose user
/// may see the photo (may list its folder), as `added` events and listings do. Two
/// users subscribe to thumbnail events of the system service; a photo arrives in a
/// folder both may list and one in alice's private folder: bob hears of the first
/// only, alice of both.
@Suite(.serialized) struct ThumbnailEventPermissionTests {
    /// Every event `client` receives until `done` says it has what it waits for, or
    /// `seconds` pass.
    static func events(_ client: Client, seconds: Double, until done: ([[String: Any]]) -> Bool) throws -> [[String: Any]] {
        let deadline = Date(timeIntervalSinceNow: seconds)
        var seen: [[String: Any]] = []
        while Date() < deadline, !done(seen) {
            if let event = try client.nextEvent(timeout: max(0.1, deadline.timeIntervalSinceNow)) { seen.append(event) }
        }
        return seen
    }

    static func thumbnailIDs(_ events: [[String: Any]]) -> Set<Int> {
        Set(events.filter { $0["event"] as? String == "thumbnail" }.compactMap { $0["photo_id"] as? Int })
    }

    @Test func eachSubscriberHearsOnlyOfThumbnailsOfPhotosItMaySee() throws {
        guard SystemUsers.available else {
            print("skipped: needs root, useradd and setpriv to act as other users")
            return
        }
        let users = SystemUsers()
        defer { users.remove() }
        let alice = try users.user("alice")
        let bob = try users.user("bob")
        let d = Daemon(roots: ["share"])
        let share = d.root("share")
        for folder in ["public", "alice"] {
            try FileManager.default.createDirectory(atPath: share + "/" + folder, withIntermediateDirectories: true)
        }
        chmod(share + "/public", 0o755)
        chown(share + "/alice", alice.uid, alice.gid)
        chmod(share + "/alice", 0o700)
        let cacheDirectory = d.home.mkdir("var-cache-curatord")
        d.extraEnvironment = ["CACHE_DIRECTORY": cacheDirectory, "CONFIGURATION_DIRECTORY": d.home.mkdir("etc-curatord")]
        d.removedEnvironment = ["XDG_RUNTIME_DIR"]
        try d.start()
        defer { d.stop() }
        d.letOtherUsersConnect()

        let alices = try d.client(asUser: alice.name)
        let bobs = try d.client(asUser: bob.name)
        defer {
            alices.end()
            bobs.end()
        }
        for connection in [alices, bobs] { _ = try connection.client.result(["cmd": "subscribe", "thumbnails": true]) }

        // Made outside the root, then moved in whole.
        let staging = d.home.mkdir("staging")
        try ThumbnailTests.sample(["marker", staging + "/open.jpg"])
        try ThumbnailTests.sample(["marker", staging + "/secret.jpg", "--width", "300", "--height", "200"])
        rename(staging + "/open.jpg", share + "/public/open.jpg")
        rename(staging + "/secret.jpg", share + "/alice/secret.jpg")
        let root = try d.client()
        _ = try root.result(["cmd": "sync"])
        let ids = try root.idsByPath()
        let open = try #require(ids["public/open.jpg"]), secret = try #require(ids["alice/secret.jpg"])
        try ThumbnailTests.waitForBacklog(root, ready: 2, failed: 0)

        let hers = Self.thumbnailIDs(try Self.events(alices.client, seconds: 20) { Self.thumbnailIDs($0).isSuperset(of: [open, secret]) })
        #expect(hers == [open, secret], "alice hears of both: \(hers)")
        // Both thumbnails are made and alice has heard of both: bob's events are in too.
        let his = try Self.events(bobs.client, seconds: 2) { Self.thumbnailIDs($0).contains(secret) }
        #expect(Self.thumbnailIDs(his) == [open], "bob hears of the open photo only: \(his)")
        #expect(!"\(his)".contains("secret"), "\(his)")
    }
}
