// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Issue 54, item 6: with the roots' parent writable by the family (what the README
/// once advised), the attacker renames the root away and puts a symlink to a
/// root-only folder in its place. The daemon, which may read that folder
/// (CAP_DAC_OVERRIDE), must not crawl it nor write its sync cookie there: the root
/// is offline, and stays so while another folder stands at its path.
@Suite(.serialized)
struct RootReplacedTests {
    @Test func aRootReplacedByASymlinkIsOfflineAndNeverCrawled() throws {
        guard ServiceAttack.available, Tool.exists("/usr/bin/inotifywait") else {
            print("skipped: needs root, useradd, setpriv and inotifywait")
            return
        }
        let attack = try ServiceAttack(roots: [], config: { d in
            "{ roots: [ { name: \"pics\", path: \"\(d.home.sub("parent"))/pics\" } ] }"
        })
        defer { attack.stop() }
        let parent = attack.d.home.sub("parent")
        attack.familyFolder(parent)
        attack.familyFolder(parent + "/pics")
        attack.owned(parent + "/pics/a.jpg", by: attack.alice, mode: 0o644, contents: "alice's photo")
        let secret = attack.d.home.mkdir("secret")
        chmod(secret, 0o700)
        Files.write(secret + "/hidden.jpg", "root's private photo")
        chmod(secret + "/hidden.jpg", 0o600)
        try attack.start()
        let c = try attack.d.client()
        try attack.d.explainingFailures {
            try eventually(timeout: 20, "a.jpg indexed") { try c.idsByPath()["a.jpg"] != nil }
        }

        // Every name made in the root-only folder from now on.
        let created = attack.d.home.sub("created.txt")
        let watch = try BackgroundCommand(["/usr/bin/inotifywait", "-m", "-e", "create", "-e", "moved_to", "--format", "%f", secret],
                                          environment: [:], output: created)
        usleep(300_000)  // inotifywait's watches are set up
        let swap = try attack.run("mv '\(parent)/pics' '\(parent)/pics.away' && ln -s '\(secret)' '\(parent)/pics'", as: attack.alice)
        #expect(swap.status == 0, "the attacker's swap: \(swap.stderr)")
        _ = try? c.request(["cmd": "sync", "timeout_ms": 3000])
        try eventually(timeout: 10, "pics to go offline") { try c.rootStatus("pics")["online"] as? Bool == false }
        // Time for a crawl through the symlink, if there were one; and a sync meanwhile.
        _ = try? c.request(["cmd": "sync", "timeout_ms": 2000])
        usleep(1_500_000)
        let made = watch.finish(timeout: 0).output
        let paths = try c.idsByPath().keys.sorted()
        #expect(!paths.contains { $0.contains("hidden.jpg") }, "the root-only folder was crawled: \(paths)")
        #expect(!made.contains(".curatord-cookie"), "a sync cookie was written in the root-only folder: \(made)")
        #expect(paths.contains("a.jpg"), "its photos stay indexed, offline: \(paths)")
        // Gone for a moment between the rename and the symlink, then another folder: offline either way.
        let status = try c.rootStatus("pics")
        #expect(status["online"] as? Bool == false, "\(status)")
    }
}
