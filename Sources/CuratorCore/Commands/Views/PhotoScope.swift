// SPDX-License-Identifier: GPL-2.0-or-later

/// What the photo commands (`thumbnail`, `photo.info`, `rate`) may do: look
/// photos up under the lock and ask for thumbnails; the files themselves they
/// read and write outside it, as the caller.
protocol PhotoScope: AnyObject, Sendable {
    /// Runs `body` under the state lock.
    func withPhotos<R, E: Error>(_ body: (any PhotoLookupScope) throws(E) -> R) throws(E) -> R
    func ringThumbnailDoorbell()
}

extension Curator: PhotoScope {
    func withPhotos<R, E: Error>(_ body: (any PhotoLookupScope) throws(E) -> R) throws(E) -> R {
        try withState { (state) throws(E) -> R in try body(state) }
    }
}

extension CuratorCommand where View == any PhotoScope {
    static func view(of curator: Curator) -> any PhotoScope { curator }
}
