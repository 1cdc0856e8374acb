// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import CuratorXMP

/// A group's files as far as its marks go (docs/XMP.md): its photos, and the XMP
/// sidecars about them, the file's own (`NAME.EXT.xmp`) and the shot's
/// (`NAME.xmp`); darktable's duplicates (`NAME_NN.EXT.xmp`) are other versions.
struct MarkedFiles: Sendable {
    /// The names of the group's photos, in its folder.
    var photos: [ByteString]
    /// Of those, a RAW's, for the name of a sidecar to create.
    var raw: ByteString?
    /// In name order: the file's own before the shot's, whatever the index's order.
    var sidecars: [ByteString]
    /// The photos whose embedded XMP the toolkit writes (`EmbeddedWriter`): JPEG,
    /// TIFF, DNG. Not the other RAWs: Adobe's tools never write into them either.
    var embedding: [ByteString]

    init(_ files: [Photo]) {
        let photos = files.filter { !$0.type.isSidecar }
        let about = Set(photos.flatMap { photo in
            [false, true].map { Self.folded(SidecarName.forNewSidecar(of: photo.name, isRaw: $0)) }
        })
        self.photos = photos.map(\.name)
        raw = photos.first { $0.type.family == .raw }?.name
        embedding = photos.filter { [PhotoType.jpeg, .tiff, .dng].contains($0.type) }.map(\.name)
        sidecars = files.filter { $0.type == .xmp && about.contains(Self.folded($0.name)) }.map(\.name).sorted()
    }

    /// Which of the two a sidecar is.
    func kind(of sidecar: ByteString) -> MarksSource.Kind {
        let own = photos.contains { Self.folded(SidecarName.forNewSidecar(of: $0, isRaw: false)) == Self.folded(sidecar) }
        return own ? .fileSidecar : .shotSidecar
    }

    /// The marks the sidecars in `parent` say now, by docs/XMP.md's order; nil when
    /// `mayRead` refuses one of them (the caller could not read it themselves).
    func readMarks(in parent: DirectoryHandle, mayRead: (FileStatus) -> Bool = { _ in true }) throws(SidecarError) -> PhotoMarks? {
        var sources: [MarksSource] = []
        for name in sidecars {
            guard let file = try SidecarFile.read(name, in: parent) else { continue }
            guard mayRead(file.status) else { return nil }
            let packet: XMPPacket
            do throws(XMPError) {
                packet = try XMPPacket(parsing: file.bytes, path: parent.path.appending(name).lossyString)
            } catch {
                throw .xmp(error)
            }
            sources.append(MarksSource(kind(of: name), modified: file.status.mtimeNanoseconds, marks: PhotoMarks(packet)))
        }
        return MarksSource.resolve(sources)
    }

    /// ASCII letters folded: sidecar names are matched as the grouping matches them.
    static func folded(_ name: ByteString) -> ByteString {
        ByteString(name.bytes.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 })
    }
}
