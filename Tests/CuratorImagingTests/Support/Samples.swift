// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Foundation
import Glibc
import CuratorTestSupport

/// Where the package is, and the programs the tests run from it.
enum Package {
    /// Tests/CuratorImagingTests/Support/Samples.swift -> the package root.
    static let root: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    static var binDirectory: String {
        ProcessInfo.processInfo.environment["CURATORD_BIN_DIR"] ?? root + "/.build/debug"
    }

    /// The worker, as `swift build` left it.
    static var thumbnailer: String { binDirectory + "/curatord-thumbnailer" }
}

/// Sample photos made by bench/sample_photos.py (Python and the `vips` tool: an
/// implementation independent of ours writes the EXIF, the DNG and the HEIC).
enum Samples {
    static func make(_ arguments: [String]) throws {
        let out = try Tool.run("/usr/bin/python3", [Package.root + "/bench/sample_photos.py"] + arguments)
        guard out.status == 0 else { throw SampleError("sample_photos.py \(arguments.joined(separator: " ")): \(out.stderr)") }
    }

    /// A picture whose upright top-left quarter is red and the rest blue, stored
    /// turned as EXIF `orientation` says.
    @discardableResult
    static func marker(_ path: ByteString, width: Int = 600, height: Int = 400, orientation: Int = 1) throws -> ByteString {
        try make(["marker", path.lossyString, "--width", "\(width)", "--height", "\(height)", "--orientation", "\(orientation)"])
        return path
    }

    @discardableResult
    static func dng(_ path: ByteString, orientation: Int = 1, preview: Bool = true, width: Int = 1600, height: Int = 1200,
                    rawWidth: Int = 256, rawHeight: Int = 192) throws -> ByteString {
        var arguments = ["dng", path.lossyString, "--orientation", "\(orientation)",
                         "--preview-width", "\(width)", "--preview-height", "\(height)",
                         "--raw-width", "\(rawWidth)", "--raw-height", "\(rawHeight)"]
        if !preview { arguments.append("--no-preview") }
        try make(arguments)
        return path
    }

    @discardableResult
    static func heic(_ path: ByteString, width: Int = 1200, height: Int = 800) throws -> ByteString {
        try make(["heic", path.lossyString, "--marker", "--width", "\(width)", "--height", "\(height)"])
        return path
    }

    /// A 12 MP camera JPEG. The texture it is cut from takes a while to make: it is
    /// kept for every test (and every run) in one directory under $TMPDIR.
    @discardableResult
    static func cameraJPEG(_ path: ByteString, orientation: Int = 1) throws -> ByteString {
        let cache = NSTemporaryDirectory() + "/curatord-sample-texture"
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        try make(["jpeg", path.lossyString, "--orientation", "\(orientation)", "--texture-cache", cache])
        return path
    }

    /// A valid JPEG whose header claims `width` x `height`: what a hostile file looks like.
    static func jpegClaiming(width: Int, height: Int, from jpeg: [UInt8]) -> [UInt8] {
        var bytes = jpeg
        var at = 2
        while at + 9 < bytes.count {
            let marker = bytes[at + 1]
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            if marker == 0xC0 || marker == 0xC1 || marker == 0xC2 {
                bytes[at + 5] = UInt8(height >> 8); bytes[at + 6] = UInt8(height & 0xFF)
                bytes[at + 7] = UInt8(width >> 8); bytes[at + 8] = UInt8(width & 0xFF)
                return bytes
            }
            at += 2 + length
        }
        return bytes
    }

    struct SampleError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

/// Pixels of a PNG or JPEG read back with the `vips` tool (not with our code).
enum Pixels {
    /// "R G B" at (x, y).
    static func at(_ path: ByteString, x: Int, y: Int) throws -> [Int] {
        let out = try Tool.run("/usr/bin/vips", ["getpoint", path.lossyString, "\(x)", "\(y)"])
        guard out.status == 0 else { throw Samples.SampleError("vips getpoint: \(out.stderr)") }
        return out.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Double($0) }.map { Int($0.rounded()) }
    }

    static func size(_ path: ByteString) throws -> (width: Int, height: Int) {
        let width = try Tool.run("/usr/bin/vipsheader", ["-f", "width", path.lossyString])
        let height = try Tool.run("/usr/bin/vipsheader", ["-f", "height", path.lossyString])
        guard let w = Int(width.stdout.trimmingCharacters(in: .whitespacesAndNewlines)),
              let h = Int(height.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Samples.SampleError("vipsheader \(path): \(width.stderr)")
        }
        return (w, h)
    }

    /// A PNG thumbnail of `image` (longest side `side`) made by the `vips` tool.
    static func png(of image: ByteString, side: Int) throws -> [UInt8] {
        let out = image.lossyString + ".\(side).png"
        let made = try Tool.run("/usr/bin/vipsthumbnail", [image.lossyString, "-s", "\(side)", "-o", out])
        guard made.status == 0, let bytes = FileManager.default.contents(atPath: out) else {
            throw Samples.SampleError("vipsthumbnail: \(made.stderr)")
        }
        return [UInt8](bytes)
    }

    /// The mean absolute difference of two images of one size, per band and pixel (0-255).
    static func meanDifference(_ a: ByteString, _ b: ByteString) throws -> Double {
        let difference = a.lossyString + ".difference.v"
        let magnitude = a.lossyString + ".magnitude.v"
        for step in [["subtract", a.lossyString, b.lossyString, difference], ["abs", difference, magnitude]] {
            let out = try Tool.run("/usr/bin/vips", step)
            guard out.status == 0 else { throw Samples.SampleError("vips \(step[0]): \(out.stderr)") }
        }
        let mean = try Tool.run("/usr/bin/vips", ["avg", magnitude])
        guard mean.status == 0, let value = Double(mean.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Samples.SampleError("vips avg: \(mean.stderr)")
        }
        return value
    }

    static func isRed(_ rgb: [Int]) -> Bool { rgb.count >= 3 && rgb[0] > 200 && rgb[1] < 60 && rgb[2] < 60 }
    static func isBlue(_ rgb: [Int]) -> Bool { rgb.count >= 3 && rgb[0] < 60 && rgb[1] < 100 && rgb[2] > 160 }
}
