// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation

/// A JPEG as a camera writes its header: an `APP1 Exif` segment whose IFD0 holds
/// Make, Model and Orientation, then the frame header with the image's size. No
/// pixels follow: the daemon reads the header, never decodes.
enum CameraJPEG {
    static func bytes(make: String, model: String, orientation: UInt16 = 1, width: UInt16, height: UInt16) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
        func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        let makeBytes = Array(make.utf8) + [0], modelBytes = Array(model.utf8) + [0]
        // TIFF, little-endian: IFD0 at 8 with three entries, its values after it.
        let dataStart = 8 + 2 + 3 * 12 + 4
        var tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + u32(8) + u16(3)
        tiff += u16(0x010F) + u16(2) + u32(UInt32(makeBytes.count)) + u32(UInt32(dataStart))
        tiff += u16(0x0110) + u16(2) + u32(UInt32(modelBytes.count)) + u32(UInt32(dataStart + makeBytes.count))
        tiff += u16(0x0112) + u16(3) + u32(1) + u16(orientation) + [0, 0]
        tiff += u32(0) + makeBytes + modelBytes
        let app1 = Array("Exif\0\0".utf8) + tiff
        var out: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1] + be16(app1.count + 2) + app1
        out += [0xFF, 0xC0] + be16(11) + [8] + be16(Int(height)) + be16(Int(width)) + [1, 1, 0x11, 0]
        out += [0xFF, 0xD9]
        return out
    }

    static func write(_ path: String, make: String, model: String, orientation: UInt16 = 1, width: UInt16, height: UInt16) throws {
        try Data(bytes(make: make, model: model, orientation: orientation, width: width, height: height))
            .write(to: URL(fileURLWithPath: path))
    }
}
