// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import CuratorThumbnails

/// `photo.open` `preview` of a photo a browser cannot show (a RAW, HEIF, TIFF): the
/// full-size JPEG the thumbnailer makes once and caches beside the thumbnails
/// (`ThumbnailDirectory.openPreview`), so that a page's loupe judges focus at 100 %.
extension PhotoOpenCommand {
    /// The preview of the photo as it is now (`status`), open, or `pending` (queued
    /// first); nil when the `xx-large` thumbnail stands in: none can be made of this
    /// version of the photo (no embedded preview that large) or it failed.
    static func preview(of place: Place, photoID: Int64, status: FileStatus, cache: ThumbnailCache, version: String,
                        curator: Curator) -> (result: PhotoOpenResult, file: PassedFile?)? {
        guard let uri = try? FileURI(path: place.root.appending(place.relative)),
              !curator.withState({ $0.thumbnails.hasNoPreview(place.row) }) else { return nil }
        let subject = ThumbnailSubject(uri: uri, mtime: status.mtimeNanoseconds.floorDividedBySecond, size: UInt64(max(0, status.size)))
        if let directory = try? ThumbnailDirectory.open(cache, create: false) {
            // The descriptor whose stamp was checked is the one passed.
            if let fd = try? directory.openPreview(subject) {
                let file = PassedFile(fd)
                return (PhotoOpenResult(photo: photoID, what: .preview, state: .ready, contentType: "image/jpeg", version: version), file)
            }
            if (try? directory.failRecord(for: subject)) != nil { return nil }
        }
        curator.withState { state in state.thumbnails.askPreview(place.row, root: state.library.photo(place.row)?.rootID ?? 0) }
        curator.ringThumbnailDoorbell()
        return (PhotoOpenResult(photo: photoID, what: .preview, state: .pending), nil)
    }
}
