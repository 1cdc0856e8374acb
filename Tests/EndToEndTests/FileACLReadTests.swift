// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Issue 54, item 3: a photo's own ACL decides who may read it through the
/// daemon, as the kernel would decide for that user: a 0644 photo with an entry
/// `u:bob:---` is refused to bob through `photo.info` and `thumbnail`, and still
/// served to carol. Listings go by folders (what `ls` of the folder shows), so bob
/// still sees its name, as his own `ls` would.
@Suite(.serialized) struct FileACLReadTests {
    @Test func aPhotosACLEntryRefusesTheUserItNames() throws {
        guard SystemUsers.available, Tool.exists("/usr/bin/setfacl") else {
            print("skipped: needs root, useradd, setpriv and setfacl to act as other users")
            return
        }
        let users = SystemUsers()
        defer { users.remove() }
        let bob = try users.user("bob")
        let carol = try users.user("carol")
        let d = Daemon(roots: ["share"])
        let share = d.root("share")
        try FileManager.default.createDirectory(atPath: share + "/public", withIntermediateDirectories: true)
        try ThumbnailTests.sample(["marker", share + "/public/open.jpg"])
        chmod(share + "/public", 0o755)
        chmod(share + "/public/open.jpg", 0o644)
        let acl = try Tool.run("/usr/bin/setfacl", ["-m", "u:\(bob.name):---", share + "/public/open.jpg"])
        guard acl.status == 0 else { throw HarnessError("setfacl: \(acl.stderr)") }

        let cacheDirectory = d.home.mkdir("var-cache-curatord")
        d.extraEnvironment = ["CACHE_DIRECTORY": cacheDirectory, "CONFIGURATION_DIRECTORY": d.home.mkdir("etc-curatord")]
        d.removedEnvironment = ["XDG_RUNTIME_DIR"]
        try d.start()
        defer { d.stop() }
        d.letOtherUsersConnect()
        let root = try d.client()
        try ThumbnailTests.waitForBacklog(root, ready: 1, failed: 0)
        let photo = try #require(try root.idsByPath()["public/open.jpg"])

        func ask(_ body: [String: Any], as user: String) throws -> [String: Any] {
            try ThumbnailPermissionTests.request(body, socket: d.socket, asUser: user)
        }
        let info = ["cmd": "photo.info", "photo": photo] as [String: Any]
        let thumbnail = ["cmd": "thumbnail", "ids": [photo], "data": true] as [String: Any]
        for body in [info, thumbnail] {
            let refused = try ask(body, as: bob.name)
            #expect(ThumbnailPermissionTests.code(refused) == "permission_denied", "\(refused)")
            #expect(!"\(refused)".contains("iVBOR") && !"\(refused)".contains("width"), "\(refused)")
        }
        let carolsInfo = try ask(info, as: carol.name)
        #expect((carolsInfo["result"] as? [String: Any])?["width"] as? Int == 600, "\(carolsInfo)")
        let carolsThumbnail = try ask(thumbnail, as: carol.name)
        let entry = ((carolsThumbnail["result"] as? [String: Any])?["thumbnails"] as? [[String: Any]])?.first
        #expect(entry?["state"] as? String == "ready" && entry?["data"] is String, "\(carolsThumbnail)")

        // His listing is his `ls` of the folder: the name, not the bytes.
        let listed = try d.ctl(["--json", "ls", "share"], asUser: bob.name)
        #expect(listed.status == 0 && listed.stdout.contains("open.jpg"), "\(listed)")
    }
}
