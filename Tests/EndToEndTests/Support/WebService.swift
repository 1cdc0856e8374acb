// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc

/// The system web gateway's setting (issue 51): curatord as its service user, a family
/// group that may use its socket (root:family... 0660, as the system unit makes it), a
/// gateway user in that group (`web_gateway_user`), alice and bob in it too, and an
/// outsider who is not. In the root `pics`: alice's photo (0644) and bob's private one
/// (`bob/private.jpg`, in his folder 0700). alice and bob have web passwords; so has the outsider, set while the socket
/// was still open to all.
final class WebService {
    let attack: ServiceAttack
    let gateway: ServiceAttack.User
    let outsider: ServiceAttack.User
    var d: Daemon { attack.d }
    static let passwords = ["alice": "alice's web password", "bob": "bob's web password", "outsider": "outsider's password"]

    static var available: Bool { ServiceAttack.available && Tool.exists("/usr/bin/socat") }

    /// `extra`: more top-level settings, as JSON5 (`max_clients_per_user: 2`);
    /// `prepare`: more files in the root (its path given), made before the daemon starts.
    init(idleSeconds: Int? = nil, maxSeconds: Int? = nil, extra: String? = nil,
         prepare: ((ServiceAttack, String) throws -> Void)? = nil) throws {
        attack = try ServiceAttack()
        guard let family = getgrgid(attack.familyGID).map({ String(cString: $0.pointee.gr_name) }) else {
            throw HarnessError("no family group")
        }
        gateway = try attack.users.user("aweb", groups: [family])
        outsider = try attack.users.user("aout")
        let pics = attack.d.roots["pics"] ?? attack.d.home.sub("pics")
        var config = "{ roots: [ { name: \"pics\", path: \"\(pics)\" } ], web_gateway_user: \"\(gateway.name)\""
        if let idleSeconds { config += ", web_session_idle_seconds: \(idleSeconds)" }
        if let maxSeconds { config += ", web_session_max_seconds: \(maxSeconds)" }
        if let extra { config += ", " + extra }
        let path = attack.d.home.sub("curatord.json5")
        Files.write(path, config + " }")
        attack.d.configPath = path
        attack.familyFolder(pics)
        attack.owned(pics + "/alice.jpg", by: attack.alice, mode: 0o644, contents: "alice's photo")
        attack.owned(pics + "/bob", by: attack.bob, mode: 0o700)
        attack.owned(pics + "/bob/private.jpg", by: attack.bob, mode: 0o600, contents: "bob's private photo")
        try prepare?(attack, pics)
        try attack.start()
        for (user, key) in [(attack.alice, "alice"), (attack.bob, "bob"), (outsider, "outsider")] {
            let set = try setPassword(Self.passwords[key] ?? "", as: user)
            guard set.status == 0 else { throw HarnessError("web passwd as \(key): \(set.stdout) \(set.stderr)") }
        }
        // From now on the socket is the family's only, as the system unit makes it.
        chown(d.socket, attack.service.uid, attack.familyGID)
        chmod(d.socket, 0o660)
    }

    func stop() { attack.stop() }

    @discardableResult
    func setPassword(_ password: String, as user: ServiceAttack.User) throws -> (status: Int32, stdout: String, stderr: String) {
        try attack.run("printf '%s\\n' '\(password.replacingOccurrences(of: "'", with: "'\\''"))' | \(Daemon.curatorctl) --socket \(d.socket) web passwd --stdin",
                       as: user)
    }

    /// A connection of the gateway's user to the daemon.
    func gatewayConnection() throws -> UserConnection { try d.client(asUser: gateway.name) }

    /// The ids of alice's and bob's photos, as root sees them.
    func photoIDs() throws -> (alice: Int, bob: Int) {
        let root = try Client(d.socket)
        let listed = try root.result(["cmd": "list", "fields": ["id", "path"]])
        let photos = listed["photos"] as? [[String: Any]] ?? []
        func id(_ name: String) throws -> Int {
            guard let id = photos.first(where: { $0["path"] as? String == name })?["id"] as? Int else {
                throw HarnessError("no \(name) in \(photos)")
            }
            return id
        }
        return (try id("alice.jpg"), try id("bob/private.jpg"))
    }
}
