// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorXMP
import Testing

/// The thin layer over exempi: parse, read, change, serialize, and errors that say
/// what failed and where.
struct XMPPacketTests {
    static let sample = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about=""
            xmlns:xmp="http://ns.adobe.com/xap/1.0/"
            xmlns:darktable="http://darktable.sf.net/"
            xmlns:acme="http://example.com/acme/1.0/"
           xmp:Rating="4" acme:Secret="keep me">
           <darktable:colorlabels>
            <rdf:Seq><rdf:li>3</rdf:li><rdf:li>0</rdf:li></rdf:Seq>
           </darktable:colorlabels>
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>
        """

    static let rating = XMPProperty(.xmp, "Rating")
    static let colorLabels = XMPProperty(.darktable, "colorlabels")

    @Test func readsSimplePropertiesAndArrays() throws {
        let packet = try XMPPacket(parsing: Array(Self.sample.utf8), path: "/p/a.xmp")
        #expect(packet.text(Self.rating) == "4")
        #expect(packet.items(Self.colorLabels) == ["3", "0"])
        // An array is not a simple value, and a simple value is not an array.
        #expect(packet.text(Self.colorLabels) == nil)
        #expect(packet.items(Self.rating) == nil)
        #expect(packet.text(XMPProperty(.xmp, "Label")) == nil)
    }

    @Test func anEmptyFileIsAnEmptyPacket() throws {
        let packet = try XMPPacket(parsing: [], path: "/p/empty.xmp")
        #expect(packet.text(Self.rating) == nil)
    }

    @Test func whatIsNotXMLThrowsWithThePathAndTheToolkitsCode() throws {
        let error = try #require(throws: XMPError.self) {
            _ = try XMPPacket(parsing: Array("<x:xmpmeta><unclosed".utf8), path: "/p/broken.xmp")
        }
        #expect(error.operation == "parse" && error.path == "/p/broken.xmp" && error.code == -201)
        #expect(error.description.contains("/p/broken.xmp") && error.description.contains("not well-formed XML"))
    }

    @Test func changesOurPropertiesAndKeepsAnUnknownNamespace() throws {
        let packet = try XMPPacket(parsing: Array(Self.sample.utf8), path: nil)
        try packet.set(Self.rating, "-1")
        try packet.setItems(Self.colorLabels, ["2"])
        try packet.set(XMPProperty(.digiKam, "PickLabel"), "1")
        let again = try XMPPacket(parsing: try packet.serialized(), path: nil)
        #expect(again.text(Self.rating) == "-1")
        #expect(again.items(Self.colorLabels) == ["2"])
        #expect(again.text(XMPProperty(.digiKam, "PickLabel")) == "1")
        let text = String(decoding: try packet.serialized(), as: UTF8.self)
        #expect(text.contains("http://example.com/acme/1.0/") && text.contains("keep me"))
        #expect(!text.contains("<?xpacket"))
    }

    @Test func removingAbsentPropertiesIsNoError() throws {
        let packet = try XMPPacket(parsing: Array(Self.sample.utf8), path: nil)
        try packet.remove(XMPProperty(.xmp, "Label"))
        try packet.remove(Self.colorLabels)
        #expect(!packet.has(Self.colorLabels))
        // A simple value set where an array was replaces it.
        let other = try XMPPacket(parsing: Array(Self.sample.utf8), path: nil)
        try other.set(Self.colorLabels, "1")
        #expect(other.text(Self.colorLabels) == "1")
    }
}
