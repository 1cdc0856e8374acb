// SPDX-License-Identifier: GPL-2.0-or-later

/// A picture made for a rectangle of cells: characters with colours (any terminal),
/// or an image in the terminal's own format, drawn over `columns` x `rows` cells at
/// an offset that centres it in the space it was made for.
struct ArtTile {
    var columns: Int
    var rows: Int
    /// Where in the space it was made for it starts (it keeps the photo's aspect).
    var offsetX: Int
    var offsetY: Int
    /// Row by row, for text art.
    var cells: [ScreenCell]
    /// The image's escape sequence, for pixel art.
    var sequence: [UInt8]?
}

/// RGBA pixels, 8 bits a channel, row after row.
struct RGBAImage {
    var width: Int
    var height: Int
    var pixels: [UInt8]
}
