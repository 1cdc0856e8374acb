// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// The text keys of the thumbnail standard, and ours.
public enum ThumbnailKeys {
    public static let uri = "Thumb::URI"
    public static let mtime = "Thumb::MTime"
    public static let size = "Thumb::Size"
    public static let mimeType = "Thumb::Mimetype"
    public static let imageWidth = "Thumb::Image::Width"
    public static let imageHeight = "Thumb::Image::Height"
    public static let software = "Software"
    /// Why a fail record was written (the standard allows keys of one's own).
    public static let failReason = "X-Curatord::Reason"

    /// `Software` in what we write.
    public static let softwareName = "\(ProtocolInfo.serverName) \(ProtocolInfo.serverVersion)"
    /// Our directory under `fail/`: a new version tries again what an older one failed.
    public static let failDirectory = "\(ProtocolInfo.serverName)-\(ProtocolInfo.serverVersion)"
}

/// What a thumbnail stands for: the file's URI and, at the time it was made, the
/// file's mtime (whole seconds, as the standard stores it) and size.
public struct ThumbnailSubject: Hashable, Sendable {
    public let uri: FileURI
    public let mtime: Int64
    public let size: UInt64

    public init(uri: FileURI, mtime: Int64, size: UInt64) {
        self.uri = uri
        self.mtime = mtime
        self.size = size
    }

    /// Whether a thumbnail's text says it was made from this file as it is now, by
    /// the rules GLib applies (`thumbnail::is-valid`): the URI is the same, the
    /// mtime is the same, and the size too when the thumbnail records one; numbers
    /// in plain decimal, as GLib compares them digit by digit.
    public func isDescribed(by text: [String: String]) -> Bool {
        guard text[ThumbnailKeys.uri] == uri.text, text[ThumbnailKeys.mtime] == String(mtime) else { return false }
        if let recordedSize = text[ThumbnailKeys.size], recordedSize != String(size) { return false }
        return true
    }

    /// The standard's keys for a thumbnail of this file.
    public var textEntries: [(key: String, value: String)] {
        [(ThumbnailKeys.uri, uri.text), (ThumbnailKeys.mtime, String(mtime)), (ThumbnailKeys.size, String(size))]
    }
}
