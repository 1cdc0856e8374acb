// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import CuratorThumbnails
import Testing
import CuratorTestSupport

struct MD5Tests {
    /// RFC 1321, appendix A.5.
    @Test(arguments: [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("a", "0cc175b9c0f1b6a831c399e269772661"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
        ("12345678901234567890123456789012345678901234567890123456789012345678901234567890",
         "57edf4a22be3c955ac49da2e2107b67a"),
    ])
    func rfc1321(input: String, digest: String) {
        #expect(MD5.hex(input.utf8) == digest)
    }

    /// The lengths where padding spills into a second block, checked against md5sum.
    @Test func paddingBoundariesAgreeWithMd5sum() throws {
        let scratch = try ScratchDirectory(label: "thumbs")
        for length in [55, 56, 57, 63, 64, 65, 119, 120, 128, 1000, 70_001] {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let file = try scratch.write(ByteString("b\(length)"), bytes)
            let out = try Tool.run("/usr/bin/md5sum", [file.lossyString])
            #expect(out.status == 0)
            #expect(String(out.stdout.prefix(32)) == MD5.hex(bytes), "length \(length)")
        }
    }

    @Test func incrementalUpdatesEqualOneShot() {
        let bytes = (0..<300).map { UInt8(truncatingIfNeeded: $0) }
        var md5 = MD5()
        md5.update(bytes[0..<10])
        md5.update(bytes[10..<130])
        md5.update(bytes[130...])
        #expect(md5.finish() == MD5.digest(bytes))
    }
}
