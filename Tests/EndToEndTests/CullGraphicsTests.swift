// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// `curatorctl cull --graphics kitty|iterm2`: the bytes a terminal emulator gets.
/// tmux passes no images on, so these run cull in a pseudo-terminal of their own
/// (Tests/Tools/pty-cull.py) that records every byte, on photos with real
/// thumbnails made by the daemon's worker.
@Suite(.serialized, .enabled(if: PseudoTerminal.available))
struct CullGraphicsTests {
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// Three camera-like JPEGs (bench/sample_photos.py), their thumbnails made.
    static func daemon() throws -> Daemon {
        let d = Daemon()
        for i in 1...3 {
            let out = try Tool.run("/usr/bin/python3", [package + "/bench/sample_photos.py", "marker", d.root() + "/IMG_000\(i).jpg",
                                                        "--width", "600", "--height", "400"])
            guard out.status == 0 else { throw HarnessError("sample_photos.py: \(out.stderr)") }
        }
        try d.start()
        let client = try d.client()
        try eventually(timeout: 60, "the three photos' thumbnails") {
            let thumbnails = try client.result(["cmd": "status"])["thumbnails"] as? [String: Any] ?? [:]
            return thumbnails["ready"] as? Int == 3 && thumbnails["backlog"] as? Int == 0
        }
        return d
    }

    struct Run {
        var output: [UInt8]
        var status: Int32
        var sttyBefore: String
        var sttyAfter: String
    }

    /// cull in a 100x30 pty (10x20-pixel cells), `q` typed once `waitFor` was written.
    static func run(_ d: Daemon, graphics: String, waitFor: String, environment extra: [String: String] = [:]) throws -> Run {
        let dir = TestDirectory("pty")
        var environment = d.environment
        environment.removeValue(forKey: "TMUX")
        environment["TERM"] = "xterm-256color"
        for (key, value) in extra { environment[key] = value }
        let hex = Array(waitFor.utf8).map { String(format: "%02x", $0) }.joined()
        let out = try Tool.run("/usr/bin/python3", [package + "/Tests/Tools/pty-cull.py", dir.path, hex, "q", "--",
                                                    Daemon.curatorctl, "--socket", d.socket, "cull", "--graphics", graphics],
                               environment: environment)
        let output = (try? Data(contentsOf: URL(fileURLWithPath: dir.sub("output")))).map { Array($0) } ?? []
        guard out.status == 0 else {
            throw HarnessError("pty-cull.py: \(out.status) \(out.stderr)\n\(String(decoding: output, as: UTF8.self).suffix(2000))")
        }
        // The window's size is the window's, not a setting cull could leave behind.
        func settings(_ name: String) -> String {
            (Files.read(dir.sub(name)) ?? name).replacingOccurrences(of: #"rows \d+; columns \d+;"#, with: "", options: .regularExpression)
        }
        let status = Int32((Files.read(dir.sub("status")) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        return Run(output: output, status: status, sttyBefore: settings("stty-before"), sttyAfter: settings("stty-after"))
    }

    /// The escape strings of one kind in `output`: what lies between `opener` and the
    /// first `closer` after it.
    static func strings(in output: [UInt8], opener: String, closer: [UInt8]) -> [[UInt8]] {
        let open = Array(opener.utf8)
        var found: [[UInt8]] = []
        var index = 0
        while let start = output[index...].firstRange(of: open) {
            guard let end = output[start.upperBound...].firstRange(of: closer) else { break }
            found.append(Array(output[start.upperBound..<end.lowerBound]))
            index = end.upperBound
        }
        return found
    }

    static let leave = Array("\u{1B}[r\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l".utf8)

    /// kitty's graphics protocol: each thumbnail sent as APC `ESC _ G` commands, a
    /// transmit-and-display with its size in cells, then base64 chunks (`m=1` until the
    /// last, `m=0`) that add up to the image declared; all placements deleted when
    /// the frame changes and on the way out, before the main screen comes back.
    @Test func kittyImagesAreAPCCommandsAndAreDeletedOnTheWayOut() throws {
        let d = try Self.daemon()
        let run = try Self.run(d, graphics: "kitty", waitFor: "IMG_0003.jpg")
        #expect(run.status == 0)
        #expect(run.sttyBefore == run.sttyAfter, "stty -a before:\n\(run.sttyBefore)\nafter:\n\(run.sttyAfter)")
        let commands = Self.strings(in: run.output, opener: "\u{1B}_G", closer: Array("\u{1B}\\".utf8))
        // Every command is `keys;payload` or `keys`, each key `x=value`.
        var images: [(declared: Int, received: Int)] = []
        for command in commands {
            let text = String(decoding: command, as: UTF8.self)
            let parts = text.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            let keys = Dictionary(parts[0].split(separator: ",").map { pair -> (String, String) in
                let kv = pair.split(separator: "=", maxSplits: 1)
                return (String(kv[0]), kv.count > 1 ? String(kv[1]) : "")
            }, uniquingKeysWith: { $1 })
            let payload = parts.count > 1 ? String(parts[1]) : ""
            if keys["a"] == "d" { continue }
            if keys["a"] == "T" {
                // A new image: RGBA (f=32) or RGB (f=24) of s x v pixels, in c x r cells.
                let width = Int(keys["s"] ?? "") ?? 0, height = Int(keys["v"] ?? "") ?? 0
                let bytesPerPixel = keys["f"] == "24" ? 3 : 4
                #expect(width > 0 && height > 0 && ["24", "32"].contains(keys["f"] ?? ""), "\(keys)")
                #expect((Int(keys["c"] ?? "") ?? 0) > 0 && (Int(keys["r"] ?? "") ?? 0) > 0, "\(keys)")
                images.append((width * height * bytesPerPixel, 0))
            }
            #expect(!images.isEmpty, "a chunk before any image: \(text.prefix(80))")
            if !payload.isEmpty, let data = Data(base64Encoded: payload) {
                images[images.count - 1].received += data.count
            } else if !payload.isEmpty {
                Issue.record("a payload that is not base64: \(payload.prefix(40))")
            }
        }
        // The three photos in the grid (and none of them cut short).
        #expect(images.count >= 3, "\(images.count) images in \(commands.count) commands")
        for image in images { #expect(image.declared == image.received, "\(image)") }
        // Each image is placed at its cell: the cursor moved there just before.
        let placements = Self.strings(in: run.output, opener: "\u{1B}[0m\u{1B}[", closer: Array("H\u{1B}_Ga=T".utf8))
        #expect(placements.count == images.count, "\(placements.count) placements of \(images.count) images")
        // The way out: kitty's placements deleted, then the terminal's settings and main screen.
        let tail = Array(Terminal.kittyDeleteAll.utf8) + Self.leave
        #expect(run.output.suffix(tail.count + 200).firstRange(of: tail) != nil,
                "\(String(decoding: run.output.suffix(200), as: UTF8.self).debugDescription)")
    }

    /// iTerm2's inline images: OSC 1337 `File=inline=1;...:BASE64` ended by BEL, each
    /// an image file libchafa wrote; the terminal restored on the way out.
    @Test func iterm2ImagesAreOSC1337FilesAndTheTerminalIsRestored() throws {
        let d = try Self.daemon()
        let run = try Self.run(d, graphics: "iterm2", waitFor: "IMG_0003.jpg")
        #expect(run.status == 0)
        #expect(run.sttyBefore == run.sttyAfter, "stty -a before:\n\(run.sttyBefore)\nafter:\n\(run.sttyAfter)")
        let files = Self.strings(in: run.output, opener: "\u{1B}]1337;File=", closer: [0x07])
        #expect(files.count >= 3, "\(files.count) images")
        for file in files {
            let text = String(decoding: file, as: UTF8.self)
            let parts = text.split(separator: ":", maxSplits: 1)
            #expect(parts.count == 2, "\(text.prefix(80))")
            let arguments = parts.first.map { $0.split(separator: ";").map(String.init) } ?? []
            #expect(arguments.contains("inline=1"), "\(arguments)")
            #expect(arguments.contains { $0.hasPrefix("width=") } && arguments.contains { $0.hasPrefix("height=") }, "\(arguments)")
            let image = parts.count == 2 ? Data(base64Encoded: String(parts[1])).map { Array($0) } : nil
            // An image file: TIFF or PNG.
            let magic = image.map { Array($0.prefix(4)) } ?? []
            #expect(magic == [0x49, 0x49, 0x2A, 0x00] || magic == [0x4D, 0x4D, 0x00, 0x2A] || magic == [0x89, 0x50, 0x4E, 0x47],
                    "\(magic)")
        }
        // No kitty command where iTerm2's images are drawn; then the terminal as it was.
        #expect(run.output.firstRange(of: Array("\u{1B}_G".utf8)) == nil)
        #expect(Array(run.output.suffix(Self.leave.count + 64)).firstRange(of: Self.leave) != nil)
        #expect(run.output.starts(with: Array("\u{1B}[?1049h".utf8)))
    }
}

enum PseudoTerminal {
    /// python3 drives the pty; vips makes the sample photos.
    static var available: Bool { Tool.exists("/usr/bin/python3") && Tool.exists("/usr/bin/vips") }
}

private enum Terminal {
    /// The bytes of CuratorCull's `Terminal.kittyDeleteAll`.
    static let kittyDeleteAll = "\u{1B}_Ga=d,q=2\u{1B}\\"
}
