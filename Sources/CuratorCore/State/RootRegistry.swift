// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// The configured roots: their stable ids, names and configuration order, and
/// each one's runtime state (online, how it is watched, scan progress, counters).
/// Roots come and go only through `install` (start and reload); the watcher
/// changes their runtime state through the subscript.
struct RootRegistry {
    /// One root as `install` takes it: its id (stored in the index), its settings,
    /// and the device it was indexed on (0: unknown).
    struct Registration: Equatable {
        var id: Int32
        var config: RootConfig
        var device: UInt64
    }

    private var runtimes: [Int32: RootRuntime] = [:]
    /// Root ids in configuration order.
    private(set) var order: [Int32] = []
    /// Each root's name by id, kept with `runtimes` by `install`: looked up per photo
    /// in a listing, where reading `runtimes[id]` would copy a whole `RootRuntime`
    /// (its configuration's arrays included) each time.
    private(set) var names: [Int32: String] = [:]
    /// Inotify queue overflows and full rescans since start, over every root.
    var totalOverflows = 0
    var totalRescans = 0

    /// A root's runtime state; nil for an id that is not (or no longer) configured.
    subscript(id: Int32) -> RootRuntime? {
        get { runtimes[id] }
        _modify {
            version &+= 1
            yield &runtimes[id]
        }
    }

    /// Moves on at every change of a root's runtime state (and may where there
    /// was none): `status` is made again only after one (`StatusInputs`).
    private(set) var version: UInt64 = 0

    var ids: Dictionary<Int32, RootRuntime>.Keys { runtimes.keys }
    var values: Dictionary<Int32, RootRuntime>.Values { runtimes.values }

    /// Something of every root's runtime state, by id.
    func mapRuntimes<T>(_ transform: (RootRuntime) -> T) -> [Int32: T] { runtimes.mapValues(transform) }

    /// Makes `registrations` the configured roots, in their order: a root already
    /// known keeps its runtime state with its new settings, a new one starts
    /// afresh, and one not named any more is dropped.
    mutating func install(_ registrations: [Registration]) {
        var kept: [Int32: RootRuntime] = [:]
        for registration in registrations {
            if var existing = runtimes[registration.id] {
                existing.config = registration.config
                kept[registration.id] = existing
            } else {
                kept[registration.id] = RootRuntime(id: registration.id, config: registration.config, device: registration.device)
            }
        }
        runtimes = kept
        version &+= 1
        order = registrations.map(\.id)
        names = runtimes.mapValues { $0.config.name }
    }

    func name(_ id: Int32) -> String { names[id] ?? "?" }

    func id(named name: String) -> Int32? { order.first { names[$0] == name } }

    /// The root named `name`, or the error a client gets for a name that is none (`argument` names the request's key).
    func id(named name: String, argument: String) throws(ProtocolError) -> Int32 {
        guard let id = id(named: name) else {
            throw ProtocolError(.noSuchRoot, "There is no root named \"\(name)\".", argument: argument)
        }
        return id
    }

    func absolutePath(root: Int32, relative: ByteString) -> ByteString? {
        runtimes[root].map { $0.config.path.appending(relative) }
    }

    /// A photo is protected when its root is, or when a protected entry names its
    /// folder (`folderPath`) or a folder above it, or is a glob matching its folder or its path.
    func isProtected(_ photo: Photo, folderPath: @autoclosure () -> ByteString) -> Bool {
        guard let root = runtimes[photo.rootID] else { return false }
        if root.config.protectAll { return true }
        if root.protection.isEmpty { return false }
        return root.protection.covers(folder: folderPath(), name: photo.name)
    }

    /// What a listing (or a check over many photos) needs to know of every root, gathered once.
    var facts: RootFacts {
        var facts = RootFacts()
        for (id, root) in runtimes {
            if !root.online { facts.offline.insert(id) }
            if root.config.protectAll || !root.protection.isEmpty { facts.mayProtect.insert(id) }
        }
        return facts
    }
}

/// What a listing needs to know of every root, gathered once per listing rather
/// than read from the registry per photo (each read copies a `RootRuntime`).
struct RootFacts {
    var offline: Set<Int32> = []
    /// Roots where some photo may be protected.
    var mayProtect: Set<Int32> = []
}
