// SPDX-License-Identifier: GPL-2.0-or-later

/// The wire protocol: newline-delimited JSON over a Unix stream socket.
/// docs/PROTOCOL.md is the contract; these types are its single Swift statement,
/// shared by the daemon and curatorctl. No I/O lives here.
public enum ProtocolInfo {
    /// 2: events name a photo by `photo_id`, never by a top-level `id`; undo's
    /// progress events carry `total` and it ends with a final `batch` event.
    /// 3: a group's `members` are its other files by `name` (the shown file is
    /// the record, its kind the record's `kind`), no longer every file by `path`.
    public static let version = 3
    public static let serverName = "curatord"
    public static let serverVersion = "0.1.0"
    /// A request line longer than this is refused with `request_too_large`.
    public static let maxRequestBytes = 1 << 20
}
