// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation

/// What exiftool reads from a file: the reference the daemon's readers are held to.
public enum ExifTool {
    public static let path = "/usr/bin/exiftool"

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The tags asked for (exiftool's names, such as `DateTimeOriginal`), as text;
    /// a tag the file lacks is absent. Numbers (SubSecTimeOriginal "25") come as text too.
    /// With `numeric`, values as stored (`-n`: ExposureTime 0.004, not "1/250").
    public static func tags(_ names: [String], of file: String, numeric: Bool = false) throws -> [String: String] {
        let output = try Tool.run(path, ["-j"] + (numeric ? ["-n"] : []) + names.map { "-" + $0 } + [file], timeout: 60)
        guard output.status == 0,
              let list = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]],
              let first = list.first
        else { throw Failure(description: "exiftool failed on \(file): \(output.output)") }
        var tags: [String: String] = [:]
        for name in names {
            if let value = first[name] { tags[name] = "\(value)" }
        }
        return tags
    }

    /// `YYYY:MM:DD HH:MM:SS` as the wire writes it (`YYYY-MM-DDTHH:MM:SS`).
    public static func wire(_ exifDate: String?) -> String? {
        guard let exifDate, exifDate.count >= 19 else { return nil }
        var chars = Array(exifDate.prefix(19))
        chars[4] = "-"
        chars[7] = "-"
        chars[10] = "T"
        return String(chars)
    }
}
