// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Thumbnails under the system service: the daemon runs as root without
/// XDG_RUNTIME_DIR and with systemd's CACHE_DIRECTORY, serving two users made for
/// the test. Its thumbnails live in its own cache, which only root can open; each
/// user gets thumbnails (as bytes, never a path) only of photos they may read, and a
/// photo in a folder they may not list does not exist for them.
@Suite(.serialized) struct ThumbnailPermissionTests {
    /// One request on the daemon's socket as `user` (setpriv, with the user's groups):
    /// the answer line, decoded.
    static func request(_ body: [String: Any], socket: String, asUser user: String) throws -> [String: Any] {
        guard let entry = getpwnam(user) else { throw HarnessError("no user \(user)") }
        let line = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        let script = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(sys.argv[1])
            s.sendall(sys.argv[2].encode() + b"\\n")
            data = b""
            while not data.endswith(b"\\n"):
                chunk = s.recv(1 << 20)
                if not chunk:
                    break
                data += chunk
            sys.stdout.write(data.decode())
            """
        let out = try Tool.run("/usr/bin/setpriv", ["--reuid=\(user)", "--regid=\(entry.pointee.pw_gid)", "--init-groups",
                                                     "/usr/bin/python3", "-c", script, socket, line])
        guard out.status == 0, let object = try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any] else {
            throw HarnessError("request as \(user): status \(out.status), \(out.stdout) \(out.stderr)")
        }
        return object
    }

    static func code(_ answer: [String: Any]) -> String? { (answer["error"] as? [String: Any])?["code"] as? String }

    static func mode(_ path: String) -> (mode: mode_t, uid: uid_t)? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return (st.st_mode & 0o7777, st.st_uid)
    }

    /// The share of `PrivateFolderShare`.
    @Test func eachUserGetsThumbnailsOnlyOfPhotosTheyMayRead() throws {
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
        try PrivateFolderShare.make(share, alice: alice)

        // The system service: what systemd gives a unit with CacheDirectory=curatord
        // and ConfigurationDirectory=curatord (here in the test's folder).
        let cacheDirectory = d.home.mkdir("var-cache-curatord")
        d.extraEnvironment = ["CACHE_DIRECTORY": cacheDirectory, "CONFIGURATION_DIRECTORY": d.home.mkdir("etc-curatord")]
        d.removedEnvironment = ["XDG_RUNTIME_DIR"]
        try d.start()
        defer { d.stop() }
        d.letOtherUsersConnect()
        let root = try d.client()
        try ThumbnailTests.waitForBacklog(root, ready: 3, failed: 0)

        // Where they are: the daemon's own cache, closed to everyone else; nothing in
        // the (test's) user cache of the standard.
        let cache = cacheDirectory + "/thumbnails"
        #expect(try #require(Self.mode(cache)) == (0o700, 0), "the cache is root's alone")
        #expect(try #require(Self.mode(cache + "/normal")) == (0o700, 0))
        let files = try FileManager.default.contentsOfDirectory(atPath: cache + "/normal")
        #expect(files.count == 3, "\(files)")
        for file in files { #expect(Self.mode(cache + "/normal/" + file).map { $0 == (0o600, 0) } == true, "\(file)") }
        #expect(!FileManager.default.fileExists(atPath: ThumbnailTests.cache(d)), "no thumbnails in the user cache")

        let ids = try root.idsByPath()
        let open = try #require(ids["public/open.jpg"])
        let alices = try #require(ids["public/alices.jpg"])
        let secret = try #require(ids["alice/secret.jpg"])
        #expect(try ThumbnailTests.thumbnails(root, [secret]).first?["path"] as? String == cache + "/normal/"
                + (try ThumbnailTests.standardName(share + "/alice/secret.jpg")), "the daemon's own user gets a path")

        // Bob: the photo in a folder he may not list does not exist for him, with
        // or without its bytes; the one he sees but may not open is refused; the
        // open one comes as bytes, never as a path into a cache he cannot open.
        for data in [false, true] {
            let asked = try Self.request(["cmd": "thumbnail", "ids": [secret], "data": data], socket: d.socket, asUser: bob.name)
            let unknown = try Self.request(["cmd": "thumbnail", "ids": [999_999], "data": data], socket: d.socket, asUser: bob.name)
            #expect(Self.code(asked) == "no_such_photo" && Self.code(unknown) == "no_such_photo", "\(asked)")
            #expect(!"\(asked)".contains("secret") && !"\(asked)".contains("iVBOR"), "\(asked)")
            let refused = try Self.request(["cmd": "thumbnail", "ids": [alices], "data": data], socket: d.socket, asUser: bob.name)
            #expect(Self.code(refused) == "permission_denied", "\(refused)")
            #expect(!"\(refused)".contains("iVBOR"))
        }
        let mine = try Self.request(["cmd": "thumbnail", "ids": [open], "data": true], socket: d.socket, asUser: bob.name)
        let entry = try #require(((mine["result"] as? [String: Any])?["thumbnails"] as? [[String: Any]])?.first, "\(mine)")
        #expect(entry["state"] as? String == "ready" && entry["path"] == nil, "\(entry)")
        let png = try #require((entry["data"] as? String).flatMap { Data(base64Encoded: $0) })
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG")

        // Alice gets hers, as bytes.
        for id in [secret, alices] {
            let hers = try Self.request(["cmd": "thumbnail", "ids": [id], "data": true], socket: d.socket, asUser: alice.name)
            let got = ((hers["result"] as? [String: Any])?["thumbnails"] as? [[String: Any]])?.first
            #expect(got?["state"] as? String == "ready" && got?["path"] == nil, "\(hers)")
            #expect((got?["data"] as? String).flatMap { Data(base64Encoded: $0) }?.starts(with: [0x89, 0x50]) == true)
        }
    }
}
