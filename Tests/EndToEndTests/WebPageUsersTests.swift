// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// The page (`web/`, issue 52) through the system service: the real `curatord-web
/// --system` as its own user, in front of the real daemon as its service user, and real
/// users (useradd) signing in with their web passwords on the page's form, each in a
/// headless Chromium of their own (Tests/web/users_page_test.py). bob never sees alice's
/// private folder or its photo (folder list, grid, the photo's address typed), a shared
/// folder shows to both and alice's trash of a shared photo leaves bob's grid live; a
/// session that expires sends the page to the sign-in form, and signing in again finds
/// the selection where it was.
@Suite(.serialized)
struct WebPageUsersTests {
    static let script = Command.packageRoot + "/Tests/web/users_page_test.py"

    /// WebService's setting, and in its root `shared/` (the family's, 2775) with
    /// IMG_0001 and IMG_0003 (alice's) and IMG_0002 (bob's), all 0644, and `private/`
    /// (alice's, 0700) with IMG_0004 (0600): camera JPEGs made by sample_photos.py.
    static func service(idleSeconds: Int? = nil) throws -> WebService {
        try WebService(idleSeconds: idleSeconds) { attack, pics in
            let base = attack.d.home.sub("base.jpg")
            let made = try Command.run("/usr/bin/python3", [WebPageTests.samples, "jpeg", base, "--width", "1200", "--height", "800",
                                                            "--texture-cache", attack.d.home.path])
            guard made.status == 0 else { throw HarnessError("sample_photos.py: \(made.stderr)") }
            let jpeg = Array(try Data(contentsOf: URL(fileURLWithPath: base)))
            attack.familyFolder(pics + "/shared")
            attack.owned(pics + "/private", by: attack.alice, mode: 0o700)
            let files: [(String, ServiceAttack.User, mode_t)] = [
                ("shared/IMG_0001.JPG", attack.alice, 0o644), ("shared/IMG_0002.JPG", attack.bob, 0o644),
                ("shared/IMG_0003.JPG", attack.alice, 0o644), ("private/IMG_0004.JPG", attack.alice, 0o600),
            ]
            for (n, (name, owner, mode)) in files.enumerated() {
                let path = pics + "/" + name
                try Data(WebPageTests.commented(jpeg, "photo \(n + 1)")).write(to: URL(fileURLWithPath: path))
                chown(path, owner.uid, owner.gid)
                chmod(path, mode)
            }
        }
    }

    /// The id of the photo at `path` in the root, as root sees it.
    static func id(_ path: String, _ service: WebService) throws -> Int {
        let listed = try Client(service.d.socket).result(["cmd": "list", "fields": ["id", "path"]])
        let photos = listed["photos"] as? [[String: Any]] ?? []
        guard let id = photos.first(where: { $0["path"] as? String == path })?["id"] as? Int else {
            throw HarnessError("no \(path) in \(photos)")
        }
        return id
    }

    static func run(_ scenario: String, _ service: WebService, _ extra: [String]) throws {
        let web = try WebGatewayProcess(system: service.d, user: service.gateway.name, web: Command.packageRoot + "/web")
        let arguments = [script, "--scenario", scenario, "--base", "http://127.0.0.1:\(web.port)", "--root", service.d.root(),
                         "--alice", service.attack.alice.name, "--alice-password", WebService.passwords["alice"] ?? "",
                         "--bob", service.attack.bob.name, "--bob-password", WebService.passwords["bob"] ?? "",
                         "--screenshots", WebPageTests.screenshots()] + extra
        var environment = service.d.environment
        environment["HOME"] = service.d.home.path
        let out = try Command.run("/usr/bin/python3", arguments, environment: environment, timeout: 170)
        print(out.stdout)
        #expect(out.status == 0, "users_page_test.py \(scenario) exited \(out.status):\n\(out.stdout)\n\(out.stderr)\ngateway: \(web.log)")
        #expect(out.stdout.contains("step: done"), "\(out.stdout)")
    }

    @Test(.timeLimit(.minutes(4))) func bobNeverSeesAlicesPrivateFolderAndSeesHerTrashOfASharedPhotoLive() throws {
        guard WebService.available else { return print("skipped: needs root, useradd, setpriv, socat") }
        let service = try Self.service()
        defer { service.stop() }
        let privateID = try Self.id("private/IMG_0004.JPG", service)
        try Self.run("users", service, ["--private-id", String(privateID)])
    }

    @Test(.timeLimit(.minutes(3))) func anExpiredSessionSendsThePageToTheSignInFormAndSigningInAgainResumes() throws {
        guard WebService.available else { return print("skipped: needs root, useradd, setpriv, socat") }
        let idle = 4
        let service = try Self.service(idleSeconds: idle)
        defer { service.stop() }
        try Self.run("expiry", service, ["--idle", String(idle)])
    }
}
