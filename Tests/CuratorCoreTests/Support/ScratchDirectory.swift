// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Foundation
import Glibc

/// A fresh directory under $TMPDIR for one test, removed (whatever the names
/// in it, UTF-8 or not) when the value goes away.
final class ScratchDirectory {
    let path: ByteString

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/curatord-test-XXXXXX").utf8CString)
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

    /// Writes `bytes` at `name` (relative, parents created) and returns the full path.
    @discardableResult
    func write(_ name: ByteString, _ bytes: [UInt8]) throws -> ByteString {
        let full = path.appending(name)
        var parent = path
        for component in name.parent.components {
            parent = parent.appending(component)
            if mkdirAt(parent) != 0 && errno != EEXIST { throw SystemError("mkdir", path: parent.lossyString, errno: .current) }
        }
        let fd = try FileDescriptor.open(full, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
        try fd.closeAfter { (fd) throws(SystemError) in try fd.writeAll(bytes) }
        return full
    }

    func child(_ name: ByteString) -> ByteString { path.appending(name) }

    private func mkdirAt(_ directory: ByteString) -> Int32 {
        directory.withCString { mkdir($0, 0o755) }
    }
}
