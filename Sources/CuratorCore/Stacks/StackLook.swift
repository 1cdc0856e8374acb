// SPDX-License-Identifier: GPL-2.0-or-later

/// A photo's measures as the index keeps them (`stack_looks`), with the size and
/// mtime of the file they were made of: when either changes they are no longer
/// the photo's, and its thumbnails are measured again.
struct StackLook: Equatable, Sendable {
    var size: Int64
    var mtimeNs: Int64
    /// The difference hash of the `normal` thumbnail (`ThumbnailLook.dhash`).
    var dHash: UInt64
    /// The variance of the Laplacian of the `large` thumbnail: larger is sharper.
    var sharpness: Double
    /// The camera (`CameraKey`): 0 when the file records none.
    var camera: UInt64

    func valid(size: Int64, mtimeNs: Int64) -> StackLook? {
        self.size == size && self.mtimeNs == mtimeNs ? self : nil
    }
}
