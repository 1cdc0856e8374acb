// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// `/photo/<id>/<what>`: a decimal id and one of the names `photo.open` takes,
/// nothing else. Whatever else a path holds (`..`, a slash more, an escape) names no
/// photo: the path is matched whole, never joined to a directory.
struct PhotoAddress: Sendable, Equatable {
    static let prefix = "/photo/"

    let photo: Int64
    let what: PhotoOpenWhat

    init?(path: String) {
        guard path.hasPrefix(Self.prefix) else { return nil }
        let parts = path.dropFirst(Self.prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let digits = parts.first, (1...18).contains(digits.count),
              digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              let photo = Int64(digits), let what = PhotoOpenWhat(name: String(parts[1])) else { return nil }
        self.photo = photo
        self.what = what
    }
}
