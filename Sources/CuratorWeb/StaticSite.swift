// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import CuratorSystem
import Glibc

/// The page's files (`web/`), read once at start into memory and served from there:
/// an address is looked up among the names found then, never joined to a path, so no
/// `..`, symlink or file added later can make the gateway serve anything else. Only
/// plain names (letters, digits, `.`, `-`, `_`, not starting with `.`) of the types
/// below are taken; everything else in the folder is ignored.
struct StaticSite: Sendable {
    struct File: Sendable {
        let contentType: String
        let body: [UInt8]
    }

    let directory: String
    let files: [String: File]

    static let contentTypes: [String: String] = [
        "html": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "json": "application/json",
        "svg": "image/svg+xml",
        "png": "image/png",
        "ico": "image/x-icon",
        "txt": "text/plain; charset=utf-8",
    ]
    /// A page is a few hundred kilobytes; these bound a folder given by mistake.
    static let fileLimit = 4 << 20
    static let totalLimit = 32 << 20
    static let depthLimit = 6

    /// Reads `directory`; throws when it cannot be read or holds no `index.html`.
    static func load(directory: String) throws(SystemError) -> StaticSite {
        var files: [String: File] = [:]
        var total = 0
        let top = try FileDescriptor.openDirectory(ByteString(directory))
        try top.closeAfter(path: directory) { (fd) throws(SystemError) in
            try collect(fd, path: directory, prefix: "/", depth: 0, into: &files, total: &total)
        }
        guard files["/index.html"] != nil else {
            throw SystemError("open", path: directory + "/index.html", errno: Errno(ENOENT))
        }
        return StaticSite(directory: directory, files: files)
    }

    /// The answer for `path` (`/` is `/index.html`), nil when the site has no such file.
    func answer(for path: String) -> HTTPAnswer? {
        guard let file = files[path == "/" ? "/index.html" : path] else { return nil }
        return HTTPAnswer(status: 200, contentType: file.contentType, body: file.body)
    }

    /// The sign-in form of the system service and what it loads: served before a
    /// session exists. They hold no user's data; the rest of the page waits for a session.
    static let signInPaths: Set<String> = ["/login.html", "/js/login.js", "/app.css", "/icon.svg"]

    /// `path`'s answer when it is one of `signInPaths`.
    func signInAnswer(for path: String) -> HTTPAnswer? {
        Self.signInPaths.contains(path) ? answer(for: path) : nil
    }

    static func isPlainName(_ name: [UInt8]) -> Bool {
        guard let first = name.first, first != UInt8(ascii: "."), name.count <= 128 else { return false }
        return name.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }

    static func contentType(of name: String) -> String? {
        guard let dot = name.lastIndex(of: ".") else { return nil }
        return contentTypes[String(name[name.index(after: dot)...]).lowercased()]
    }

    private static func collect(_ dir: FileDescriptor, path: String, prefix: String, depth: Int,
                                into files: inout [String: File], total: inout Int) throws(SystemError) {
        // The listing takes its own descriptor: `dir` stays the caller's.
        let listing = try DirectoryReader.entries(ofOpen: FileDescriptor.open(".", O_RDONLY | curator_O_DIRECTORY,
                                                                             relativeTo: dir), path: ByteString(path))
        for entry in listing where isPlainName(entry.name.bytes) {
            let name = entry.name.lossyString
            switch entry.kind {
            case .directory where depth < depthLimit:
                let child = try FileDescriptor.openDirectory(entry.name, relativeTo: dir)
                try child.closeAfter(path: path + "/" + name) { (fd) throws(SystemError) in
                    try collect(fd, path: path + "/" + name, prefix: prefix + name + "/", depth: depth + 1,
                                into: &files, total: &total)
                }
            case .file, .unknown:
                guard let type = contentType(of: name) else { continue }
                let file = try FileDescriptor.open(entry.name, O_RDONLY | curator_O_NOFOLLOW, relativeTo: dir)
                let body = try file.closeAfter(path: path + "/" + name) { (fd) throws(SystemError) in
                    try fd.readAll(limit: fileLimit, path: path + "/" + name)
                }
                total += body.count
                guard total <= totalLimit else {
                    throw SystemError("read", path: path + "/" + name, errno: Errno(EFBIG))
                }
                files[prefix + name] = File(contentType: type, body: body)
            default:
                continue
            }
        }
    }
}
