// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import CuratorTestSupport

/// The imaging libraries live in the worker only: the daemon and the CLI must not
/// load them (a decoder crash would be theirs, and their idle memory would carry
/// libvips and its dependencies).
struct LinkageTests {
    @Test(arguments: ["curatord", "curatorctl"])
    func noImagingLibraryOutsideTheWorker(binary: String) throws {
        let path = Package.binDirectory + "/" + binary
        try #require(Tool.exists(path), "build first: \(path)")
        let out = try Tool.run("/usr/bin/ldd", [path])
        #expect(out.status == 0, "\(out.stderr)")
        for library in ["libvips", "libraw", "libheif", "libjpeg", "libpng", "libpango"] {
            #expect(!out.stdout.contains(library), "\(binary) loads \(library)")
        }
    }

    @Test func theWorkerHasThem() throws {
        let out = try Tool.run("/usr/bin/ldd", [Package.thumbnailer])
        #expect(out.stdout.contains("libvips") && out.stdout.contains("libraw_r"))
    }
}
