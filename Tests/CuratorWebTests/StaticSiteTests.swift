// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorWeb
import Foundation
import Testing

/// The page's files: read once, served by name only. Whatever the address, nothing
/// outside the folder and nothing but plain names of known types can be served.
@Suite struct StaticSiteTests {
    /// A page folder with a secret beside it, a symlink to it, a dotfile and a file
    /// of no known type inside.
    static func folder() throws -> String {
        let top = NSTemporaryDirectory() + "/curatord-site-\(UInt64.random(in: 0...UInt64.max))"
        let web = top + "/web"
        try FileManager.default.createDirectory(atPath: web + "/js", withIntermediateDirectories: true)
        try "<!doctype html><title>t</title>".write(toFile: web + "/index.html", atomically: true, encoding: .utf8)
        try "export const a = 1;".write(toFile: web + "/js/api.js", atomically: true, encoding: .utf8)
        try "body{}".write(toFile: web + "/app.css", atomically: true, encoding: .utf8)
        try "secret".write(toFile: top + "/secret.txt", atomically: true, encoding: .utf8)
        try "hidden".write(toFile: web + "/.hidden.js", atomically: true, encoding: .utf8)
        try "binary".write(toFile: web + "/tool.sh", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: web + "/link.txt", withDestinationPath: top + "/secret.txt")
        try FileManager.default.createSymbolicLink(atPath: web + "/up", withDestinationPath: top)
        return web
    }

    @Test func servesThePagesFilesWithTheirTypes() throws {
        let site = try StaticSite.load(directory: try Self.folder())
        let index = try #require(site.answer(for: "/"))
        #expect(index.status == 200 && index.contentType == "text/html; charset=utf-8")
        #expect(String(decoding: index.body, as: UTF8.self).hasPrefix("<!doctype html>"))
        #expect(site.answer(for: "/index.html")?.body == index.body)
        #expect(site.answer(for: "/js/api.js")?.contentType == "text/javascript; charset=utf-8")
        #expect(site.answer(for: "/app.css")?.contentType == "text/css; charset=utf-8")
    }

    @Test func nothingOutsideTheFolderOrBesideItsPlainNamesIsServed() throws {
        let site = try StaticSite.load(directory: try Self.folder())
        for path in ["/../secret.txt", "/js/../../secret.txt", "/link.txt", "/up/secret.txt", "/up/web/index.html",
                     "/.hidden.js", "/tool.sh", "//index.html", "/js/", "/js", "/index.html/", "/./index.html",
                     "/%2e%2e/secret.txt", "index.html"] {
            #expect(site.answer(for: path) == nil, "\(path) was served")
        }
        #expect(site.files.keys.sorted() == ["/app.css", "/index.html", "/js/api.js"])
    }

    /// Before a session, the system service serves the sign-in form's files and no other.
    @Test func onlyTheSignInFormsFilesAreServedBeforeASession() throws {
        let web = try Self.folder()
        try "<!doctype html><title>sign in</title>".write(toFile: web + "/login.html", atomically: true, encoding: .utf8)
        try "export {};".write(toFile: web + "/js/login.js", atomically: true, encoding: .utf8)
        let site = try StaticSite.load(directory: web)
        for path in ["/login.html", "/js/login.js", "/app.css"] {
            #expect(site.signInAnswer(for: path)?.status == 200, "\(path) was not served")
        }
        for path in ["/", "/index.html", "/js/api.js", "/js/../js/login.js", "/icon.svg", "/login"] {
            #expect(site.signInAnswer(for: path) == nil, "\(path) was served before a session")
        }
    }

    @Test func aFolderWithoutAnIndexIsNoPage() throws {
        let web = try Self.folder()
        try FileManager.default.removeItem(atPath: web + "/index.html")
        #expect(throws: (any Error).self) { try StaticSite.load(directory: web) }
        #expect(throws: (any Error).self) { try StaticSite.load(directory: web + "/nowhere") }
    }
}
