// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// The files of the state directory as the daemon leaves them: private whatever
/// the umask, and a journal this version cannot read refused whole at start-up.
@Suite(.serialized)
struct StateFilesTests {
    /// A journal holding a state this version does not know stops the start with the
    /// table, row and value named, and is left byte for byte as it was.
    @Test func aJournalWithAnUnknownStateStopsTheStartAndIsLeftAlone() throws {
        let d = Daemon()
        _ = try PhotoSet.make(in: d.root(), count: 2)
        try d.start()
        let c = try d.client()
        try c.select("1")
        #expect(try c.deleteSelection()["trashed"] as? Int == 1)
        #expect(d.stop() == 0)

        let journal = d.stateDir + "/journal.sqlite"
        let edit = try Tool.run("/usr/bin/sqlite3", [journal, "UPDATE items SET state = 'flying' WHERE batch = 1 AND step = 1"])
        try #require(edit.status == 0, "sqlite3: \(edit.stderr)")
        let before = try Data(contentsOf: URL(fileURLWithPath: journal))

        #expect(throws: HarnessError.self) { try d.start() }
        d.stop()
        #expect(d.logText.contains("journal.sqlite: items row batch 1, step 1: state \"flying\" is not one this curatord knows"),
                "\(d.logText)")
        #expect(d.logText.contains("the journal is left as it is"))
        #expect(!d.logText.contains("recovered batch"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: journal)) == before, "the journal is untouched")
    }
}
