// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import CuratorTestSupport
import Testing

/// A curator with one root, `pics`, whose folder `a` holds files the test writes
/// and reconciles as a scan would, the scan then done: what the background
/// readers' plans (hashes, marks) start from.
struct ScannedFolderFixture {
    let scratch: ScratchDirectory
    let curator: Curator
    let rootID: Int32

    init() throws {
        scratch = try ScratchDirectory()
        _ = try scratch.write(ByteString("root/.keep"), [])
        let config = Configuration(roots: [RootConfig(name: "pics", path: scratch.child("root"))], socketPath: scratch.child("s"),
                                   stateDirectory: scratch.path, homeTrash: scratch.child("trash"))
        curator = try Curator(config: config)
        _ = try curator.recoverJournal()
        rootID = try #require(curator.withState { $0.rootID(named: "pics") })
    }

    /// JPEGs named `names` written into `a/`, each with content of its own, as a scan reads them.
    func write(_ names: [String]) throws -> [ScannedFile] {
        try names.map { name in
            let path = try scratch.write(ByteString("root/a/" + name), Array("photo \(name)".utf8))
            return ScannedFile(name: ByteString(name), status: try FileStatus.of(path), type: .jpeg)
        }
    }

    /// Folder `a` reconciled as holding `files`, the root's scan done and its watching decided.
    func reconcile(_ files: [ScannedFile], in state: CuratorState) throws {
        var seen = IDSet()
        _ = try state.reconcile(root: rootID, directory: ByteString("a"), files: files, complete: true,
                                deferRemovals: false, seen: &seen)
        state.roots[rootID]?.scanning = false
        state.roots[rootID]?.watchingDecided = true
    }
}
