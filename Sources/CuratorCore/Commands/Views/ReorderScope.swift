// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// What `reorder` may do: read a session, resolve its view, and renumber photos
/// of the index (which voids the cached views).
protocol ReorderScope: AnyObject {
    var library: PhotoLibrary { get }
    var viewCache: ViewCache { get set }
    func session(_ key: SessionKey) -> SessionState
    func resolve(_ spec: ViewSpec, uid: UInt32) throws(ProtocolError) -> ViewIDs
}

extension CuratorState: ReorderScope {}

extension StateCommand where View == any ReorderScope {
    static func view(of state: CuratorState) -> any ReorderScope { state }
}
