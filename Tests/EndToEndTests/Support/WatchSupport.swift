// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Every suite that watches folders runs inside this one, one test at a time:
/// some of them change process-wide settings (the inotify watch limit) or mount
/// file systems, and together they stay within a couple of cores.
@Suite(.serialized) struct Watch {}

extension Client {
    func subscribe(_ args: [String: Any] = [:]) throws {
        var body = args
        body["cmd"] = "subscribe"
        _ = try result(body)
    }

    func status() throws -> [String: Any] { try result(["cmd": "status"]) }

    /// The status of one root.
    func rootStatus(_ name: String = "pics") throws -> [String: Any] {
        let roots = try status()["roots"] as? [[String: Any]] ?? []
        guard let root = roots.first(where: { $0["name"] as? String == name }) else {
            throw HarnessError("no root \(name) in status: \(roots)")
        }
        return root
    }

    /// Every photo of the view, keyed by its exact path bytes (`path_raw` when the
    /// name is not UTF-8).
    func photosByBytes(_ args: [String: Any] = [:]) throws -> [[UInt8]: [String: Any]] {
        var map: [[UInt8]: [String: Any]] = [:]
        for p in try photos(args) { map[Self.pathBytes(p)] = p }
        return map
    }

    static func pathBytes(_ photo: [String: Any]) -> [UInt8] {
        if let raw = photo["path_raw"] as? String, let data = Data(base64Encoded: raw) { return [UInt8](data) }
        return Array((photo["path"] as? String ?? "").utf8)
    }

    /// Reads events until one matches, keeping the others in `seen`; nil on timeout.
    func waitForEvent(timeout: Double = 10, seen: inout [[String: Any]],
                      _ matches: ([String: Any]) -> Bool) throws -> [String: Any]? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while deadline.timeIntervalSinceNow > 0 {
            guard let event = try nextEvent(timeout: deadline.timeIntervalSinceNow) else { return nil }
            seen.append(event)
            if matches(event) { return event }
        }
        return nil
    }

    /// Every event already received or arriving within `timeout` of quiet.
    func drainEvents(quiet: Double = 0.2) throws -> [[String: Any]] {
        var all: [[String: Any]] = []
        while let event = try nextEvent(timeout: quiet) { all.append(event) }
        return all
    }
}

extension Files {
    static func mkdir(_ path: String) {
        precondition(Glibc.mkdir(path, 0o755) == 0 || errno == EEXIST, "mkdir \(path): \(String(cString: strerror(errno)))")
    }

    static func rename(bytes from: [UInt8], _ to: [UInt8]) {
        let rc = withCPath(from) { f in withCPath(to) { t in Glibc.rename(f, t) } }
        precondition(rc == 0, "rename: \(String(cString: strerror(errno)))")
    }

    static func withCPath<R>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
        var terminated = bytes
        terminated.append(0)
        return terminated.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) } }
    }

    /// Sets a file's access time, leaving its mtime alone.
    static func setAccessTime(_ path: String, seconds: Int) {
        let omit = (1 << 30) - 2  // UTIME_OMIT, a macro Swift does not import
        var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: 0, tv_nsec: omit)]
        precondition(utimensat(AT_FDCWD, path, &times, 0) == 0, "utimensat \(path)")
    }

    static func accessTime(_ path: String) -> Int {
        var st = stat()
        return lstat(path, &st) == 0 ? Int(st.st_atim.tv_sec) : -1
    }

    /// Every photo file below `root` (as the daemon counts them), relative paths.
    static func photoPaths(below root: String) -> Set<String> {
        var result = Set<String>()
        guard let walker = FileManager.default.enumerator(atPath: root) else { return result }
        while let relative = walker.nextObject() as? String {
            if relative.hasSuffix(".jpg") && !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
                result.insert(relative)
            }
        }
        return result
    }
}

/// Runs a system command (mount, mkfs...) and returns its status and output.
@discardableResult
func run(_ command: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: command)
    p.arguments = arguments
    let out = Pipe()
    p.standardOutput = out
    p.standardError = out
    p.standardInput = FileHandle.nullDevice
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// Finds an executable in the usual system directories.
func tool(_ name: String) -> String? {
    for dir in ["/usr/sbin", "/usr/bin", "/sbin", "/bin"] where FileManager.default.isExecutableFile(atPath: dir + "/" + name) {
        return dir + "/" + name
    }
    return nil
}

/// Writes `json` as the daemon's configuration file and points the daemon at it.
func configure(_ daemon: Daemon, _ json: String) {
    let path = daemon.home.sub("curatord.json5")
    Files.write(path, json)
    daemon.configPath = path
}
