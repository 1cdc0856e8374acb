// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// What a view takes in: its root, folder and filter, checked. `contains` says
/// whether a photo is in the view without resolving (and sorting) the whole view:
/// for the selected photos a filter hides, which stay selected (article 001).
struct ViewMembership {
    let root: Int32?
    let folder: ByteString?
    let recursive: Bool
    let filter: CompiledFilter
    private let roots: Set<Int32>

    /// Bounds on what a view may name: a session keeps its view, and one user's
    /// sessions must not hold megabytes of patterns.
    static let maxPatternBytes = 4096
    static let maxTypes = 64

    init(_ spec: ViewSpec, roots registry: RootRegistry) throws(ProtocolError) {
        if let glob = spec.filter?.glob, glob.utf8.count > Self.maxPatternBytes {
            throw ProtocolError(.invalidArgument, "A filter's glob may be at most \(Self.maxPatternBytes) bytes.", argument: "filter.glob")
        }
        if (spec.folder?.utf8.count ?? 0) > Self.maxPatternBytes || (spec.folderRaw?.utf8.count ?? 0) > Self.maxPatternBytes * 2 {
            throw ProtocolError(.invalidArgument, "A folder may be at most \(Self.maxPatternBytes) bytes.", argument: "folder")
        }
        if (spec.filter?.types?.count ?? 0) > Self.maxTypes {
            throw ProtocolError(.invalidArgument, "A filter may name at most \(Self.maxTypes) types.", argument: "filter.types")
        }
        var root: Int32?
        if let name = spec.root {
            guard let id = registry.id(named: name) else {
                throw ProtocolError(.noSuchRoot, "There is no root named \"\(name)\"; roots: \(registry.order.map(registry.name).joined(separator: ", ")).",
                                    argument: "root")
            }
            root = id
        }
        let folder = try spec.folderPath()
        if folder != nil && root == nil {
            if registry.order.count == 1 { root = registry.order[0] } else {
                throw ProtocolError(.invalidArgument, "A folder needs a root when several roots are configured.", argument: "root")
            }
        }
        self.root = root
        self.folder = folder
        recursive = spec.recursive ?? true
        filter = try CompiledFilter(spec.filter)
        roots = Set(registry.ids)
    }

    /// `folderPath` is the path of the photo's folder.
    func contains(_ photo: Photo, folderPath: ByteString, library: PhotoLibrary, marks: PhotoMarksTable) -> Bool {
        guard roots.contains(photo.rootID), photo.role == filter.listedRole else { return false }
        if let root, photo.rootID != root { return false }
        if let folder, recursive ? !folderPath.isWithin(folder) : folderPath != folder { return false }
        return filter.isEmpty || filter.matches(photo, folderPath: folderPath, library: library, marks: marks)
    }
}
