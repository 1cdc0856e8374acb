// SPDX-License-Identifier: GPL-2.0-or-later

/// The `list` response line, written without the Codable machinery: a listing of
/// 100 000 photos is the daemon's largest answer (15 MB). The envelope is the one
/// `Wire.success` writes for a `ListResult` (keys sorted, snake_case); the caller
/// writes the folder sections (`FolderSection.write`) and the photo objects, each
/// in the same form, into the writer it is handed.
public enum ListingLine {
    /// `capacity` is the expected size of the whole line (see `JSONWriter.write`).
    public static func write(id: RequestID?, offset: Int, total: Int, view: [UInt8], capacity: Int,
                             folders: (inout JSONWriter) -> Void, photos: (inout JSONWriter) -> Void) -> [UInt8] {
        JSONWriter.write(capacity: capacity) { line in
            line.successLine(id: id) { w in
                w.beginObject()
                w.key("folders"); w.beginArray()
                folders(&w)
                w.endArray()
                w.key("offset"); w.int(offset)
                w.key("photos"); w.beginArray()
                photos(&w)
                w.endArray()
                w.key("total"); w.int(total)
                w.key("view"); w.raw(view)
                w.endObject()
            }
        }
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
        w.endObject()
    }
}
