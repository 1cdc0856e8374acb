// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Foundation
import CuratorTestSupport

/// GNOME's side of the thumbnail standard, asked through the real libraries:
/// gnome-desktop's `GnomeDesktopThumbnailFactory` (what Nautilus uses: it runs the
/// installed thumbnailer, gdk-pixbuf-thumbnailer for images, and saves the result
/// with its Thumb:: text) and GIO's `thumbnail::` attributes (GLib's own validity
/// check). Each runs with a private XDG_CACHE_HOME and HOME.
struct Gnome {
    let cacheHome: String
    let home: String

    private static let script = """
        import os, sys
        import gi
        gi.require_version('GnomeDesktop', '3.0')
        from gi.repository import GnomeDesktop, Gio
        op, size, path = sys.argv[1], sys.argv[2], sys.argv[3]
        sizes = {'normal': GnomeDesktop.DesktopThumbnailSize.NORMAL, 'large': GnomeDesktop.DesktopThumbnailSize.LARGE,
                 'x-large': GnomeDesktop.DesktopThumbnailSize.XLARGE, 'xx-large': GnomeDesktop.DesktopThumbnailSize.XXLARGE}
        factory = GnomeDesktop.DesktopThumbnailFactory.new(sizes[size])
        uri = Gio.File.new_for_path(path).get_uri()
        mtime = int(os.stat(path).st_mtime)
        if op == 'make':
            mime = Gio.content_type_guess(path, None)[0]
            pixbuf = factory.generate_thumbnail(uri, mime, None)
            factory.save_thumbnail(pixbuf, uri, mtime, None)
        print(factory.lookup(uri, mtime) or '')
        """

    private func run(_ op: String, size: String, path: String) throws -> String? {
        let out = try Tool.run(
            "/usr/bin/python3", ["-c", Self.script, op, size, path],
            environment: ["XDG_CACHE_HOME": cacheHome, "HOME": home, "PATH": "/usr/bin:/bin"])
        guard out.status == 0 else { throw Samples.SampleError("gnome-desktop \(op): \(out.stderr)") }
        let found = out.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return found.isEmpty ? nil : found
    }

    /// Makes and saves a thumbnail as Nautilus does; returns where it went.
    func make(_ path: String, size: String) throws -> String? { try run("make", size: size, path: path) }

    /// The valid thumbnail gnome-desktop finds for the file as it is now, if any.
    func lookup(_ path: String, size: String) throws -> String? { try run("lookup", size: size, path: path) }

    /// GIO's answer: the thumbnail path it picked and whether it is valid.
    func gio(_ path: String) throws -> (path: String?, valid: Bool?) {
        let out = try Tool.run(
            "/usr/bin/gio", ["info", "-a", "thumbnail::*", path], environment: ["XDG_CACHE_HOME": cacheHome, "HOME": home])
        var found: String?
        var valid: Bool?
        for line in out.stdout.split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("thumbnail::path: ") { found = String(text.dropFirst(17)) }
            if text.hasPrefix("thumbnail::is-valid: ") { valid = text.hasSuffix("TRUE") }
        }
        return (found, valid)
    }
}
