// SPDX-License-Identifier: GPL-2.0-or-later

// Events are the daemon's most frequent lines: a burst of 1 000 new files is 1 000
// of them, each encoded while the state lock is held. Written by hand, byte for
// byte what the Codable encoder writes (keys sorted, snake_case, nil left out);
// EventWriterTests hold the two to that.

extension Event: JSONWritable {
    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.optionalInt("batch", batch)
        w.optionalInt("bytes", bytes)
        if let cap {
            w.key("cap")
            if let cap { w.int(cap) } else { w.null() }
        }
        w.optionalInt("count", count)
        w.optionalInt("done", done)
        w.key("event"); w.string(event.rawValue)
        if let folder { writePath("folder", folder, to: &w) }
        if let from { writePath("from", from, to: &w) }
        w.optionalInt("hidden", hidden)
        if let items { w.array("items", items) }
        w.optionalString("message", message)
        if let mode { w.key("mode"); w.string(mode.rawValue) }
        w.optionalInt("orphans", orphans)
        if let outcome { w.key("outcome"); w.string(outcome.rawValue) }
        if let photo { w.key("photo"); photo.write(to: &w) }
        w.optionalInt("photo_id", photoId)
        w.optionalString("root", root)
        w.optionalString("session", session)
        if let sizes {
            w.key("sizes")
            w.beginArray()
            for size in sizes { w.string(size.rawValue) }
            w.endArray()
        }
        w.optionalString("state", state)
        w.optionalInt("total", total)
        if let view {
            // Rare (selection events) and nested: the encoder writes it, as it would inside the event.
            w.key("view")
            w.raw((try? Wire.makeEncoder().encode(view)).map { [UInt8]($0) } ?? Array("{}".utf8))
        }
        w.endObject()
    }

    private func writePath(_ key: StaticString, _ path: WirePath, to w: inout JSONWriter) {
        w.key(key)
        w.beginObject()
        w.key("path"); w.string(path.path)
        w.optionalString("path_raw", path.pathRaw)
        w.endObject()
    }
}

extension PhotoSummary: JSONWritable {
    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.optionalInt("capture_ms", captureMs)
        w.optionalString("capture_offset", captureOffset)
        w.optionalString("capture_time", captureTime)
        w.optionalString("flag", flag)
        w.key("id"); w.int(id)
        w.optionalString("kind", kind)
        w.optionalString("label", label)
        if let members {
            w.key("members")
            w.beginArray()
            for member in members { member.write(to: &w) }
            w.endArray()
        }
        w.key("mtime_ns"); w.int(mtimeNs)
        if let offline { w.key("offline"); w.bool(offline) }
        w.key("path"); w.string(path)
        w.optionalString("path_raw", pathRaw)
        w.optionalInt("position", position)
        if let `protected` { w.key("protected"); w.bool(`protected`) }
        w.optionalInt("rating", rating)
        w.key("root"); w.string(root)
        w.optionalInt("selected", selected)
        w.key("size"); w.int(size)
        if let thumbnail { w.key("thumbnail"); w.bool(thumbnail) }
        w.optionalInt("total_size", totalSize)
        w.key("type"); w.string(type)
        w.endObject()
    }
}

extension GroupMemberSummary: JSONWritable {
    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key("kind"); w.string(kind)
        w.key("name"); w.string(name)
        w.optionalString("name_raw", nameRaw)
        w.key("size"); w.int(size)
        w.key("type"); w.string(type)
        w.endObject()
    }
}

extension SelectionItem: JSONWritable {
    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.optionalInt("capture_ms", captureMs)
        w.optionalString("capture_offset", captureOffset)
        w.optionalString("capture_time", captureTime)
        if let hidden { w.key("hidden"); w.bool(hidden) }
        w.key("id"); w.int(id)
        w.key("number"); w.int(number)
        w.key("path"); w.string(path)
        w.optionalString("path_raw", pathRaw)
        w.key("root"); w.string(root)
        w.key("size"); w.int(size)
        w.endObject()
    }
}
