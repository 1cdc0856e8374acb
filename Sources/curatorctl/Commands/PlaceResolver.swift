// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import Foundation

/// What the place word of `ls`, `view`, `sheet` and `cull` names: a root and a folder
/// of it. A real folder (`~/Pictures/2024`, `.`, `../2023`) is found in the root it
/// lies under; else `ROOT` or `ROOT/FOLDER` by name; else a folder of the one root
/// that has it (`2024` with two roots, as the README's examples use it).
enum PlaceResolver {
    struct Place: Equatable {
        var root: String
        var folder: String?
    }

    static func resolve(_ location: String, _ context: CLIContext) throws(CLIError) -> Place {
        let roots = try context.connection().call(StatusRequest()).roots
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let onDisk = URL(fileURLWithPath: location, relativeTo: cwd).standardizedFileURL.resolvingSymlinksInPath().path
        var isFolder: ObjCBool = false
        let looksLikeAPath = location.hasPrefix("/") || location == "." || location == ".." || location.hasPrefix("./")
            || location.hasPrefix("../")
        if FileManager.default.fileExists(atPath: onDisk, isDirectory: &isFolder), isFolder.boolValue {
            // The deepest root that holds it (a root may lie inside another's folder).
            let holders = roots.compactMap { root -> (RootStatus, String)? in
                let top = URL(fileURLWithPath: root.path).standardizedFileURL.resolvingSymlinksInPath().path
                if onDisk == top { return (root, "") }
                let prefix = top.hasSuffix("/") ? top : top + "/"
                return onDisk.hasPrefix(prefix) ? (root, String(onDisk.dropFirst(prefix.count))) : nil
            }
            if let (root, folder) = holders.max(by: { $0.0.path.count < $1.0.path.count }) {
                return Place(root: root.name, folder: folder.isEmpty ? nil : folder)
            }
            if looksLikeAPath {
                let known = roots.map { "\($0.name) (\($0.path))" }.joined(separator: ", ")
                throw CLIError.usage("\(location) is in none of curatord's roots: \(known)")
            }
        }
        let parts = location.split(separator: "/", maxSplits: 1).map(String.init)
        if let first = parts.first, roots.contains(where: { $0.name == first }) {
            return Place(root: first, folder: parts.count > 1 && !parts[1].isEmpty ? parts[1] : nil)
        }
        if roots.count == 1, let only = roots.first { return Place(root: only.name, folder: location) }
        let folder = location.hasSuffix("/") ? String(location.dropLast()) : location
        var holders: [String] = []
        for root in roots {
            let probe = ListRequest(view: ViewSpec(root: root.name, folder: folder, recursive: false), offset: 0, limit: 0)
            do {
                _ = try context.connection().call(probe)
                holders.append(root.name)
            } catch CLIError.daemon(let error) where error.code == .noSuchFolder || error.code == .rootOffline {
                continue
            }
        }
        if holders.count == 1, let root = holders.first { return Place(root: root, folder: folder) }
        let names = roots.map(\.name).joined(separator: ", ")
        if holders.isEmpty { throw CLIError.usage("no root is named \(parts[0]), and none has a folder \(folder) (roots: \(names))") }
        throw CLIError.usage("\(holders.count) roots have a folder \(folder): say which, as in \(holders[0])/\(folder)")
    }
}
