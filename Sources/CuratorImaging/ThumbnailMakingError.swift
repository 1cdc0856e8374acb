// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorThumbnails

/// Why no thumbnail could be made of a file, with the code the worker reports.
public struct ThumbnailMakingError: Error, CustomStringConvertible, Sendable {
    public let code: ThumbnailFailure
    public let reason: String

    public init(_ code: ThumbnailFailure, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { "\(code.rawValue): \(reason)" }

    /// A libvips failure while opening or decoding a file whose format a loader has
    /// claimed (`ThumbnailMaker.checkLoader`), told apart by its message: a feature of
    /// the format that is not decoded here is not a damaged file. "Not in a known
    /// format" is not looked for: the loader was found, so such a line is another
    /// thread's (libvips keeps one error buffer for the process).
    static func decoding(_ error: VipsError) -> ThumbnailMakingError {
        let text = error.message.lowercased()
        // "operation is blocked": a format we do not decode (PDF, SVG...; see Vips.start).
        if text.contains("unsupported") || text.contains("operation is blocked") {
            return ThumbnailMakingError(.unsupported, error.description)
        }
        if text.contains("out of memory") || text.contains("unable to allocate") {
            return ThumbnailMakingError(.tooLarge, error.description)
        }
        return ThumbnailMakingError(.corrupt, error.description)
    }
}
