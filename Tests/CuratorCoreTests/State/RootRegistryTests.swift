// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import CuratorSystem
import Testing

/// The roots: ids, names and order from `install`, runtime state kept across a
/// reload, lookups, and the protection rules.
@Suite struct RootRegistryTests {
    static func registration(_ id: Int32, _ name: String, protected: [String] = [], protectAll: Bool = false,
                             device: UInt64 = 0) -> RootRegistry.Registration {
        RootRegistry.Registration(id: id, config: RootConfig(name: name, path: ByteString("/srv/\(name)"), protected: protected,
                                                             protectAll: protectAll), device: device)
    }

    static func photo(root: Int32, name: String) -> Photo {
        Photo(id: 1, rootID: root, folderID: 1, name: ByteString(name), identity: FileIdentity(device: 1, inode: 1, size: 1, mtimeNs: 1),
              type: .jpeg, capture: .none, rank: 0)
    }

    @Test func installGivesOrderNamesAndLookups() throws {
        var roots = RootRegistry()
        roots.install([Self.registration(7, "pics"), Self.registration(3, "share")])
        #expect(roots.order == [7, 3])
        #expect(roots.name(3) == "share")
        #expect(roots.name(99) == "?")
        #expect(roots.id(named: "share") == 3)
        #expect(roots.id(named: "nope") == nil)
        #expect(roots.absolutePath(root: 7, relative: "a/b.jpg") == ByteString("/srv/pics/a/b.jpg"))
        #expect(roots.absolutePath(root: 99, relative: "a") == nil)
        do {
            _ = try roots.id(named: "nope", argument: "roots")
            Issue.record("an unknown name found a root")
        } catch {
            #expect(error.code == .noSuchRoot)
            #expect(error.argument == "roots")
        }
    }

    @Test func aReloadKeepsRuntimeStateAndDropsRootsNoLongerNamed() {
        var roots = RootRegistry()
        roots.install([Self.registration(1, "pics", device: 42), Self.registration(2, "old")])
        #expect(roots[1]?.device == 42)
        roots[1]?.online = false
        roots[1]?.overflows = 3
        roots[1]?.scanning = false
        roots.install([Self.registration(5, "new", device: 9), Self.registration(1, "pics", protected: ["keep"], device: 77)])
        #expect(roots.order == [5, 1])
        #expect(roots[2] == nil)
        #expect(roots.name(2) == "?")
        #expect(Set(roots.ids) == [1, 5])
        // The known root keeps what the watcher found out about it, with its new settings.
        #expect(roots[1]?.online == false)
        #expect(roots[1]?.overflows == 3)
        #expect(roots[1]?.scanning == false)
        #expect(roots[1]?.device == 42)
        #expect(roots[1]?.config.protected == ["keep"])
        // A new one starts afresh, from the device the index recorded.
        #expect(roots[5]?.online == true)
        #expect(roots[5]?.scanning == true)
        #expect(roots[5]?.device == 9)
    }

    @Test func protectionFollowsTheRootsRules() {
        var roots = RootRegistry()
        roots.install([Self.registration(1, "open"), Self.registration(2, "all", protectAll: true),
                       Self.registration(3, "some", protected: ["Keep", "*/raw"])])
        var asked = 0
        func folder(_ path: String) -> ByteString {
            asked += 1
            return ByteString(path)
        }
        // Asked outside #expect, which evaluates a call's arguments to show them.
        func protected(_ root: Int32, in path: String) -> Bool {
            roots.isProtected(Self.photo(root: root, name: "a.jpg"), folderPath: folder(path))
        }
        #expect(!protected(1, in: "Keep"))
        #expect(protected(2, in: "anything"))
        #expect(asked == 0, "a folder's path is looked up only where some rule names folders")
        #expect(protected(3, in: "Keep/deeper"))
        #expect(protected(3, in: "2024/raw"))
        #expect(!protected(3, in: "Keeper"))
        #expect(!protected(9, in: "Keep"))
        #expect(asked == 3)
        roots[3]?.online = false
        let facts = roots.facts
        #expect(facts.mayProtect == [2, 3])
        #expect(facts.offline == [3])
    }
}
