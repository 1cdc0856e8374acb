// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Glibc

/// The camera that took a photo (EXIF Make and Model of IFD0), read from the
/// file's first 256 KiB with the user's own permissions: JPEG (its APP1 Exif
/// segment) and TIFF-based files (most RAW formats, DNG, TIFF). Other formats, or
/// a file without the tags, give nil.
enum CameraModel {
    static func read(path: String) -> String? {
        let fd = SystemCalls.openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW, 0)
        guard fd >= 0 else { return nil }
        defer { _ = SystemCalls.close(fd) }
        var bytes = [UInt8](repeating: 0, count: 256 * 1024)
        let n = bytes.withUnsafeMutableBytes { SystemCalls.read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        return parse(Array(bytes[0..<n]))
    }

    static func parse(_ bytes: [UInt8]) -> String? {
        if bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 { return jpeg(bytes) }
        return tiff(bytes, at: 0)
    }

    private static func jpeg(_ bytes: [UInt8]) -> String? {
        var index = 2
        while index + 4 <= bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if marker == 0xDA || length < 2 { return nil }  // image data: no EXIF before it
            let body = index + 4
            if marker == 0xE1, body + 6 <= bytes.count, Array(bytes[body..<body + 6]) == Array("Exif\0\0".utf8) {
                return tiff(bytes, at: body + 6)
            }
            index += 2 + length
        }
        return nil
    }

    /// IFD0 of a TIFF structure starting at `base`: Make (0x010F) and Model (0x0110).
    private static func tiff(_ bytes: [UInt8], at base: Int) -> String? {
        guard base + 8 <= bytes.count else { return nil }
        let little: Bool
        switch (bytes[base], bytes[base + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= bytes.count else { return nil }
            return little ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : Int(bytes[at]) << 8 | Int(bytes[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let b = u16(at + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard let ifd = u32(base + 4), let entries = u16(base + ifd) else { return nil }
        var make: String?, model: String?
        for entry in 0..<min(entries, 512) {
            let at = base + ifd + 2 + entry * 12
            guard let tag = u16(at), let type = u16(at + 2), let count = u32(at + 4), type == 2, count > 0, count < 256 else { continue }
            guard tag == 0x010F || tag == 0x0110 else { continue }
            let start = count <= 4 ? at + 8 : base + (u32(at + 8) ?? -1)
            guard start >= 0, start + count <= bytes.count else { continue }
            let text = String(decoding: bytes[start..<start + count].prefix { $0 != 0 }, as: UTF8.self)
                .trimmingCharacters(in: " ")
            if tag == 0x010F { make = text } else { model = text }
        }
        switch (make, model) {
        case (let make?, let model?) where !make.isEmpty && model.lowercased().hasPrefix(make.lowercased().split(separator: " ").first.map(String.init) ?? make.lowercased()):
            return model
        case (let make?, let model?) where !make.isEmpty && !model.isEmpty: return "\(make) \(model)"
        case (_, let model?) where !model.isEmpty: return model
        case (let make?, _) where !make.isEmpty: return make
        default: return nil
        }
    }
}

private extension String {
    func trimmingCharacters(in set: Character) -> String {
        var s = Substring(self)
        while s.first == set { s = s.dropFirst() }
        while s.last == set { s = s.dropLast() }
        return String(s)
    }
}
