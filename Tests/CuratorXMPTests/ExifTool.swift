// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorTestSupport
import Foundation
import Testing

/// exiftool, the independent writer and reader of the interoperability tests, with
/// the namespaces it does not know (darktable's, and one nobody knows) declared in
/// a configuration of its own.
enum ExifTool {
    static let executable = "/usr/bin/exiftool"
    static let exempi = "/usr/bin/exempi"

    static let configuration = """
        %Image::ExifTool::UserDefined = (
            'Image::ExifTool::XMP::Main' => {
                darktable => { SubDirectory => { TagTable => 'Image::ExifTool::UserDefined::darktable' } },
                acme => { SubDirectory => { TagTable => 'Image::ExifTool::UserDefined::acme' } },
            },
        );
        %Image::ExifTool::UserDefined::darktable = (
            GROUPS => { 0 => 'XMP', 1 => 'XMP-darktable', 2 => 'Image' },
            NAMESPACE => { 'darktable' => 'http://darktable.sf.net/' },
            WRITABLE => 'string',
            xmp_version => { Writable => 'integer' },
            history_end => { Writable => 'integer' },
            colorlabels => { List => 'Seq' },
            history_operation => { List => 'Seq' },
            history_params => { List => 'Seq' },
        );
        %Image::ExifTool::UserDefined::acme = (
            GROUPS => { 0 => 'XMP', 1 => 'XMP-acme', 2 => 'Image' },
            NAMESPACE => { 'acme' => 'http://example.com/acme/1.0/' },
            WRITABLE => 'string',
            Secret => { },
            Levels => { List => 'Bag' },
        );
        1;
        """

    /// Writes the configuration beside the test's files and returns its path.
    static func configure(in directory: String) throws -> String {
        let path = directory + "/exiftool.config"
        try configuration.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Runs exiftool with the configuration; fails the test on a non-zero status.
    @discardableResult
    static func run(_ arguments: [String], in directory: String) throws -> String {
        try #require(Tool.exists(executable), "exiftool is missing: scripts/install-deps.sh installs it")
        let output = try Tool.run(executable, ["-config", try configure(in: directory)] + arguments, timeout: 60)
        try #require(output.status == 0, "exiftool \(arguments): \(output.output)")
        return output.stdout
    }

    /// Creates the sidecar `path` holding the given tag assignments (`-XMP-xmp:Rating=3`).
    static func create(_ path: String, _ assignments: [String], in directory: String) throws {
        try? FileManager.default.removeItem(atPath: path)
        try run(["-q", "-o", path] + assignments, in: directory)
    }

    /// One tag's value as exiftool reads it, unconverted; nil when absent.
    static func value(_ tag: String, of path: String, in directory: String) throws -> String? {
        let text = try run(["-s3", "-n", "-\(tag)", path], in: directory)
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// exiftool's reading of every XMP tag of a file (`-j -G1 -struct`): structures and
    /// lists whole, each value as it reads it, by `Group:Tag`.
    static func dump(_ path: String, in directory: String) throws -> [String: Any] {
        let text = try run(["-j", "-G1", "-struct", "-XMP:all", path], in: directory)
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]
        return try #require(parsed?.first, "exiftool -j: \(text)")
    }

    /// A property as exempi's own command-line tool reads it.
    static func exempiValue(_ property: String, of path: String) throws -> String {
        try #require(Tool.exists(exempi), "exempi is missing: scripts/install-deps.sh installs it")
        let output = try Tool.run(exempi, ["-X", "-g", property, path], timeout: 60)
        try #require(output.status == 0, "exempi -g \(property) \(path): \(output.output)")
        return output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
