// SPDX-License-Identifier: GPL-2.0-or-later
import CExempi

/// The XMP Toolkit's process-wide set-up, done once: `xmp_init` and the namespaces
/// curatord reads and writes. The toolkit guards its own global tables (the
/// namespace registry) with a lock; packets are separate objects, each used by one
/// thread at a time (`XMPPacket` is not Sendable), so work on different sidecars
/// may run on several threads at once.
enum XMPToolkit {
    /// nil once the toolkit is ready; else why it is not. A global `let` is
    /// initialised once, on first use, under Swift's own lock.
    private static let failure: XMPError? = {
        guard xmp_init() else { return XMPError("initialize", path: nil, code: xmp_get_error()) }
        let prefix = xmp_string_new()
        defer { xmp_string_free(prefix) }
        for namespace in XMPNamespace.known where !xmp_register_namespace(namespace.uri, namespace.prefix, prefix) {
            return XMPError("register \(namespace.uri)", path: nil, code: xmp_get_error())
        }
        return nil
    }()

    /// Throws when the toolkit could not start; every entry point calls this first.
    static func ready() throws(XMPError) {
        if let failure { throw failure }
    }
}
