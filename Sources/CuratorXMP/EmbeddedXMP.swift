// SPDX-License-Identifier: GPL-2.0-or-later
import CExempi
import CuratorSystem

/// The XMP packet inside a JPEG or a TIFF (a DNG, a TIFF-based RAW), read and
/// written by the toolkit's own handler for the format (XMPFiles), never by
/// curatord: a TIFF's packet is a tag of its first directory, and a packet that
/// grows must move within the file, which only the format's handler does right.
///
/// The toolkit opens files by path. It is given the open descriptor's name in
/// /proc (`/proc/self/fd/N`), so that it reads or writes the very file curatord
/// opened (from the root down, following no symlink) and not whatever the path
/// names a moment later. Only a format's own handler is used: a file no handler
/// claims (HEIF) would be read by scanning all of its bytes for a packet, which
/// is neither cheap nor exact, and is reported as holding none.
public enum EmbeddedXMP {
    /// The packet of the file open on `descriptor`; nil when it holds none or no
    /// handler of the toolkit reads its format. `path` is for errors.
    public static func read(_ descriptor: FileDescriptor, path: String) throws(XMPError) -> XMPPacket? {
        try XMPToolkit.ready()
        let file = try open("/proc/self/fd/\(descriptor.rawValue)", curator_xmp_open_read, path: path)
        // Read only: closing has nothing to write, and free closes it.
        defer { xmp_files_free(file) }
        guard handles(file) else { return nil }
        guard let packet = xmp_files_get_new_xmp(file) else { return nil }
        return XMPPacket(adopting: packet, path: path)
    }

    /// Applies `edit` to the packet of the file `name` in the folder open on
    /// `folder` (a private copy of the image, in a folder only curatord writes in:
    /// the handler may write a temporary file beside it and rename it over) and
    /// writes the packet back into that file. `edit` returns false when nothing is
    /// to change; nothing is written then. Returns the packet before and after the
    /// edit, or nil when no handler of the toolkit writes the file's format.
    public static func update(_ name: String, in folder: FileDescriptor, path: String,
                              edit: (XMPPacket) throws(XMPError) -> Bool) throws(XMPError) -> Update? {
        try XMPToolkit.ready()
        let file = try open("/proc/self/fd/\(folder.rawValue)/\(name)", curator_xmp_open_update, path: path)
        defer { xmp_files_free(file) }
        guard handles(file) else { return nil }
        let before = try packet(of: file, path: path)
        let after = try packet(of: file, path: path)
        guard try edit(after) else { return Update(before: before, after: after, written: false) }
        guard xmp_files_can_put_xmp(file, after.handle), xmp_files_put_xmp(file, after.handle) else {
            throw XMPError("write the packet into", path: path, code: xmp_get_error())
        }
        guard xmp_files_close(file, XMP_CLOSE_NOOPTION) else { throw XMPError("write", path: path, code: xmp_get_error()) }
        return Update(before: before, after: after, written: true)
    }

    /// What `update` did: the packet before and after the edit, and whether the
    /// file was written (false: it already said all of it).
    public struct Update {
        public var before: XMPPacket
        public var after: XMPPacket
        public var written: Bool
    }

    private static func open(_ named: String, _ options: XmpOpenFileOptions, path: String) throws(XMPError) -> XmpFilePtr {
        guard let file = xmp_files_open_new(named, options) else { throw XMPError("open", path: path, code: xmp_get_error()) }
        return file
    }

    /// The file's packet, or an empty one (a file without XMP gets one written).
    private static func packet(of file: XmpFilePtr, path: String) throws(XMPError) -> XMPPacket {
        if let packet = xmp_files_get_new_xmp(file) { return XMPPacket(adopting: packet, path: path) }
        return try XMPPacket(path: path)
    }

    /// Whether a format's own handler opened the file (not the packet scanner).
    private static func handles(_ file: XmpFilePtr) -> Bool {
        var format = XMP_FT_UNKNOWN
        guard xmp_files_get_file_info(file, nil, nil, &format, nil) else { return false }
        return format == XMP_FT_JPEG || format == XMP_FT_TIFF
    }
}
