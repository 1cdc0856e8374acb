// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
@testable import CuratorDaemon
import Testing

/// Request lines as a client's bytes come, in reads of any size: whole lines out,
/// an unfinished one kept, and a line past the limit refused once, as soon as it
/// is that long, its tail dropped up to its newline.
struct RequestLinesTests {
    static let limit = ProtocolInfo.maxRequestBytes

    static func bytes(_ text: String) -> ArraySlice<UInt8> { ArraySlice(text.utf8) }

    static func drain(_ lines: inout RequestLines) -> [RequestLines.Line] {
        var out: [RequestLines.Line] = []
        while let line = lines.next() { out.append(line) }
        return out
    }

    @Test func linesComeOutWholeWhateverTheReads() {
        let text = "{\"id\":1}\n{\"id\":2}\n\n{\"id\":3}\r\n"
        for size in [1, 2, 3, 7, text.utf8.count] {
            var lines = RequestLines()
            var out: [RequestLines.Line] = []
            var rest = Array(text.utf8)[...]
            while !rest.isEmpty {
                lines.append(rest.prefix(size))
                rest = rest.dropFirst(size)
                out += Self.drain(&lines)
            }
            // Blank lines and a CR are the connection's to ignore: they come out as they are.
            #expect(out == [.request(Array("{\"id\":1}".utf8)), .request(Array("{\"id\":2}".utf8)), .request([]),
                            .request(Array("{\"id\":3}\r".utf8))], "reads of \(size)")
        }
    }

    @Test func anUnfinishedLineWaitsForItsNewline() {
        var lines = RequestLines()
        lines.append(Self.bytes("{\"id\":"))
        #expect(!lines.hasLine)
        #expect(lines.next() == nil)
        lines.append(Self.bytes("7}\n{\"id\""))
        #expect(lines.hasLine)
        #expect(lines.next() == .request(Array("{\"id\":7}".utf8)))
        #expect(lines.next() == nil)
        #expect(!lines.hasLine)
    }

    /// The refusal comes as soon as the line is too long, not when (or if) its
    /// newline arrives; what follows the newline is a line like any other.
    @Test func aLineTooLongIsRefusedOnceAndItsTailDropped() {
        var lines = RequestLines()
        let chunk = ArraySlice([UInt8](repeating: UInt8(ascii: "x"), count: 64 << 10))
        var out: [RequestLines.Line] = []
        for _ in 0..<(Self.limit / chunk.count) {
            lines.append(chunk)
            out += Self.drain(&lines)
        }
        #expect(out.isEmpty, "exactly the limit: still a request")
        lines.append(Self.bytes("x"))
        #expect(Self.drain(&lines) == [.tooLarge])
        for _ in 0..<40 {
            lines.append(chunk)
            #expect(Self.drain(&lines).isEmpty, "the tail is dropped as it comes")
        }
        lines.append(Self.bytes("xxx\n{\"id\":2}\n"))
        #expect(Self.drain(&lines) == [.request(Array("{\"id\":2}".utf8))])
    }

    @Test func aWholeLineTooLongInOneReadIsRefused() {
        var lines = RequestLines()
        lines.append(ArraySlice([UInt8](repeating: UInt8(ascii: "y"), count: Self.limit + 1) + Array("\n{}\n".utf8)))
        #expect(Self.drain(&lines) == [.tooLarge, .request(Array("{}".utf8))])
    }

    @Test func aLineOfExactlyTheLimitIsARequest() {
        var lines = RequestLines()
        let line = [UInt8](repeating: UInt8(ascii: "z"), count: Self.limit)
        lines.append(ArraySlice(line + [UInt8(ascii: "\n")]))
        #expect(Self.drain(&lines) == [.request(line)])
    }
}
