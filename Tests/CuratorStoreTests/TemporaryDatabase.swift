// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorStore
import CuratorSystem
import Foundation
import Glibc

/// A directory of its own for one test's database files, removed afterwards.
final class TemporaryDirectory {
    let path: String

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/curatord-store-test-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw SystemError("mkdtemp", errno: .current) }
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }

    /// A database with a table `t(id INTEGER PRIMARY KEY, v TEXT)` holding `rows` rows.
    func database(_ name: String = "test.sqlite", rows: Int = 0, durability: Database.Durability = .normal) throws -> Database {
        let database = try Database(path: file(name), durability: durability)
        try database.execute("CREATE TABLE IF NOT EXISTS t(id INTEGER PRIMARY KEY, v TEXT)")
        for row in 0..<rows {
            try database.prepare("INSERT INTO t(id, v) VALUES(?, ?)").bind(.int(Int64(row + 1)), .text("row \(row + 1)")).run()
        }
        return database
    }

    /// The permission bits of a file, nil when there is none.
    func mode(_ name: String) -> Int? {
        var st = stat()
        return stat(file(name), &st) == 0 ? Int(st.st_mode & 0o7777) : nil
    }

    func size(_ name: String) -> Int? {
        var st = stat()
        return stat(file(name), &st) == 0 ? Int(st.st_size) : nil
    }
}
