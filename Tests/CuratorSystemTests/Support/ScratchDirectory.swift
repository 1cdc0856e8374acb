// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Foundation
import Glibc

/// A fresh directory under $TMPDIR for one test, removed (whatever the names in
/// it) when the value goes away. Made and filled with Glibc directly, not with the
/// code under test, and never under a fault plan.
final class ScratchDirectory {
    let path: ByteString

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/curatord-system-test-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw SystemError("mkdtemp", errno: .current) }
        path = ByteString(String(cString: made))
    }

    deinit {
        let rm = Process()
        rm.executableURL = URL(fileURLWithPath: "/bin/rm")
        rm.arguments = ["-rf", "--", path.lossyString]
        try? rm.run()
        rm.waitUntilExit()
    }

    func child(_ name: ByteString) -> ByteString { path.appending(name) }

    /// Writes `bytes` at `name` (in this directory) and returns the full path.
    @discardableResult
    func write(_ name: ByteString, _ bytes: [UInt8]) throws -> ByteString {
        let full = child(name)
        guard let file = fopen(full.lossyString, "w") else { throw SystemError("fopen", path: full.lossyString, errno: .current) }
        defer { fclose(file) }
        guard fwrite(bytes, 1, bytes.count, file) == bytes.count else { throw SystemError("fwrite", path: full.lossyString, errno: .current) }
        return full
    }

    /// The bytes at `name`, or nil when there is no such file.
    func read(_ name: ByteString) -> [UInt8]? {
        FileManager.default.contents(atPath: child(name).lossyString).map { [UInt8]($0) }
    }

    func makeDirectory(_ name: ByteString) throws {
        guard mkdir(child(name).lossyString, 0o755) == 0 else { throw SystemError("mkdir", path: child(name).lossyString, errno: .current) }
    }
}

/// A seeded generator, so a failing random sequence fails the same way every time.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Runs a program to its end and keeps what it printed.
enum Tool {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }
}
