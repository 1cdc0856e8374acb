// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// A test client that loses its connection says what became of it: the daemon it
/// was connected to gone, or its descriptor closed by someone else in the test
/// process and the number reused (stop 31's CI lost a connection and could not
/// tell which).
@Suite struct ClientDiagnosticsTests {
    @Test func aConnectionLostToADeadDaemonSaysTheDaemonIsGone() throws {
        let d = Daemon()
        Files.write(d.root() + "/a.jpg")
        try d.start()
        defer { d.stop() }
        let client = try d.client()
        let pid = d.pid
        #expect(client.whatBecameOfIt.contains("still this socket"), "\(client.whatBecameOfIt)")
        #expect(client.whatBecameOfIt.contains("pid \(pid), which runs (curatord"), "\(client.whatBecameOfIt)")
        d.kill9()
        var failure = ""
        do {
            while try client.readLine(timeout: 10) != nil {}
            failure = "no failure"
        } catch {
            failure = "\(error)"
        }
        #expect(failure.contains("connected to pid \(pid), which is gone"), "\(failure)")
    }

    @Test func aDescriptorTakenOverBySomeoneElseIsSaidSo() throws {
        let d = Daemon()
        Files.write(d.root() + "/a.jpg")
        try d.start()
        defer { d.stop() }
        let client = try d.client()
        // Someone closes the client's descriptor and another open takes its number
        // (dup2 does both at once: other tests open files meanwhile).
        let other = open("/dev/null", O_RDONLY | O_CLOEXEC)
        try #require(other >= 0)
        try #require(dup2(other, client.fd.rawValue) == client.fd.rawValue)
        close(other)
        #expect(client.whatBecameOfIt.contains("is another file now"), "\(client.whatBecameOfIt)")
        #expect(throws: HarnessError.self) { try client.sendLine("{}") }
    }
}
