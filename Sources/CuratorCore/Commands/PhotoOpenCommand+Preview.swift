// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import CuratorThumbnails

/// `photo.open` `preview` of a photo a browser cannot show (a RAW, HEIF, TIFF): the
/// full-size JPEG the thumbnailer makes once and caches beside the thumbnails
/// (`ThumbnailDirectory.openPreview`), so that a page's loupe judges focus at 100 %;
/// and `screen`: the same at a screen's size, of a photo larger than that, so that
/// the loupe shows a photo whole without fetching and decoding all its pixels.
extension PhotoOpenCommand {
    /// Whether a screen preview is made of a photo of `type`: not of a picture a
    /// JPEG would lose something of (a GIF's frames, a PNG's transparency).
    static func hasScreenPreview(_ type: PhotoType) -> Bool {
        type.family != .video && type != .gif && type != .png
    }

    /// The preview of `kind` of the photo as it is now (`status`), open, or
    /// `pending` (queued first); nil when another stands in: none is made of this
    /// version of the photo (a full one: no embedded preview that large; a screen
    /// one: the photo is no larger than a screen), or making it failed.
    /// The answer names `what` was asked for.
    static func preview(of place: Place, photoID: Int64, kind: PreviewKind, answering what: PhotoOpenWhat, status: FileStatus,
                        cache: ThumbnailCache, version: String, curator: Curator) -> (result: PhotoOpenResult, file: PassedFile?)? {
        guard let uri = try? FileURI(path: place.root.appending(place.relative)),
              !curator.withState({ $0.thumbnails.hasNoPreview(place.row, kind: kind) }) else { return nil }
        let subject = ThumbnailSubject(uri: uri, mtime: status.mtimeNanoseconds.floorDividedBySecond, size: UInt64(max(0, status.size)))
        if let directory = try? ThumbnailDirectory.open(cache, create: false) {
            // The descriptor whose stamp was checked is the one passed.
            if let fd = try? directory.openPreview(subject, kind: kind) {
                let file = PassedFile(fd)
                return (PhotoOpenResult(photo: photoID, what: what, state: .ready, contentType: "image/jpeg", version: version), file)
            }
            if (try? directory.failRecord(for: subject)) != nil { return nil }
        }
        curator.withState { state in state.thumbnails.askPreview(place.row, root: state.library.photo(place.row)?.rootID ?? 0, kind: kind) }
        curator.ringThumbnailDoorbell()
        return (PhotoOpenResult(photo: photoID, what: what, state: .pending), nil)
    }
}
