// SPDX-License-Identifier: GPL-2.0-or-later
import CExempi

/// One XMP packet in the toolkit's memory: parsed from a sidecar's bytes, changed
/// property by property, serialized back. Everything the toolkit parsed and
/// curatord does not name (another editor's develop settings, its history, unknown
/// namespaces) stays in the tree and is written out again, so changing a property
/// never drops another. Not Sendable: the toolkit object is used by one thread.
public final class XMPPacket {
    /// The toolkit's object; a file handler (`EmbeddedXMP`) reads into and writes from it.
    let handle: XmpPtr
    /// The file the packet came from or goes to, for errors.
    public let path: String?

    /// An empty packet, for a sidecar that does not exist yet.
    public init(path: String? = nil) throws(XMPError) {
        try XMPToolkit.ready()
        guard let handle = xmp_new_empty() else { throw XMPError("create", path: path, code: xmp_get_error()) }
        self.handle = handle
        self.path = path
    }

    /// Parses `bytes`, a whole sidecar (or an XMP packet cut from an image). An
    /// empty file is an empty packet; anything else that is not XMP throws.
    public init(parsing bytes: [UInt8], path: String?) throws(XMPError) {
        try XMPToolkit.ready()
        guard let handle = xmp_new_empty() else { throw XMPError("create", path: path, code: xmp_get_error()) }
        let parsed = bytes.isEmpty || bytes.withUnsafeBytes { raw in
            xmp_parse(handle, raw.baseAddress?.assumingMemoryBound(to: CChar.self), raw.count)
        }
        guard parsed else {
            let code = xmp_get_error()
            xmp_free(handle)
            throw XMPError("parse", path: path, code: code)
        }
        self.handle = handle
        self.path = path
    }

    /// Takes over a packet the toolkit made (a file handler's read); freed with this.
    init(adopting handle: XmpPtr, path: String?) {
        self.handle = handle
        self.path = path
    }

    deinit { xmp_free(handle) }

    /// The value of a simple property; nil when it is absent or is an array or a
    /// structure (a malformed file's `xmp:Rating` as a list is no rating).
    public func text(_ property: XMPProperty) -> String? {
        Self.withString { value in
            var bits: UInt32 = 0
            guard xmp_get_property(handle, property.namespace.uri, property.name, value, &bits),
                  bits & curator_xmp_prop_composite_mask == 0 else { return nil }
            return Self.string(value)
        }
    }

    /// The items of an array property (`darktable:colorlabels`), at most `limit` of
    /// them; nil when the property is absent or not an array.
    public func items(_ property: XMPProperty, limit: Int = 64) -> [String]? {
        Self.withString { value -> [String]? in
            var bits: UInt32 = 0
            guard xmp_get_property(handle, property.namespace.uri, property.name, value, &bits),
                  bits & UInt32(XMP_PROP_VALUE_IS_ARRAY.rawValue) != 0 else { return nil }
            var items: [String] = []
            // XMP arrays count from 1.
            for index in 1...max(1, limit) {
                guard xmp_get_array_item(handle, property.namespace.uri, property.name, Int32(index), value, &bits) else { break }
                if bits & curator_xmp_prop_composite_mask == 0 { items.append(Self.string(value)) }
            }
            return items
        }
    }

    public func has(_ property: XMPProperty) -> Bool {
        xmp_has_property(handle, property.namespace.uri, property.name)
    }

    /// Sets a simple property, replacing whatever it was (an array included).
    public func set(_ property: XMPProperty, _ value: String) throws(XMPError) {
        if let bits = kind(property), bits & curator_xmp_prop_composite_mask != 0 { try remove(property) }
        guard xmp_set_property(handle, property.namespace.uri, property.name, value, 0) else {
            throw XMPError("set \(property)", path: path, code: xmp_get_error())
        }
    }

    /// Makes `property` an ordered array (`rdf:Seq`) of exactly `values`.
    public func setItems(_ property: XMPProperty, _ values: [String]) throws(XMPError) {
        try remove(property)
        for value in values {
            guard xmp_append_array_item(handle, property.namespace.uri, property.name, curator_xmp_prop_array_is_ordered, value, 0) else {
                throw XMPError("append to \(property)", path: path, code: xmp_get_error())
            }
        }
    }

    /// Removes a property and everything under it; nothing when it is absent.
    public func remove(_ property: XMPProperty) throws(XMPError) {
        guard has(property) else { return }
        guard xmp_delete_property(handle, property.namespace.uri, property.name) else {
            throw XMPError("delete \(property)", path: path, code: xmp_get_error())
        }
    }

    /// The packet as a sidecar holds it: UTF-8 RDF/XML in the compact form Adobe's
    /// own sidecars use, without the `<?xpacket?>` wrapper that only embedded
    /// packets need.
    public func serialized() throws(XMPError) -> [UInt8] {
        try Self.withString { (buffer) throws(XMPError) -> [UInt8] in
            guard xmp_serialize(handle, buffer, curator_xmp_serial_sidecar, 0) else {
                throw XMPError("serialize", path: path, code: xmp_get_error())
            }
            guard let start = xmp_string_cstr(buffer) else { return [] }
            return start.withMemoryRebound(to: UInt8.self, capacity: xmp_string_len(buffer)) {
                Array(UnsafeBufferPointer(start: $0, count: xmp_string_len(buffer)))
            }
        }
    }

    /// The option bits of a property; nil when it is absent.
    private func kind(_ property: XMPProperty) -> UInt32? {
        Self.withString { value in
            var bits: UInt32 = 0
            return xmp_get_property(handle, property.namespace.uri, property.name, value, &bits) ? bits : nil
        }
    }

    private static func withString<R, E: Error>(_ body: (XmpStringPtr) throws(E) -> R) throws(E) -> R {
        // xmp_string_new is `new std::string`: it fails only by aborting the process.
        guard let string = xmp_string_new() else { fatalError("xmp_string_new: out of memory") }
        defer { xmp_string_free(string) }
        return try body(string)
    }

    /// The toolkit's string as Swift text, by its length (invalid UTF-8 repaired).
    private static func string(_ value: XmpStringPtr) -> String {
        guard let start = xmp_string_cstr(value) else { return "" }
        let count = xmp_string_len(value)
        return start.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
    }
}
