// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import CuratorXMP

/// What the photo commands may do under the lock: find the photos a caller names
/// and may see, queue a thumbnail, and note marks written.
protocol PhotoLookupScope: AnyObject {
    var config: Configuration { get }
    var library: PhotoLibrary { get }
    var roots: RootRegistry { get }
    var thumbnails: ThumbnailQueue { get set }
    func session(_ key: SessionKey) -> SessionState
    func resolveSelector(_ selector: PhotoSelector, view: ViewSpec, uid: UInt32) throws(ProtocolError) -> [Int64]
    func maySee(_ photo: Photo, uid: UInt32) -> Bool
    func summary(_ photo: Photo, position: Int?, selected: Int?, fields: PhotoFields, facts: RootFacts?) -> PhotoSummary
    func noteRated(_ marks: PhotoMarks, ofGroup group: Int64, sidecars: [(name: ByteString, marks: PhotoMarks?)])
    func markedFiles(of photo: Photo) -> MarkedFiles
}

extension PhotoLookupScope {
    /// A photo as clients see it, every field.
    func summary(of photo: Photo) -> PhotoSummary { summary(photo, position: nil, selected: nil, fields: .all, facts: nil) }
}

extension CuratorState: PhotoLookupScope {}
