// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// An answer whose body is (part of) an open file, streamed by the server
/// (`sendfile` where it can). The server owns the descriptor once it is queued.
struct FileAnswer: Sendable {
    var status: UInt32
    var descriptor: FileDescriptor
    var offset: UInt64
    var length: UInt64
    var contentType: String
    var headers: [(name: String, value: String)]
}
