// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// What `delete.prepare` may do: read a session and the photos it names as their
/// owner sees them, place them in its view, and add a plan; it cannot move a file.
protocol PlanScope: AnyObject {
    var config: Configuration { get }
    var library: PhotoLibrary { get }
    var roots: RootRegistry { get }
    var plans: DeletePlans { get set }
    func session(_ key: SessionKey) -> SessionState
    func maySee(_ photo: Photo, uid: UInt32) -> Bool
    func isProtected(_ photo: Photo) -> Bool
    func positions(of photos: [Int64: Photo], inView spec: ViewSpec, uid: UInt32) throws(ProtocolError) -> [Int64: Int]
    func filesToTrash(of photo: Photo, only: MemberKind?) -> [Photo]
    func wirePath(_ path: ByteString) -> WirePath
    func planFile(_ photo: Photo) -> PlanFile
}

extension CuratorState: PlanScope {}

extension StateCommand where View == any PlanScope {
    static func view(of state: CuratorState) -> any PlanScope { state }
}
