// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorSystem
import Foundation
import Glibc
import Testing

/// stderr is the daemon's log: what a C library prints there unasked is silenced,
/// and the log's own lines still go out meanwhile.
@Suite(.serialized) struct StandardErrorTests {
    @Test func aLibrarysOwnStderrLinesAreSilencedAndTheLogIsNot() throws {
        let path = NSTemporaryDirectory() + "curatord-stderr-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let file = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(file >= 0)
        defer { unlink(path) }
        let saved = dup(2)
        try #require(saved >= 0)
        fflush(nil)
        dup2(file, 2)
        close(file)
        // The log as the daemon makes it at start, on this stderr.
        let logger = Logger(environment: [:])
        logger.level = .debug
        StandardError.silenced {
            // What libinotifytools does when the kernel dropped a watch already.
            let noise = "Failed to remove watch on /proc/self/fd/15: Unknown error -1\n"
            _ = noise.withCString { Glibc.write(2, $0, strlen($0)) }
            logger.debug("inotify watch 15 was gone already")
        }
        logger.warning("after")
        fflush(nil)
        dup2(saved, 2)
        close(saved)
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        #expect(!text.contains("Failed to remove watch"), "\(text)")
        #expect(text.contains("debug: inotify watch 15 was gone already"), "\(text)")
        #expect(text.contains("warning: after"), "\(text)")
    }
}
