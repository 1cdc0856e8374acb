// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// The files of the state directory as the daemon leaves them: private whatever
/// the umask, and a journal this version cannot read refused whole at start-up.
@Suite(.serialized)
struct StateFilesTests {
    static let stateFiles = ["index.sqlite", "index.sqlite-wal", "index.sqlite-shm",
                             "journal.sqlite", "journal.sqlite-wal", "journal.sqlite-shm"]

    static func modes(_ directory: String) -> [String: String] {
        var result: [String: String] = [:]
        for name in stateFiles {
            var st = stat()
            result[name] = lstat(directory + "/" + name, &st) == 0 ? "0" + String(st.st_mode & 0o777, radix: 8) : "missing"
        }
        return result
    }

    /// Started by hand with umask 022, the daemon still makes every state file 0600:
    /// the index, the journal and the -wal and -shm files SQLite adds beside them.
    /// Files left 0644 by an earlier version are made 0600 at the next start.
    @Test func stateFilesArePrivateWhateverTheUmask() throws {
        let d = Daemon()
        d.wrapper = ["/bin/sh", "-c", "umask 022; exec \"$0\" \"$@\""]
        _ = try PhotoSet.make(in: d.root(), count: 3)
        try d.start()
        let c = try d.client()
        try c.select("1")
        #expect(try c.deleteSelection()["trashed"] as? Int == 1)
        let owner = Dictionary(uniqueKeysWithValues: Self.stateFiles.map { ($0, "0600") })
        #expect(Self.modes(d.stateDir) == owner, "while running")
        #expect(d.stop() == 0)

        for name in Self.stateFiles { chmod(d.stateDir + "/" + name, 0o644) }
        try d.start()
        let again = try d.client()
        try again.select("1")
        #expect(try again.deleteSelection()["trashed"] as? Int == 1)
        #expect(Self.modes(d.stateDir) == owner, "after a start over files an older version left 0644")
        #expect(d.stop() == 0)
    }

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
