// SPDX-License-Identifier: GPL-2.0-or-later

/// What the server commands may read under the lock: the roots, their scans,
/// and the status of everything as a user sees it.
protocol RootLookupScope: AnyObject {
    var roots: RootRegistry { get }
    var rootOrder: [Int32] { get }
    var scanEnds: ScanEnds { get }
    func rootName(_ id: Int32) -> String
    func statusSnapshot(uid: UInt32) -> StatusSnapshot
}

extension CuratorState: RootLookupScope {}
