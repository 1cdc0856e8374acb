// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import Testing

/// `ShotKeys` reads from a name's bytes the bases `ShotName.keys` spells out as
/// strings: the regrouping of a folder trusts it to tell which names can group
/// with another, so it must agree with `ShotName` on every name.
@Suite struct ShotKeysTests {
    /// The keys `ShotName` gives, as digests; nil where it gives none.
    private func expected(_ name: ByteString) -> [UInt64]? {
        let keys = ShotName.keys(of: name)
        return keys.isEmpty ? nil : keys.map(ShotKeys.digest)
    }

    private func isPhoto(_ name: ByteString) -> Bool {
        if case .photo = ShotName(name) { return true }
        return false
    }

    @Test func namedCasesAgreeWithShotName() {
        let names: [ByteString] = [
            "IMG_0001.JPG", "img_0001.jpg", "IMG_0001.jpeg", "IMG_0001.CR2", "IMG_0001.cr2", "IMG_0001.HEIC", "IMG_0001.MOV",
            "PXL_20241010_093012123.dng", "IMG_0001.xmp", "IMG_0001.XMP", "IMG_0001.AAE", "MVI_0001.THM", "b.pp3", "x.dop",
            "IMG_0001.CR2.xmp", "IMG_0001.cr2.XMP", "IMG_0001.JPG.xmp", "IMG_0001.CR2.pp3", "IMG_0001_01.CR2.xmp",
            "IMG_0001_12.CR2.xmp", "IMG_0001_123.CR2.xmp", "IMG_0001_1.CR2.xmp", "IMG_0001_1234.CR2.xmp",
            "IMG_0001_00.CR2.xmp", "IMG_0001_000.CR2.xmp", "IMG_0001_01.CR2.pp3", "_01.CR2.xmp", "a_01.CR2.xmp",
            "holiday.2024.xmp", "holiday.2024", "a.xmp.xmp", "a.b.jpg", "A.B.CR2", ".jpg", ".jpg.xmp", "..jpg", "a.",
            "a..xmp", "noext", "", ".", "notes.txt", "IMG_0001.JPG.bak", "a.jpegjpeg", "a.abcdefghi", "IMG_0001.TIFF",
            "IMG_0001.tif.xmp", "IMG_0001.GIF", "IMG_0001.mp4", "IMG_0001.webp", "x.avif",
            ByteString([0x49, 0xFF, 0x2E, 0x4A, 0x50, 0x47]),            // "I\xFF.JPG": not UTF-8
            ByteString([0xC3, 0x89, 0x2E, 0x6A, 0x70, 0x67]),            // "É.jpg": only ASCII folds
            ByteString([0xC3, 0xA9, 0x2E, 0x78, 0x6D, 0x70]),            // "é.xmp"
        ]
        for name in names {
            #expect(name.bytes.withUnsafeBufferPointer { ShotKeys.fileType($0)?.type } == PhotoType.detectFile(name: name),
                    "\(name.lossyString)")
            let keys = ShotKeys(name)
            #expect(keys?.digests == expected(name), "\(name.lossyString)")
            #expect(keys.map(\.isPhoto) ?? false == isPhoto(name), "\(name.lossyString)")
        }
    }

    @Test func everyNameOfACombinedAlphabetAgreesWithShotName() {
        // Names of up to four parts from pieces that exercise each rule: cases,
        // dots where an extension may or may not start, digits of darktable's
        // duplicates, every family of extension, and one too long.
        let parts: [[UInt8]] = ["IMG", "img", "_", "01", "123", "0", ".", ".JPG", ".jpg", ".CR2", ".xmp", ".XMP", ".aae",
                                ".mov", ".txt", ".jpegxxxx", "\u{e9}"].map { Array($0.utf8) }
        var checked = 0
        func walk(_ prefix: [UInt8], depth: Int) {
            let name = ByteString(prefix)
            let keys = ShotKeys(name)
            #expect(keys?.digests == expected(name), "\(name.lossyString)")
            // `ShotName` reads extensions as `ShotKeys` does: both against the string reading.
            #expect(name.bytes.withUnsafeBufferPointer { ShotKeys.fileType($0)?.type } == PhotoType.detectFile(name: name),
                    "\(name.lossyString)")
            #expect(keys.map(\.isPhoto) ?? false == isPhoto(name), "\(name.lossyString)")
            checked += 1
            guard depth < 4 else { return }
            for part in parts { walk(prefix + part, depth: depth + 1) }
        }
        walk([], depth: 0)
        #expect(checked > 80_000)
    }

    @Test func basesDifferingOnlyInASCIICaseShareADigest() {
        #expect(ShotKeys("IMG_0001.JPG")?.first == ShotKeys("img_0001.cr2")?.first)
        #expect(ShotKeys("IMG_0001.JPG")?.first == ShotKeys("img_0001.XMP")?.first)
        #expect(ShotKeys("IMG_0001_01.CR2.xmp")?.second == ShotKeys("IMG_0001.CR2")?.first)
        #expect(ShotKeys("IMG_0001.JPG")?.first != ShotKeys("IMG_0002.JPG")?.first)
        #expect(ShotKeys(ByteString([0xC3, 0x89, 0x2E, 0x6A, 0x70, 0x67]))?.first
                != ShotKeys(ByteString([0xC3, 0xA9, 0x2E, 0x6A, 0x70, 0x67]))?.first, "É and é are other bytes")
    }

    /// The digest reads eight bytes a step, folded to lower case as whole words: it
    /// must fold exactly the bytes `A`–`Z`, wherever they lie and whatever surrounds them.
    @Test func wordsFoldExactlyTheUpperCaseASCIILetters() {
        for byte in 0...255 {
            let folded = (65...90).contains(byte) ? byte + 32 : byte
            for shift in stride(from: 0, to: 64, by: 8) {
                for around: UInt64 in [0, 0x4141_4141_4141_4141, 0x5A5A_5A5A_5A5A_5A5A, 0xFFFF_FFFF_FFFF_FFFF, 0x4080_5B40_C1DA_7F60] {
                    let word = around & ~(0xFF << UInt64(shift)) | UInt64(byte) << UInt64(shift)
                    #expect(ShotKeys.lowercased(word) >> UInt64(shift) & 0xFF == UInt64(folded), "byte \(byte) at \(shift) in \(String(around, radix: 16))")
                }
            }
        }
        // Names of every length up to 40 and their case variants share a digest; other bytes do not.
        var random = SystemRandomNumberGenerator()
        var seen = Set<UInt64>()
        for length in 0...40 {
            for _ in 0..<50 {
                let bytes = (0..<length).map { _ in UInt8.random(in: 1...255, using: &random) }
                let lower = bytes.map { (65...90).contains($0) ? $0 + 32 : $0 }
                let upper = bytes.map { (97...122).contains($0) ? $0 - 32 : $0 }
                let digests = [bytes, lower, upper].map { b in b.withUnsafeBufferPointer { ShotKeys.digest($0, 0, $0.count) } }
                #expect(Set(digests).count == 1, "\(bytes)")
                seen.insert(digests[0])
                // The same bytes read from inside a longer buffer.
                let padded = [UInt8](repeating: 0x41, count: 3) + bytes + [0x42, 0x43]
                #expect(padded.withUnsafeBufferPointer { ShotKeys.digest($0, 3, 3 + length) } == digests[0])
            }
        }
        #expect(seen.count > 41 * 50 - 60, "distinct bytes, distinct digests (bar chance and the few short names)")
    }
}
