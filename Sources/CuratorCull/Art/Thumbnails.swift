// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import CuratorThumbnails
import FoundationEssentials
import Glibc

/// The pictures of the grid's cells: thumbnails asked of the daemon (`thumbnail`,
/// the photos on screen at a time), read from the path it gives (a user service) or
/// from the bytes it sends (the system service), decoded without an imaging library
/// (`PNGImage`) and turned into terminal art for each cell size. A `pending` one is
/// asked again when the daemon's `thumbnail` event says it is ready.
final class Thumbnails {
    private struct Key: Hashable {
        var id: Int64
        var size: ThumbnailSize
    }

    private enum Entry {
        case asked
        /// Pending at the daemon: asked again on its event.
        case waiting
        case ready(RGBAImage)
        case none
    }

    private let art: ChafaArt
    private let link: DaemonLink
    private var entries: [Key: Entry] = [:]
    /// Decoded images in the order they came, the oldest dropped past `keptImages`
    /// (a 128 px thumbnail is 64 kB decoded; the CLI stays small).
    private var readyOrder: [Key] = []
    private var tiles: [String: ArtTile] = [:]
    private static let keptImages = 240
    private static let keptTiles = 2000
    var onChange: () -> Void = {}

    init(art: ChafaArt, link: DaemonLink) {
        self.art = art
        self.link = link
    }

    /// How the pictures are drawn: text, or a pixel protocol.
    var graphics: GraphicsMode { art.graphics }

    /// libchafa's terminal description, once the art is no longer drawn.
    func releaseArt() { art.release() }

    /// The size to ask for a space of `columns` x `rows` cells: text art needs few
    /// pixels, pixel art as many as the cells hold.
    func size(columns: Int, rows: Int, large: Bool) -> ThumbnailSize {
        guard art.graphics != .symbols else { return large ? .large : .normal }
        return ThumbnailSize.fitting(max(columns * art.cellPixels.width, rows * art.cellPixels.height))
    }

    func tile(for photo: PhotoSummary, columns: Int, rows: Int, large: Bool) -> ArtTile? {
        let key = Key(id: photo.id, size: size(columns: columns, rows: rows, large: large))
        let dim = photo.protected == true
        let name = "\(photo.id)/\(key.size.rawValue)/\(columns)x\(rows)/\(dim)"
        if let tile = tiles[name] { return tile }
        guard case .ready(let image)? = entries[key], let tile = art.render(image, columns: columns, rows: rows, dim: dim) else {
            return nil
        }
        if tiles.count >= Self.keptTiles { tiles.removeAll(keepingCapacity: true) }
        tiles[name] = tile
        return tile
    }

    /// Whether the photo's thumbnail is drawn or known not to come soon (failed,
    /// none, pending at the daemon): what the first screen waits for.
    func isSettled(_ photo: PhotoSummary, columns: Int, rows: Int, large: Bool) -> Bool {
        switch entries[Key(id: photo.id, size: size(columns: columns, rows: rows, large: large))] {
        case nil, .asked?: false
        case .waiting?, .ready?, .none?: true
        }
    }

    /// Photos on screen: the thumbnails not asked for yet are asked, in one request.
    func want(_ photos: [PhotoSummary], columns: Int, rows: Int, large: Bool) {
        let size = size(columns: columns, rows: rows, large: large)
        let ids = photos.map(\.id).filter { entries[Key(id: $0, size: size)] == nil }
        guard !ids.isEmpty else { return }
        for id in ids { entries[Key(id: id, size: size)] = .asked }
        ask(Array(ids.prefix(ThumbnailRequest.maxPhotos)), size: size, data: false)
    }

    private func ask(_ ids: [Int64], size: ThumbnailSize, data: Bool) {
        let request = ThumbnailRequest(ids: ids, size: size, data: data)
        try? link.call(request) { [weak self] outcome in
            guard let self else { return }
            guard case .success(let result) = outcome else {
                // thumbnails off, or not allowed: placeholders, not asked again.
                for id in ids { self.entries[Key(id: id, size: size)] = Entry.none }
                return
            }
            var needData: [Int64] = []
            for entry in result.thumbnails {
                let key = Key(id: entry.photoId, size: size)
                switch entry.state {
                case .ready:
                    if let image = Self.image(entry) {
                        self.store(image, key)
                    } else if entry.data == nil && !data {
                        needData.append(entry.photoId)  // no path we may open: its bytes, then
                    } else {
                        self.entries[key] = Entry.none
                    }
                case .pending: self.entries[key] = .waiting
                case .failed, .placeholder: self.entries[key] = Entry.none
                }
            }
            if !needData.isEmpty { self.ask(needData, size: size, data: true) }
            self.onChange()
        }
    }

    private func store(_ image: RGBAImage, _ key: Key) {
        entries[key] = .ready(image)
        readyOrder.append(key)
        if readyOrder.count > Self.keptImages {
            let old = readyOrder.removeFirst()
            if case .ready? = entries[old] { entries[old] = nil }
        }
    }

    /// The daemon's `thumbnail` event: a pending one is ready (asked again when shown).
    func event(photo id: Int64, state: String?) {
        for size in ThumbnailSize.allCases {
            let key = Key(id: id, size: size)
            if case .waiting? = entries[key] { entries[key] = nil }
        }
        if state == "ready" { onChange() }
    }

    /// A photo changed or left: its thumbnails and tiles are made again.
    func forget(_ id: Int64) {
        for size in ThumbnailSize.allCases { entries[Key(id: id, size: size)] = nil }
        let prefix = "\(id)/"
        for name in tiles.keys where name.hasPrefix(prefix) { tiles[name] = nil }
    }

    /// The PNG of a ready entry, from its bytes or its path, as RGBA.
    static func image(_ entry: ThumbnailEntry) -> RGBAImage? {
        var png: [UInt8]?
        if let data = entry.data, let bytes = Data(base64Encoded: data) {
            png = Array(bytes)
        } else if let path = entry.path {
            png = try? FileDescriptor.open(ByteString(path), O_RDONLY | O_NOFOLLOW).closeAfter { fd throws(SystemError) in
                try fd.readAll(limit: 16 << 20, path: path)
            }
        }
        guard let png, let decoded = try? PNGImage(decoding: png) else { return nil }
        return rgba(decoded)
    }

    static func rgba(_ image: PNGImage) -> RGBAImage {
        let count = image.width * image.height
        if image.bands == 4 { return RGBAImage(width: image.width, height: image.height, pixels: image.pixels) }
        var out = [UInt8](repeating: 255, count: count * 4)
        let p = image.pixels
        for i in 0..<count {
            switch image.bands {
            case 1: (out[i * 4], out[i * 4 + 1], out[i * 4 + 2]) = (p[i], p[i], p[i])
            case 2: (out[i * 4], out[i * 4 + 1], out[i * 4 + 2], out[i * 4 + 3]) = (p[i * 2], p[i * 2], p[i * 2], p[i * 2 + 1])
            default: (out[i * 4], out[i * 4 + 1], out[i * 4 + 2]) = (p[i * 3], p[i * 3 + 1], p[i * 3 + 2])
            }
        }
        return RGBAImage(width: image.width, height: image.height, pixels: out)
    }
}
