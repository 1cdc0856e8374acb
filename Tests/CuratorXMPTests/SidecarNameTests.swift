// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import CuratorXMP
import Testing

struct SidecarNameTests {
    @Test func aRawGetsTheShotsNameAndOthersTheFilesName() {
        #expect(SidecarName.forNewSidecar(of: "IMG_0001.CR2", isRaw: true) == "IMG_0001.xmp")
        #expect(SidecarName.forNewSidecar(of: "a.b.NEF", isRaw: true) == "a.b.xmp")
        #expect(SidecarName.forNewSidecar(of: "IMG_0001.JPG", isRaw: false) == "IMG_0001.JPG.xmp")
        #expect(SidecarName.forNewSidecar(of: "IMG_0001.HEIC", isRaw: false) == "IMG_0001.HEIC.xmp")
        // A name that is all extension keeps it (".CR2" is no stem).
        #expect(SidecarName.forNewSidecar(of: ".CR2", isRaw: true) == ".CR2.xmp")
    }
}
