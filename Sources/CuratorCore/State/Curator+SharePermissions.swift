// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

extension Curator {
    /// Folders of share roots read per hold of the state lock.
    static let sharePermissionsPerHold = 64

    /// Starts the reader of share folders' permissions (`FolderAccess`), under the
    /// state lock: it reads them off the lock, where a stat on a hung share holds
    /// only its own thread, and hands them back a few at a time. False when it
    /// could not be started (shut down, no thread): it is asked again at the next hold.
    func startSharePermissionReader() -> Bool {
        do {
            try sharePermissionReader.submit(whenFull: .refuse) { [self] in
                while true {
                    let batch = withState { $0.access.nextWanted(limit: Self.sharePermissionsPerHold) }
                    if batch.isEmpty { return }
                    let found = batch.map { (key: $0.key, permissions: FolderAccess.readOffLock($0.path)) }
                    withState { $0.access.storeRead(found) }
                }
            }
            return true
        } catch {
            return false
        }
    }
}
