// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// The configured roots, at start and on a reload: ids from the index file, the
/// registry's roots, and the photos of a name that now points elsewhere dropped.
extension CuratorState {
    /// Gives each configured root its stable id, reusing the stored one by name.
    /// Nothing changes in the registry unless every root got its id.
    func registerRoots(_ configs: [RootConfig]) throws {
        let store = library.storeForRoots
        let known = try store.loadRoots()
        var registrations: [RootRegistry.Registration] = []
        for config in configs {
            guard let row = known.first(where: { $0.name == config.name }) else {
                let id = try store.insertRoot(name: config.name, path: config.path)
                registrations.append(RootRegistry.Registration(id: id, config: config, device: 0))
                continue
            }
            if row.path != config.path {
                // The name now points elsewhere: its old photos are not this folder's,
                // and leave the selections that held them.
                publish(try library.batch { try library.removeTree(root: row.id, path: .empty) })
                try store.updateRoot(id: row.id, path: config.path, device: 0)
            }
            registrations.append(RootRegistry.Registration(id: row.id, config: config, device: row.path == config.path ? row.device : 0))
        }
        roots.install(registrations)
        scanEnds.ring()  // a root dropped, or watched otherwise, scans no more
        // A root whose grouping changed (or an index from before groups) is grouped again.
        for registration in registrations {
            try library.setGroupSettings(registration.config.groupSettings, root: registration.id)
        }
        publish([])
    }
}
