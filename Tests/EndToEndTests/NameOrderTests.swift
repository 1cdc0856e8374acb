// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing

/// A view sorted by name lists names as file managers do (issue 48, 17): numbers by
/// value, letters without case; folders the same way.
struct NameOrderTests {
    @Test func aViewByNameIsNaturalAndCaseInsensitive() throws {
        let d = Daemon()
        for folder in ["2024/9", "2024/10", "2024/Beach", "2024/apples"] {
            try FileManager.default.createDirectory(atPath: d.root() + "/" + folder, withIntermediateDirectories: true)
        }
        for name in ["IMG_10.JPG", "IMG_2.JPG", "img_0002.jpg", "IMG_0001.JPG", "IMG_0003.JPG"] {
            Files.write(d.root() + "/2024/9/" + name, name)
        }
        for folder in ["2024/10", "2024/Beach", "2024/apples"] { Files.write(d.root() + "/" + folder + "/a.jpg", folder) }
        try d.start()
        try d.waitForScanToFinish()
        let result = try d.client().result(["cmd": "list", "sort": "name"])
        let paths = (result["photos"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        #expect(paths == ["2024/9/IMG_0001.JPG", "2024/9/IMG_2.JPG", "2024/9/img_0002.jpg", "2024/9/IMG_0003.JPG",
                          "2024/9/IMG_10.JPG", "2024/10/a.jpg", "2024/apples/a.jpg", "2024/Beach/a.jpg"], "\(paths)")
        let descending = try d.client().result(["cmd": "list", "sort": "name", "order": "desc"])
        let reversed = (descending["photos"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        #expect(reversed == paths.reversed())
    }
}
