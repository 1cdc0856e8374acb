// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// The gateway keeps files the daemon passed for versioned addresses a few seconds
/// (issue 51, OpenFileCache): never for another daemon user, never past a logout, never
/// once the file is no longer the one the daemon opened.
@Suite(.serialized)
struct WebPhotoCacheTests {
    /// The version in a photo's ETag (`"<id>-<what>-<version>"`).
    static func version(_ answer: WebGatewayProcess.Answer, id: Int, what: String) -> String? {
        guard let tag = answer.header("ETag") else { return nil }
        let prefix = "\"\(id)-\(what)-"
        guard tag.hasPrefix(prefix) else { return nil }
        return String(tag.dropFirst(prefix.count).dropLast())
    }

    @Test func aKeptFileReplacedSinceIsNeverServed() throws {
        let (d, _, ids) = try WebPhotoTests.daemon()
        let one = try #require(ids["one.jpg"])
        let path = d.root() + "/one.jpg"
        let web = try WebGatewayProcess(d)
        let cookie = ["Cookie": "curator_session=" + (try web.signIn())]
        let first = try web.request("GET", "/photo/\(one)/original", headers: cookie)
        let version = try #require(Self.version(first, id: one, what: "original"), "\(first.headers)")
        let address = "/photo/\(one)/original?v=\(version)"
        let kept = try web.request("GET", address, headers: cookie)
        let oldSum = try WebPhotoTests.sha256(path)
        #expect(kept.status == 200 && kept.sha256 == oldSum, "\(kept)")

        // Another photo put in its place by a rename, as editors and sync tools do.
        let staged = d.root() + "/.staged.jpg"
        try ThumbnailTests.sample(["marker", staged, "--width", "300", "--height", "200"])
        #expect(rename(staged, path) == 0)
        let newSum = try WebPhotoTests.sha256(path)
        #expect(newSum != oldSum)
        let again = try web.request("GET", address, headers: cookie)
        #expect(again.sha256 != oldSum, "the replaced file was served from the gateway's cache")
        #expect(again.status != 200 || again.sha256 == newSum, "\(again)")
    }

    /// The window `--keep-files` leaves, and that 0 closes it: a photo moved out of its
    /// root is still the same open file, so only asking the daemon sees it gone.
    @Test func keepFilesZeroAsksTheDaemonEveryTime() throws {
        let (d, client, ids) = try WebPhotoTests.daemon()
        let one = try #require(ids["one.jpg"])
        let kept = try WebGatewayProcess(d)
        let strict = try WebGatewayProcess(d, arguments: ["--keep-files", "0"])
        var signedIn: [(web: WebGatewayProcess, cookie: [String: String], address: String)] = []
        for web in [kept, strict] {
            let cookie = ["Cookie": "curator_session=" + (try web.signIn())]
            let first = try web.request("GET", "/photo/\(one)/original", headers: cookie)
            let version = try #require(Self.version(first, id: one, what: "original"), "\(first.headers)")
            let address = "/photo/\(one)/original?v=\(version)"
            #expect(try web.request("GET", address, headers: cookie).status == 200)
            signedIn.append((web, cookie, address))
        }
        #expect(rename(d.root() + "/one.jpg", d.home.sub("moved-away.jpg")) == 0)
        let deadline = Date().addingTimeInterval(10)
        while (try client.idsByPath())["one.jpg"] != nil, Date() < deadline { usleep(50_000) }
        #expect((try client.idsByPath())["one.jpg"] == nil, "the daemon never saw the photo go")

        let fromKept = try kept.request("GET", signedIn[0].address, headers: signedIn[0].cookie)
        #expect(fromKept.status == 200, "within --keep-files the kept file goes to the session that had it: \(fromKept.status)")
        let fromStrict = try strict.request("GET", signedIn[1].address, headers: signedIn[1].cookie)
        #expect(fromStrict.status == 404 && fromStrict.errorCode == "no_such_photo", "\(fromStrict)")
    }

    @Test func aKeptFileGoesToNoOtherUserAndNotPastALogout() throws {
        guard WebService.available else { return print("skipped: needs root, useradd, setpriv, socat") }
        let service = try WebService()
        defer { service.stop() }
        let ids = try service.photoIDs()
        let web = try WebGatewayProcess(system: service.d, user: service.gateway.name)
        let bob = try #require(try web.logIn(service.attack.bob.name, WebService.passwords["bob"] ?? "").cookie)
        let alice = try #require(try web.logIn(service.attack.alice.name, WebService.passwords["alice"] ?? "").cookie)

        let first = try web.request("GET", "/photo/\(ids.bob)/original", headers: ["Cookie": "curator_session=" + bob])
        let version = try #require(Self.version(first, id: ids.bob, what: "original"), "\(first.status) \(first.body)")
        let address = "/photo/\(ids.bob)/original?v=\(version)"
        let his = try web.request("GET", address, headers: ["Cookie": "curator_session=" + bob])
        #expect(his.status == 200 && his.body.contains("bob's private photo"), "\(his)")

        // alice asks for the very address bob's session just had: the daemon answers her.
        let hers = try web.request("GET", address, headers: ["Cookie": "curator_session=" + alice])
        #expect(hers.status == 404 && hers.errorCode == "no_such_photo" && !hers.body.contains("bob's private"), "\(hers)")

        // bob signs out: his cookie, replayed, gets nothing, kept or not.
        #expect(try web.api("logout", cookie: bob).status == 200)
        let replayed = try web.request("GET", address, headers: ["Cookie": "curator_session=" + bob])
        #expect(replayed.status == 401 && !replayed.body.contains("bob's private"), "\(replayed)")
    }
}
