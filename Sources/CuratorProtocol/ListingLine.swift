// SPDX-License-Identifier: GPL-2.0-or-later

/// The `list` response line, written without the Codable machinery: a listing of
/// 100 000 photos is the daemon's largest answer (15 MB), so it is written and sent
/// in pieces. The envelope is the one `Wire.success` writes for a `ListResult` (keys
/// sorted, snake_case); between the pieces the caller writes the folder sections
/// (`FolderSection.write`) and the photo objects, each in the same form.
public enum ListingLine {
    /// Everything before the first folder section.
    public static func writeOpening(id: RequestID?, files: Int, to w: inout JSONWriter) {
        w.beginSuccessLine(id: id)
        w.beginObject()
        w.key("files"); w.int(files)
        w.key("folders"); w.beginArray()
    }

    /// Between the last folder section and the first photo.
    public static func writeMiddle(offset: Int, to w: inout JSONWriter) {
        w.endArray()
        w.key("offset"); w.int(offset)
        w.key("photos"); w.beginArray()
    }

    /// After the last photo, to the end of the line.
    public static func writeClosing(total: Int, view: [UInt8], to w: inout JSONWriter) {
        w.endArray()
        w.key("total"); w.int(total)
        w.key("view"); w.raw(view)
        w.endObject()
        w.endSuccessLine()
    }
}

extension FolderSection {
    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key("count"); w.int(count)
        w.key("first_position"); w.int(firstPosition)
        w.key("path"); w.string(path)
        if let pathRaw { w.key("path_raw"); w.string(pathRaw) }
        w.key("root"); w.string(root)
        w.key("total"); w.int(total)
        w.endObject()
    }
}
