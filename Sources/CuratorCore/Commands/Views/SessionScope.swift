// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// What the session commands (`select`, `deselect`, `toggle`, `clear`, `mode`,
/// `view`, `selection`) may do: read and change sessions, resolve what a request
/// names in a session's view, and show a session. Nothing of plans, batches, the
/// trash or the watcher: a selection command cannot reach them. `CuratorState`
/// is it; a test gives the commands a small fake (`SessionCommandTests`).
protocol SessionScope: AnyObject {
    var config: Configuration { get }
    func session(_ key: SessionKey) -> SessionState
    @discardableResult
    func commit(_ state: SessionState, for key: SessionKey, replacing old: SessionState,
                origin: ObjectIdentifier?) throws(ProtocolError) -> String?
    func selectionLimit(for key: SessionKey) -> SelectionLimit
    func sessionResult(_ key: SessionKey, _ state: SessionState, change: SelectionChange?) -> SessionResult
    /// Throws when the view names no root or folder the user has.
    func checkView(_ spec: ViewSpec, uid: UInt32) throws(ProtocolError)
    func resolveSelector(_ selector: PhotoSelector, view: ViewSpec, uid: UInt32) throws(ProtocolError) -> [Int64]
    func duplicateRest(view: ViewSpec, selection: OrderedSelection, uid: UInt32) throws(ProtocolError) -> DuplicateRestChoice
    func stackRest(view: ViewSpec, selection: OrderedSelection, uid: UInt32) throws(ProtocolError) -> DuplicateRestChoice
    /// Those of `ids` (as listed) in a protected folder.
    func protectedPhotos(among ids: [Int64]) -> [Int64]
    /// A listed photo's path in its root, for messages.
    func listedPath(of id: Int64) -> String?
    func hiddenSelected(_ state: SessionState) -> Set<Int64>
    func selectedTotals(_ state: SessionState) -> (bytes: Int64, orphans: Int?)
    func selectionItems(_ state: SessionState, hidden: Set<Int64>, uid: UInt32) -> [SelectionItem]
}

extension CuratorState: SessionScope {
    func checkView(_ spec: ViewSpec, uid: UInt32) throws(ProtocolError) {
        _ = try resolve(spec, uid: uid)
    }

    func protectedPhotos(among ids: [Int64]) -> [Int64] {
        roots.facts.mayProtect.isEmpty ? [] : ids.filter { id in library.listed(id).map(isProtected) ?? false }
    }

    func listedPath(of id: Int64) -> String? {
        library.listed(id).map { library.relativePath(of: $0).lossyString }
    }
}

extension StateCommand where View == any SessionScope {
    static func view(of state: CuratorState) -> any SessionScope { state }
}
