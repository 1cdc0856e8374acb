// SPDX-License-Identifier: GPL-2.0-or-later

/// A result that writes itself with `JSONWriter`, byte for byte what the Codable
/// encoder writes: `Wire.success` takes this path for it. For the answers that
/// carry one entry per photo of a batch (10 000 entries through Codable cost more
/// than a tenth of a second).
public protocol JSONWritable {
    func write(to w: inout JSONWriter)
}

extension JSONWriter {
    /// A key and its value, left out when the value is nil (as the encoder does).
    mutating func optionalString(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        self.key(key)
        string(value)
    }

    mutating func optionalInt(_ key: StaticString, _ value: (some BinaryInteger)?) {
        guard let value else { return }
        self.key(key)
        int(Int64(value))
    }

    /// A key and an array of objects.
    mutating func array(_ key: StaticString, _ items: [some JSONWritable]) {
        self.key(key)
        beginArray()
        for item in items { item.write(to: &self) }
        endArray()
    }
}

extension PlanItem: JSONWritable {
    public func write(to w: inout JSONWriter) {
        w.beginObject()
        if let files {
            w.key("files")
            w.beginArray()
            for file in files { file.write(to: &w) }
            w.endArray()
        }
        w.key("id"); w.int(id)
        if orphan == true { w.key("orphan"); w.bool(true) }
        w.key("path"); w.string(path)
        w.optionalString("path_raw", pathRaw)
        w.optionalInt("position", position)
        w.key("root"); w.string(root)
        w.key("size"); w.int(size)
        w.key("step"); w.int(step)
        w.endObject()
    }
}

extension PlanFile: JSONWritable {
    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key("kind"); w.string(kind)
        w.key("path"); w.string(path)
        w.optionalString("path_raw", pathRaw)
        w.key("size"); w.int(size)
        w.key("type"); w.string(type)
        w.endObject()
    }
}

extension DeletePlanResult: JSONWritable {
    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key("bytes"); w.int(bytes)
        w.key("count"); w.int(count)
        w.key("expires_in_ms"); w.int(expiresInMs)
        w.optionalInt("files", files)
        w.array("items", items)
        w.optionalInt("photos", photos)
        w.key("token"); w.string(token)
        w.endObject()
    }
}

extension BatchItemResult: JSONWritable {
    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.optionalString("detail", detail)
        w.optionalInt("group", group)
        w.key("id"); w.int(id)
        w.key("outcome"); w.string(outcome.rawValue)
        w.key("path"); w.string(path)
        w.optionalString("path_raw", pathRaw)
        w.key("root"); w.string(root)
        w.key("size"); w.int(size)
        w.key("step"); w.int(step)
        w.endObject()
    }
}

extension BatchResult: JSONWritable {
    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key("batch"); w.int(batch)
        w.key("bytes"); w.int(bytes)
        w.array("items", items)
        w.key("skipped"); w.int(skipped)
        w.key("state"); w.string(state.rawValue)
        w.key("trashed"); w.int(trashed)
        w.endObject()
    }
}

extension UndoResult: JSONWritable {
    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key("batch"); w.int(batch)
        w.key("conflicts"); w.int(conflicts)
        w.array("items", items)
        w.key("missing"); w.int(missing)
        w.key("restored"); w.int(restored)
        w.key("state"); w.string(state.rawValue)
        w.endObject()
    }
}

extension Wire {
    /// A success line for a `JSONWritable` result, keys in the order the Codable
    /// encoder sorts them (`id`, `ok`, `result`).
    static func writtenSuccess(id: RequestID?, result: any JSONWritable, capacity: Int) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: capacity)
        w.successLine(id: id) { result.write(to: &$0) }
        return w.bytes
    }
}

extension JSONWriter {
    /// The envelope `Wire.success` encodes, keys in the Codable encoder's order
    /// (`id`, `ok`, `result`), around what `result` writes; then the newline.
    mutating func successLine(id: RequestID?, _ result: (inout JSONWriter) -> Void) {
        beginSuccessLine(id: id)
        result(&self)
        endSuccessLine()
    }

    /// The envelope up to `"result":`, for a result written in pieces.
    mutating func beginSuccessLine(id: RequestID?) {
        beginObject()
        if let id {
            key("id")
            switch id {
            case .number(let n): int(n)
            case .string(let s): string(s)
            }
        }
        key("ok"); bool(true)
        key("result")
    }

    /// Closes what `beginSuccessLine` opened, and the line.
    mutating func endSuccessLine() {
        endObject()
        newline()
    }
}
