// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import CuratorSystem
import Foundation
import Glibc
import Testing

/// A private temporary tree for one test: a photo root, an XDG_DATA_HOME whose
/// Trash is the only home trash the code under test ever sees, and a journal.
/// Removed (without crossing mounts) when the test lets it go.
final class Sandbox {
    let base: ByteString
    let root: ByteString
    let dataHome: ByteString
    let homeTrash: ByteString
    let journalPath: String

    init() throws {
        var template = Array("/tmp/curator-trash-test-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw SystemError("mkdtemp", errno: .current) }
        base = ByteString(String(cString: made))
        root = base.appending("photos")
        dataHome = base.appending("data")
        homeTrash = dataHome.appending("Trash")
        journalPath = base.appending("journal.sqlite").lossyString
        try Sandbox.makeDirectories(root)
    }

    /// A batch's journal checkpoint runs on a thread of its own (`WALCheckpointer`)
    /// and may be opening or closing its connection as the test ends: SQLite then
    /// makes `journal.sqlite-shm` again between `rm`'s unlinks and its `rmdir`, which
    /// left a folder in /tmp now and then. So `rm` runs until the folder is gone
    /// (a second look is nearly always enough; a second at most).
    deinit {
        for _ in 0..<50 {
            _ = try? Tool.run("/bin/rm", ["-rf", "--one-file-system", base.lossyString])
            if base.withCString({ access($0, F_OK) }) != 0 { return }
            usleep(20_000)
        }
    }

    var configuration: TrashConfiguration { TrashConfiguration(homeTrash: homeTrash, homeTrashOwner: geteuid()) }

    func runner(failpoints: Failpoints = .disarmed, effectiveUID: UInt32 = geteuid(), chunkSize: Int? = nil) throws -> BatchRunner {
        try BatchRunner(journalPath: journalPath, trash: configuration, failpoints: failpoints, effectiveUID: effectiveUID,
                        chunkSize: chunkSize)
    }

    /// The environment for trash-cli: this sandbox's home and data home only.
    var toolEnvironment: [String: String] {
        ["PATH": "/usr/bin:/bin", "HOME": base.lossyString, "XDG_DATA_HOME": dataHome.lossyString, "LANG": "C.UTF-8"]
    }

    // MARK: files

    static func makeDirectories(_ path: ByteString) throws {
        var prefix: [UInt8] = []
        for component in path.components {
            prefix += [UInt8(ascii: "/")] + component.bytes
            let current = ByteString(prefix)
            let rc = current.withCString { mkdir($0, 0o755) }
            if rc != 0 && errno != EEXIST { throw SystemError("mkdir", path: current.lossyString, errno: .current) }
        }
    }

    static func write(_ path: ByteString, _ contents: [UInt8]) throws {
        let fd = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
        try fd.closeAfter { (fd) throws(SystemError) in try fd.writeAll(contents) }
    }

    static func read(_ path: ByteString) -> [UInt8]? {
        guard let fd = try? FileDescriptor.open(path, O_RDONLY) else { return nil }
        return try? fd.closeAfter { (fd) throws(SystemError) in try fd.readAll() }
    }

    static func exists(_ path: ByteString) -> Bool { ((try? FileStatus.ifExists(path)) ?? nil) != nil }

    static func names(in directory: ByteString) -> Set<ByteString> {
        Set(((try? DirectoryReader.entries(of: directory)) ?? []).map(\.name))
    }

    /// Writes a photo below the root (creating its folders) and returns its identity.
    @discardableResult
    func photo(_ relative: ByteString, _ contents: [UInt8]? = nil) throws -> FileIdentity {
        let path = root.appending(relative)
        try Sandbox.makeDirectories(path.parent)
        try Sandbox.write(path, contents ?? Sandbox.content(for: relative))
        return FileIdentity(try FileStatus.of(path))
    }

    /// Distinct content per name, a few KB, so that mix-ups show.
    static func content(for name: ByteString) -> [UInt8] {
        var bytes: [UInt8] = Array("photo:".utf8) + name.bytes
        var state: UInt64 = 1469598103934665603
        for byte in name.bytes { state = (state ^ UInt64(byte)) &* 1099511628211 }
        for _ in 0..<(2048 + Int(state % 1024)) {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            bytes.append(UInt8(truncatingIfNeeded: state >> 33))
        }
        return bytes
    }

    func item(_ id: Int64, _ relative: ByteString, identity: FileIdentity? = nil, rootName: String = "pics") throws -> BatchPlanItem {
        BatchPlanItem(photoID: id, rootName: rootName, rootPath: root, relativePath: relative,
                      identity: try identity ?? FileIdentity(FileStatus.of(root.appending(relative))))
    }

    /// Journals a batch of the photo at `relative` and leaves it `running`, as a
    /// process killed mid-batch does: what recovery has to settle first.
    func batchLeftRunning(_ relative: ByteString) throws {
        let journal = try Journal(path: journalPath)
        _ = try journal.createBatch(uid: geteuid(), session: "s", createdNanoseconds: 1, items: [try item(1, relative)])
    }

    func plan(_ relatives: [ByteString]) throws -> BatchPlan {
        BatchPlan(session: "test", items: try relatives.enumerated().map { try item(Int64($0.offset + 1), $0.element) })
    }

    /// Names in the home trash's files/ and info/.
    var trashedFiles: Set<ByteString> { Sandbox.names(in: homeTrash.appending("files")) }
    var infoFiles: Set<ByteString> { Sandbox.names(in: homeTrash.appending("info")) }

    func info(_ name: ByteString, in trash: ByteString? = nil) -> TrashInfo? {
        let path = (trash ?? homeTrash).appending("info").appending(ByteString(name.bytes + Array(".trashinfo".utf8)))
        return Sandbox.read(path).flatMap(TrashInfo.parse)
    }
}

/// FNV-1a 64 of a file's bytes: enough to tell a restored photo from another.
func checksum(_ bytes: [UInt8]) -> UInt64 {
    bytes.reduce(14695981039346656037) { ($0 ^ UInt64($1)) &* 1099511628211 }
}

extension Requester {
    static var me: Requester { Requester(uid: geteuid(), gid: getegid(), groups: [getegid()]) }
}

/// Mounting, for volume-trash tests. Needs root and a kernel that lets us.
enum Mounting {
    static let isAvailable: Bool = {
        guard geteuid() == 0, let sandbox = try? Sandbox() else { return false }
        let dir = sandbox.base.appending("probe")
        guard (try? Sandbox.makeDirectories(dir)) != nil,
              let output = try? Tool.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", dir.lossyString])
        else { return false }
        guard output.status == 0 else { return false }
        _ = try? Tool.run("/bin/umount", [dir.lossyString])
        return true
    }()

    static let reason: Comment = "mounting needs root and a kernel that allows it (loop devices, bind mounts)"

    /// A fresh ext4 image loop-mounted at `directory`.
    static func loopExt4(image: ByteString, at directory: ByteString) throws {
        try Sandbox.makeDirectories(directory)
        try check(Tool.run("/usr/bin/truncate", ["-s", "64M", image.lossyString]))
        try check(Tool.run("/sbin/mkfs.ext4", ["-q", "-F", image.lossyString]))
        try check(Tool.run("/bin/mount", ["-o", "loop", image.lossyString, directory.lossyString]))
    }

    static func bind(_ source: ByteString, at directory: ByteString) throws {
        try Sandbox.makeDirectories(directory)
        try check(Tool.run("/bin/mount", ["--bind", source.lossyString, directory.lossyString]))
    }

    static func unmount(_ directory: ByteString) {
        if let output = try? Tool.run("/bin/umount", [directory.lossyString]), output.status != 0 {
            _ = try? Tool.run("/bin/umount", ["-l", directory.lossyString])
        }
    }

    private static func check(_ output: Tool.Output) throws {
        guard output.status == 0 else {
            throw SystemError("command failed: \(output.stderr.trimmingCharacters(in: .whitespacesAndNewlines))", errno: .invalid)
        }
    }
}

extension Tool {
    /// For set-up steps whose failure the test's expectations will show anyway.
    @discardableResult
    static func runQuietly(_ executable: String, _ arguments: [String]) -> Int32 {
        (try? run(executable, arguments))?.status ?? -1
    }
}
