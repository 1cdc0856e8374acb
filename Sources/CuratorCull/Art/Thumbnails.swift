// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// The pictures of the grid's cells, made once per photo and size and kept while
/// they are on screen or near it. Until the daemon hands out thumbnails, every cell
/// shows its placeholder.
final class Thumbnails {
    private let art: ChafaArt
    var onChange: () -> Void = {}

    init(art: ChafaArt) { self.art = art }

    /// The tile for a photo in `columns` x `rows` cells, when its thumbnail is at hand.
    func tile(for photo: PhotoSummary, columns: Int, rows: Int, large: Bool) -> ArtTile? { nil }

    /// Photos on screen, nearest first: their thumbnails are asked for.
    func want(_ photos: [PhotoSummary], large: Bool) {}

    /// A photo changed or left: its tiles are made again when next shown.
    func forget(_ id: Int64) {}
}
