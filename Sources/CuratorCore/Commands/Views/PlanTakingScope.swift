// SPDX-License-Identifier: GPL-2.0-or-later

/// What `delete.confirm` may do under the lock: take a waiting plan (checked
/// against its session) and see whether its photos are protected now.
protocol PlanTakingScope: AnyObject {
    var library: PhotoLibrary { get }
    var plans: DeletePlans { get set }
    func session(_ key: SessionKey) -> SessionState
    func isProtected(_ photo: Photo) -> Bool
}

extension CuratorState: PlanTakingScope {}
