// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// A photo we moved to the trash, as the journal pinned it.
struct Burial: Sendable {
    var id: Int64
    var identity: FileIdentity
    var rootName: String
    var relativePath: ByteString
}
