// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Issue 54, item 7: sync cookies had predictable names (`.curatord-cookie-PID-N`);
/// a family member who made 3 000 of them first in a root broke everyone's `sync`.
/// Names are random now, and one found taken is drawn again (O_EXCL never opens hers).
@Suite(.serialized)
struct CookieNameTests {
    @Test func preMadeCookieNamesDoNotBreakSync() throws {
        guard ServiceAttack.available else {
            print("skipped: needs root, useradd and setpriv")
            return
        }
        let attack = try ServiceAttack(config: { d in "{ roots: [ { name: \"pics\", path: \"\(d.root())\" } ] }" })
        defer { attack.stop() }
        let root = attack.d.root()
        attack.familyFolder(root)
        attack.owned(root + "/a.jpg", by: attack.alice, mode: 0o644, contents: "alice's photo")
        try attack.start()
        let pid = try #require(attack.d.process?.processIdentifier)
        let made = try attack.run("cd '\(root)' && i=1; while [ $i -le 3000 ]; do : > .curatord-cookie-\(pid)-$i; i=$((i+1)); done",
                                  as: attack.alice)
        #expect(made.status == 0, "\(made.stderr)")
        let c = try attack.d.client()
        var failed: [String] = []
        for _ in 0..<20 {
            let answer = try c.request(["cmd": "sync", "timeout_ms": 5000])
            let result = answer["result"] as? [String: Any]
            if result?["synced"] as? Bool != true { failed.append("\(answer)") }
        }
        #expect(failed.isEmpty, "\(failed.count) of 20 syncs failed: \(failed.first ?? "")")
    }
}
