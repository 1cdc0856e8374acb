// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import Testing

/// A JPEG's XMP packet is found by walking its segments, past the EXIF, and
/// nothing is found where there is none or the file is not a JPEG.
@Suite struct EmbeddedXMPLocatorTests {
    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    static let packet = Array(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"/>"#.utf8)

    @Test func thePacketAfterTheEXIFIsFound() throws {
        let exif = Self.segment(0xE1, Array("Exif\0\0II*\0".utf8) + [8, 0, 0, 0])
        let xmp = Self.segment(0xE1, EmbeddedXMPLocator.header + Self.packet)
        let frame = Self.segment(0xC0, [8, 0, 16, 0, 16, 1, 1, 0x11, 0])
        var source = ExifMemorySource(bytes: [0xFF, 0xD8] + exif + xmp + frame + [0xFF, 0xDA, 0, 2, 0xFF, 0xD9])
        #expect(try EmbeddedXMPLocator.packet(in: &source) == Self.packet)
    }

    @Test func noneWithoutOneOrAfterTheImageData() throws {
        let frame = Self.segment(0xC0, [8, 0, 16, 0, 16, 1, 1, 0x11, 0])
        var plain = ExifMemorySource(bytes: [0xFF, 0xD8] + frame + [0xFF, 0xD9])
        #expect(try EmbeddedXMPLocator.packet(in: &plain) == nil)
        // After the start of scan: image data, never read as a segment.
        var late = ExifMemorySource(bytes: [0xFF, 0xD8, 0xFF, 0xDA, 0, 2] + Self.segment(0xE1, EmbeddedXMPLocator.header + Self.packet))
        #expect(try EmbeddedXMPLocator.packet(in: &late) == nil)
        // Another APP1 (not Adobe's namespace) is not XMP.
        var other = ExifMemorySource(bytes: [0xFF, 0xD8] + Self.segment(0xE1, Array("http://example.com/\0x".utf8)) + [0xFF, 0xD9])
        #expect(try EmbeddedXMPLocator.packet(in: &other) == nil)
        var png = ExifMemorySource(bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(try EmbeddedXMPLocator.packet(in: &png) == nil)
        // A length running past the end: what is there, never more.
        var truncated = ExifMemorySource(bytes: [0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xF0] + EmbeddedXMPLocator.header + [1, 2, 3])
        #expect(try EmbeddedXMPLocator.packet(in: &truncated) == [1, 2, 3])
    }
}

/// A CR3's XMP packet is its top-level `uuid` box of XMP's UUID; the other
/// `uuid` boxes (Canon's, a preview's) are not it.
@Suite struct ISOBMFFXMPLocatorTests {
    @Test func aCR3sPacketIsItsXMPUUIDBox() throws {
        let packet = EmbeddedXMPLocatorTests.packet
        let cr3 = TestContainers.cr3(cmt1: [], cmt2: [])
        let preview = TestContainers.box("uuid", [UInt8](repeating: 0x22, count: 16) + TestContainers.junk(64))
        let xmp = TestContainers.box("uuid", ISOBMFFXMPLocator.xmpUUID + packet)
        // Before the media data, as Canon writes it.
        let split = cr3.count - (3000 + 8)
        var source = ExifMemorySource(bytes: Array(cr3[..<split]) + preview + xmp + Array(cr3[split...]))
        #expect(try ISOBMFFXMPLocator.packet(in: &source) == packet)
        var none = ExifMemorySource(bytes: cr3)
        #expect(try ISOBMFFXMPLocator.packet(in: &none) == nil)
    }
}
