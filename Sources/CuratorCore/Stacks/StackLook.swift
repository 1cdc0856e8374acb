// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// A photo's measures as the index keeps them (`stack_looks`), with a check of the
/// size and mtime of the file they were made of: when either changes they are no
/// longer the photo's, and its thumbnails are measured again. Kept as narrow as the
/// stack search allows (`StackLookChunk`), and held in memory as stored, so that a
/// restart orders frames as before: the sharpness on a log scale, the camera in 32 bits.
struct StackLook: Equatable, Sendable {
    /// `StackLook.fileCheck(size:mtimeNs:)` of the file measured; never 0.
    var fileCheck: UInt32
    /// The difference hash of the `normal` thumbnail (`ThumbnailLook.dhash`).
    var dHash: UInt64
    /// `sharpnessLevel` of the variance of the Laplacian of the `large` thumbnail:
    /// larger is sharper.
    var sharpnessLevel: UInt16
    /// The camera (`CameraKey`): `CameraKey.unknown` when the file records none.
    var camera: UInt32

    init(fileCheck: UInt32, dHash: UInt64, sharpnessLevel: UInt16, camera: UInt32) {
        self.fileCheck = fileCheck == 0 ? 1 : fileCheck
        self.dHash = dHash
        self.sharpnessLevel = sharpnessLevel
        self.camera = camera
    }

    init(size: Int64, mtimeNs: Int64, dHash: UInt64, sharpness: Double, camera: UInt32) {
        self.init(fileCheck: Self.fileCheck(size: size, mtimeNs: mtimeNs), dHash: dHash,
                  sharpnessLevel: Self.sharpnessLevel(sharpness), camera: camera)
    }

    /// The variance of the Laplacian as stored: a step of the scale is a tiny
    /// fraction of it, so frames are ordered as the measure orders them unless
    /// they are that close.
    var sharpness: Double { exp2(Double(sharpnessLevel) / Self.levelsPerDoubling) - 1 }

    func valid(size: Int64, mtimeNs: Int64) -> StackLook? {
        fileCheck == Self.fileCheck(size: size, mtimeNs: mtimeNs) ? self : nil
    }

    /// 32 bits of XXH3 of the size and mtime: a file that changed keeps measures
    /// not its own only when it lands on the same 32 bits, and then only a stack's
    /// look is off. Never 0, which marks an empty slot.
    static func fileCheck(size: Int64, mtimeNs: Int64) -> UInt32 {
        let words = [UInt64(bitPattern: size).littleEndian, UInt64(bitPattern: mtimeNs).littleEndian]
        let hash = words.withUnsafeBytes { ContentHash(of: $0) }
        let check = UInt32(truncatingIfNeeded: hash.low)
        return check == 0 ? 1 : check
    }

    /// log2(1 + variance) in steps of 1/2048: variances from 0 to 2^32 (a Laplacian
    /// of 8-bit pixels stays far below) in 16 bits, ordered as the variances are.
    static let levelsPerDoubling = 2048.0

    static func sharpnessLevel(_ variance: Double) -> UInt16 {
        guard variance.isFinite, variance > 0 else { return 0 }
        return UInt16(min(Double(UInt16.max), (log2(1 + variance) * levelsPerDoubling).rounded()))
    }
}
