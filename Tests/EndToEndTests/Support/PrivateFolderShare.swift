// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc

/// The shared root the multi-user permission tests start from:
///
///     share/
///       public/   root 0755   open.jpg (0644), alices.jpg (alice 0600: bob sees it, cannot read it)
///       alice/    alice 0700  secret.jpg (alice 0600)
///
/// Each photo is a sample JPEG with its own marker, so that bytes served for one
/// cannot pass for another's.
enum PrivateFolderShare {
    static let photos = ["public/open.jpg", "public/alices.jpg", "alice/secret.jpg"]

    static func make(_ share: String, alice: (name: String, uid: UInt32, gid: UInt32)) throws {
        for folder in ["public", "alice"] {
            try FileManager.default.createDirectory(atPath: share + "/" + folder, withIntermediateDirectories: true)
        }
        for file in photos {
            try ThumbnailTests.sample(["marker", share + "/" + file])
        }
        for (path, mode) in [("public/alices.jpg", 0o600), ("alice/secret.jpg", 0o600), ("alice", 0o700)] {
            chown(share + "/" + path, alice.uid, alice.gid)
            chmod(share + "/" + path, mode_t(mode))
        }
    }
}
