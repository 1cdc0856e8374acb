// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// The contents of a `.trashinfo` file: where the file came from and when it was
/// trashed. `path` is the decoded original path: absolute in the home trash,
/// relative to `$topdir` in a volume trash.
public struct TrashInfo: Hashable, Sendable {
    public var path: ByteString
    public var deletionDate: String

    public init(path: ByteString, deletionDate: String) {
        self.path = path
        self.deletionDate = deletionDate
    }

    public static let fileSuffix = ByteString(".trashinfo")

    public func rendered() -> [UInt8] {
        Array("[Trash Info]\nPath=\(PercentEncoding.encode(path))\nDeletionDate=\(deletionDate)\n".utf8)
    }

    /// Parses a `.trashinfo`; nil when it has no `[Trash Info]` group or no valid `Path`.
    /// Keys are read from the `[Trash Info]` group only, first occurrence wins.
    public static func parse(_ bytes: [UInt8]) -> TrashInfo? {
        var inGroup = false
        var sawGroup = false
        var path: ByteString?
        var date = ""
        for rawLine in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            var line = rawLine
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if line.first == UInt8(ascii: "[") {
                inGroup = line.elementsEqual("[Trash Info]".utf8)
                sawGroup = sawGroup || inGroup
                continue
            }
            guard inGroup else { continue }
            if path == nil, line.starts(with: "Path=".utf8) {
                guard let decoded = PercentEncoding.decode(line.dropFirst(5)), !decoded.isEmpty else { return nil }
                path = decoded
            } else if date.isEmpty, line.starts(with: "DeletionDate=".utf8) {
                date = String(decoding: line.dropFirst(13), as: UTF8.self)
            }
        }
        guard sawGroup, let path else { return nil }
        return TrashInfo(path: path, deletionDate: date)
    }
}
