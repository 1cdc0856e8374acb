// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Photo bytes by file descriptor (issue 51): `photo.open` on the daemon's socket
/// passes the file open (SCM_RIGHTS), and the gateway's `GET /photo/<id>/<what>`
/// streams it, with ETags, ranges and caching, to exactly whom `thumbnail` would give it.
@Suite(.serialized)
struct WebPhotoTests {
    static let tool = Command.packageRoot + "/Tests/Tools/photo-open.py"

    /// `photo.open` on `socket` (as `user` when given): the answer and what the
    /// passed descriptor held.
    static func open(_ request: [String: Any], socket: String, asUser user: (name: String, uid: UInt32, gid: UInt32)? = nil) throws
        -> [String: Any] {
        var body = request
        body["cmd"] = "photo.open"
        body["id"] = 1
        let line = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        let out: Tool.Output
        if let user {
            out = try Tool.run("/usr/bin/setpriv", ["--reuid=\(user.name)", "--regid=\(user.gid)", "--init-groups",
                                                    "/usr/bin/python3", tool, socket, line])
        } else {
            out = try Tool.run("/usr/bin/python3", [tool, socket, line])
        }
        guard out.status == 0, let object = try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any] else {
            throw HarnessError("photo-open.py: status \(out.status), \(out.stdout) \(out.stderr)")
        }
        return object
    }

    static func answer(_ opened: [String: Any]) -> [String: Any] { opened["answer"] as? [String: Any] ?? [:] }
    static func result(_ opened: [String: Any]) -> [String: Any] { answer(opened)["result"] as? [String: Any] ?? [:] }
    static func code(_ opened: [String: Any]) -> String? { (answer(opened)["error"] as? [String: Any])?["code"] as? String }

    /// SHA-256 (hex) of bytes `from..<to` of a file (all of it by default).
    static func sha256(_ path: String, from: Int = 0, to: Int? = nil) throws -> String {
        let end = to.map(String.init) ?? "None"
        let out = try Tool.run("/usr/bin/python3", ["-c", """
            import hashlib, sys
            print(hashlib.sha256(open(sys.argv[1], 'rb').read()[\(from):\(end)]).hexdigest())
            """, path])
        return out.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func size(_ path: String) -> Int { (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? -1 }

    /// A daemon with three real photos (two JPEGs, a HEIC) and their thumbnails made.
    static func daemon() throws -> (Daemon, Client, ids: [String: Int]) {
        let d = Daemon()
        try ThumbnailTests.sample(["marker", d.root() + "/one.jpg"])
        try ThumbnailTests.sample(["marker", d.root() + "/two.jpg", "--width", "300", "--height", "200"])
        try ThumbnailTests.sample(["heic", d.root() + "/phone.heic", "--width", "800", "--height", "600"])
        try d.start()
        let client = try d.client()
        try ThumbnailTests.waitForBacklog(client, ready: 3, failed: 0)
        return (d, client, try client.idsByPath())
    }

    @Test func photoOpenPassesTheFileOpenForReadingWithItsAnswer() throws {
        let (d, _, ids) = try Self.daemon()
        let one = try #require(ids["one.jpg"])
        let phone = try #require(ids["phone.heic"])

        let original = try Self.open(["photo": one, "what": "original"], socket: d.socket)
        #expect(Self.result(original)["state"] as? String == "ready", "\(original)")
        #expect(Self.result(original)["content_type"] as? String == "image/jpeg")
        #expect(original["fds"] as? Int == 1)
        #expect(original["writable"] as? Bool == false, "read-only")
        let originalSum = try Self.sha256(d.root() + "/one.jpg")
        #expect(original["sha256"] as? String == originalSum)
        var st = stat()
        #expect(stat(d.root() + "/one.jpg", &st) == 0)
        let version = "\(Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec))-\(st.st_size)"
        #expect(Self.result(original)["version"] as? String == version)

        // A JPEG is its own preview; a HEIC's is its largest thumbnail.
        let preview = try Self.open(["photo": one, "what": "preview"], socket: d.socket)
        #expect(preview["sha256"] as? String == original["sha256"] as? String, "\(preview)")
        let thumbnail = try Self.open(["photo": one, "what": "normal"], socket: d.socket)
        #expect(Self.result(thumbnail)["content_type"] as? String == "image/png", "\(thumbnail)")
        #expect(thumbnail["head"] as? String == "89504e470d0a1a0a", "a PNG")
        let heicPreview = try Self.open(["photo": phone, "what": "preview"], socket: d.socket)
        let state = Self.result(heicPreview)["state"] as? String
        #expect(state == "ready" || state == "pending", "\(heicPreview)")
        try eventually(timeout: 30, "the HEIC's preview to be made") {
            let again = try Self.open(["photo": phone, "what": "preview"], socket: d.socket)
            guard Self.result(again)["state"] as? String == "ready" else { return false }
            #expect(again["head"] as? String == "89504e470d0a1a0a" && Self.result(again)["content_type"] as? String == "image/png")
            return true
        }

        // Nothing passed with a refusal.
        let unknown = try Self.open(["photo": 999_999, "what": "original"], socket: d.socket)
        #expect(Self.code(unknown) == "no_such_photo" && unknown["fds"] as? Int == 0, "\(unknown)")
        let bad = try Self.open(["photo": one, "what": "huge"], socket: d.socket)
        #expect(Self.code(bad) == "invalid_argument" && bad["fds"] as? Int == 0, "\(bad)")
        #expect(Self.code(try Self.open(["photo": one], socket: d.socket)) == "invalid_argument")
    }

    @Test func theGatewayStreamsAPhotoWithItsTagRangesAndCaching() throws {
        let (d, _, ids) = try Self.daemon()
        let one = try #require(ids["one.jpg"])
        let path = d.root() + "/one.jpg"
        let length = Self.size(path)
        let web = try WebGatewayProcess(d)
        let session = try web.signIn()
        let cookie = ["Cookie": "curator_session=" + session]

        let whole = try web.request("GET", "/photo/\(one)/original", headers: cookie)
        #expect(whole.status == 200, "\(whole)")
        #expect(whole.header("Content-Type") == "image/jpeg")
        let wholeSum = try Self.sha256(path)
        #expect(whole.length == length && whole.sha256 == wholeSum)
        #expect(whole.header("Accept-Ranges") == "bytes")
        #expect(whole.header("Cache-Control") == "private, no-cache", "no version in the address: asked about each time")
        for name in ["Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy"] { #expect(whole.header(name) != nil) }
        let tag = try #require(whole.header("ETag"))
        #expect(tag.hasPrefix("\"\(one)-original-") && tag.hasSuffix("-\(length)\""), "\(tag)")

        // Unchanged: 304 and no bytes, for the tag as sent or weak.
        for condition in [tag, "W/" + tag, "\"other\", " + tag] {
            let again = try web.request("GET", "/photo/\(one)/original", headers: cookie.merging(["If-None-Match": condition]) { $1 })
            #expect(again.status == 304 && again.length == 0, "\(condition): \(again)")
            #expect(again.header("ETag") == tag)
        }
        #expect(try web.request("GET", "/photo/\(one)/original", headers: cookie.merging(["If-None-Match": "\"other\""]) { $1 }).status == 200)

        // The version in the address names bytes that never change.
        let version = String(tag.dropFirst("\"\(one)-original-".count).dropLast())
        let immutable = try web.request("GET", "/photo/\(one)/original?v=\(version)", headers: cookie)
        #expect(immutable.header("Cache-Control") == "private, max-age=31536000, immutable", "\(immutable.headers)")
        let stale = try web.request("GET", "/photo/\(one)/original?v=1-2", headers: cookie)
        #expect(stale.header("Cache-Control") == "private, no-cache")

        // Ranges.
        let first = try web.request("GET", "/photo/\(one)/original", headers: cookie.merging(["Range": "bytes=0-9"]) { $1 })
        #expect(first.status == 206 && first.length == 10, "\(first)")
        #expect(first.header("Content-Range") == "bytes 0-9/\(length)")
        let firstSum = try Self.sha256(path, from: 0, to: 10)
        #expect(first.sha256 == firstSum)
        let tail = try web.request("GET", "/photo/\(one)/original", headers: cookie.merging(["Range": "bytes=-5"]) { $1 })
        let tailSum = try Self.sha256(path, from: length - 5)
        #expect(tail.status == 206 && tail.sha256 == tailSum, "\(tail)")
        let rest = try web.request("GET", "/photo/\(one)/original", headers: cookie.merging(["Range": "bytes=100-"]) { $1 })
        let restSum = try Self.sha256(path, from: 100)
        #expect(rest.status == 206 && rest.length == length - 100 && rest.sha256 == restSum)
        let past = try web.request("GET", "/photo/\(one)/original", headers: cookie.merging(["Range": "bytes=\(length)-"]) { $1 })
        #expect(past.status == 416 && past.header("Content-Range") == "bytes */\(length)", "\(past)")
        let changed = try web.request("GET", "/photo/\(one)/original",
                                      headers: cookie.merging(["Range": "bytes=0-9", "If-Range": "\"old\""]) { $1 })
        #expect(changed.status == 200 && changed.length == length, "If-Range of other bytes: the whole file")

        // A thumbnail and a preview, by type.
        let thumbnail = try web.request("GET", "/photo/\(one)/large", headers: cookie)
        #expect(thumbnail.status == 200 && thumbnail.header("Content-Type") == "image/png", "\(thumbnail)")
        let preview = try web.request("GET", "/photo/\(one)/preview", headers: cookie)
        #expect(preview.status == 200 && preview.sha256 == whole.sha256)
        let head = try web.request("HEAD", "/photo/\(one)/original", headers: cookie)
        #expect(head.status == 200 && head.length == 0 && head.header("Content-Length") == "\(length)", "\(head)")

        // Signed out, or an id never given: nothing.
        let anonymous = try web.request("GET", "/photo/\(one)/original")
        #expect(anonymous.status == 401 && anonymous.length < 2000)
        let unknown = try web.request("GET", "/photo/999999/original", headers: cookie)
        #expect(unknown.status == 404 && unknown.errorCode == "no_such_photo", "\(unknown)")
        #expect(unknown.header("Cache-Control") == "no-store")
        #expect(try web.request("POST", "/photo/\(one)/original", headers: cookie.merging(["X-Curator": "1"]) { $1 }).status == 405)
        #expect(try web.api("photo.open", #"{"photo":\#(one),"what":"original"}"#, cookie: session).status == 404)
    }

    @Test func noPathReachesAFileOutsideWhatPhotoOpenGives() throws {
        let (d, _, ids) = try Self.daemon()
        let one = try #require(ids["one.jpg"])
        let web = try WebGatewayProcess(d)
        let cookie = ["Cookie": "curator_session=" + (try web.signIn())]
        let secret = "root:x:0:0"
        for path in ["/photo/\(one)/../../../../etc/passwd", "/photo/\(one)/original/../../../../etc/passwd",
                     "/photo/..%2F..%2F..%2Fetc%2Fpasswd/original", "/photo/%2e%2e/original", "/photo/\(one)%2F..%2Foriginal/original",
                     "/photo/\(one)/", "/photo/\(one)/original/", "/photo/-1/original",
                     "/photo/0x10/original", "/photo/\(one)/..", "/../../etc/passwd", "/static/../../etc/passwd",
                     "/photo//etc/passwd", "/photo/99999999999999999999/original", "/photo/\(one)/ORIGINAL"] {
            let answer = try web.request("GET", path, headers: cookie)
            #expect(answer.status == 404 || answer.status == 400, "\(path): \(answer.status)")
            #expect(!answer.body.contains(secret) && !answer.body.contains("JFIF"), "\(path)")
        }
        // An escaped NUL ends the path where the server reads it: still that photo's own
        // bytes, or nothing.
        let nul = try web.request("GET", "/photo/\(one)/original%00/../../../etc/passwd", headers: cookie)
        let own = try web.request("GET", "/photo/\(one)/original", headers: cookie)
        #expect(nul.status == 404 || (nul.status == 200 && nul.sha256 == own.sha256), "\(nul.status)")
    }

    /// The share of `PrivateFolderShare`.
    @Test func eachUserGetsTheBytesOnlyOfPhotosTheyMayRead() throws {
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
        d.extraEnvironment = ["CACHE_DIRECTORY": d.home.mkdir("var-cache-curatord"), "CONFIGURATION_DIRECTORY": d.home.mkdir("etc-curatord")]
        d.removedEnvironment = ["XDG_RUNTIME_DIR"]
        try d.start()
        defer { d.stop() }
        d.letOtherUsersConnect()
        let root = try d.client()
        try ThumbnailTests.waitForBacklog(root, ready: 3, failed: 0)
        let ids = try root.idsByPath()
        let open = try #require(ids["public/open.jpg"])
        let alices = try #require(ids["public/alices.jpg"])
        let secret = try #require(ids["alice/secret.jpg"])

        // On the socket: bob gets no descriptor of a photo he may not see or read.
        for what in ["original", "preview", "normal"] {
            let hidden = try Self.open(["photo": secret, "what": what], socket: d.socket, asUser: bob)
            let never = try Self.open(["photo": 999_999, "what": what], socket: d.socket, asUser: bob)
            #expect(Self.code(hidden) == "no_such_photo" && Self.code(never) == "no_such_photo" && hidden["fds"] as? Int == 0,
                    "\(hidden)")
            let refused = try Self.open(["photo": alices, "what": what], socket: d.socket, asUser: bob)
            #expect(Self.code(refused) == "permission_denied" && refused["fds"] as? Int == 0, "\(refused)")
        }
        let his = try Self.open(["photo": open, "what": "original"], socket: d.socket, asUser: bob)
        let hisSum = try Self.sha256(share + "/public/open.jpg")
        #expect(his["sha256"] as? String == hisSum && his["writable"] as? Bool == false, "\(his)")
        let hers = try Self.open(["photo": secret, "what": "original"], socket: d.socket, asUser: alice)
        let hersSum = try Self.sha256(share + "/alice/secret.jpg")
        #expect(hers["sha256"] as? String == hersSum, "\(hers)")

        // Over HTTP: bob's own gateway. A private photo of alice's is the same 404 as
        // an id never given; bytes come only of what he may read.
        let web = try WebGatewayProcess(d, command: ["/usr/bin/setpriv", "--reuid=\(bob.name)", "--regid=\(bob.gid)", "--init-groups",
                                                     WebGatewayProcess.binary, "--socket", d.socket])
        let cookie = ["Cookie": "curator_session=" + (try web.signIn())]
        let hidden = try web.request("GET", "/photo/\(secret)/original", headers: cookie)
        let never = try web.request("GET", "/photo/999999/original", headers: cookie)
        #expect(hidden.status == 404 && never.status == 404 && hidden.errorCode == "no_such_photo" && never.errorCode == "no_such_photo",
                "\(hidden) \(never)")
        // Key order in a dictionary's description is not fixed: compare sorted JSON.
        func text(_ error: Any?, naming id: String) throws -> String {
            let data = try JSONSerialization.data(withJSONObject: error ?? [:], options: [.sortedKeys])
            return String(decoding: data, as: UTF8.self).replacingOccurrences(of: id, with: "N")
        }
        let hiddenError = try text(hidden.json["error"], naming: "\(secret)")
        #expect(hiddenError == (try text(never.json["error"], naming: "999999")), "\(hiddenError)")
        let refused = try web.request("GET", "/photo/\(alices)/normal", headers: cookie)
        #expect(refused.status == 403 && refused.errorCode == "permission_denied", "\(refused)")
        let mine = try web.request("GET", "/photo/\(open)/original", headers: cookie)
        let openSum = try Self.sha256(share + "/public/open.jpg")
        #expect(mine.status == 200 && mine.sha256 == openSum, "\(mine)")
        let thumbnail = try web.request("GET", "/photo/\(open)/normal", headers: cookie)
        #expect(thumbnail.status == 200 && thumbnail.header("Content-Type") == "image/png", "\(thumbnail)")
    }
}
