// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// What `select`, `deselect` and `toggle` share: the photos named are resolved
/// against the session's view, protected ones are refused (or, named in bulk, left
/// out and counted), and the session's selection changes within its limits.
enum SelectionVerb {
    case select, deselect, toggle

    func run(in state: any SessionScope, _ args: some SelectorRequest, caller: Caller) throws(ProtocolError) -> SessionResult {
        let key = try SessionKey.named(args.session, uid: caller.uid)
        let current = state.session(key)
        guard current.mode == .select else { throw SelectionError.notInSelectMode.protocolError }
        var duplicates: DuplicateRestChoice?
        var stacks: DuplicateRestChoice?
        if args.selector.duplicates != nil || args.selector.stacks != nil {
            let argument = args.selector.duplicates != nil ? "duplicates" : "stacks"
            // Only `select`: a deselect or toggle of "all but the keepers" could leave
            // every copy of a photo selected.
            guard self == .select else {
                throw ProtocolError(.invalidArgument, "\(argument) names photos to select only.", argument: argument)
            }
            var alone = PhotoSelector()
            alone.duplicates = args.selector.duplicates
            alone.stacks = args.selector.stacks
            guard args.selector == alone, alone.duplicates == nil || alone.stacks == nil else {
                throw ProtocolError(.invalidArgument,
                                    "Name the photos one way at a time: positions, ids, all, folder, glob, from/to, duplicates or stacks.")
            }
            if args.selector.duplicates != nil {
                duplicates = try state.duplicateRest(view: current.view, selection: current.selection, uid: key.uid)
            } else {
                stacks = try state.stackRest(view: current.view, selection: current.selection, uid: key.uid)
            }
        }
        var ids: [Int64]
        if let chosen = duplicates ?? stacks {
            ids = chosen.groupIDs
        } else {
            ids = try state.resolveSelector(args.selector, view: current.view, uid: key.uid)
        }
        var skipped = 0
        if self != .deselect {
            // Protected photos cannot be selected (article 003's non-removable sections).
            let adding = self == .select ? ids : ids.filter { !current.selection.contains($0) }
            let refused = state.protectedPhotos(among: adding)
            if !refused.isEmpty && args.selector.namesInBulk {
                // Named in bulk, they are simply not selectable: the rest is, and the
                // answer says how many were left out.
                let left = Set(refused)
                ids.removeAll(where: left.contains)
                skipped = refused.count
            } else if !refused.isEmpty {
                let paths = refused.prefix(5).compactMap { state.listedPath(of: $0) }
                throw ProtocolError(.protected, "\(refused.count == 1 ? "This photo is" : "\(refused.count) of these photos are") in a protected folder and cannot be selected: \(paths.joined(separator: ", "))\(refused.count > 5 ? ", ..." : "").",
                                    photos: refused)
            }
        }
        let operation: SelectionOperation = switch self {
        case .select: .select(ids)
        case .deselect: .deselect(ids)
        case .toggle: .toggle(ids)
        }
        let update: SessionUpdate
        do {
            update = try current.apply(operation, limit: state.selectionLimit(for: key))
        } catch {
            throw error.protocolError
        }
        try state.commit(update.state, for: key, replacing: current, origin: caller.origin)
        var result = state.sessionResult(key, update.state, change: update.change)
        if skipped > 0 { result.skippedProtected = skipped }
        if let duplicates { result.duplicates = DuplicateRest.outcome(duplicates) }
        if let stacks { result.stacks = DuplicateRest.outcome(stacks) }
        return result
    }
}
