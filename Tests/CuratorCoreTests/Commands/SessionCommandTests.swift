// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import CuratorSystem
import Testing

/// The session commands against a small fake of the one view they get
/// (`SessionScope`): no index, no daemon, no plans or trash to reach. What they
/// decide themselves is held here: select mode, the order named, protected
/// photos refused by name and left out in bulk, the duplicates rest for `select`
/// only, the cap, a view checked before anything changes.
@Suite struct SessionCommandTests {
    /// Sessions in a dictionary; a view of photos 1 to 5, named `IMG_<id>.jpg`.
    final class FakeSessions: SessionScope {
        let config = Configuration(roots: [], socketPath: "/nonexistent/socket", stateDirectory: "/nonexistent", maxSelection: 4,
                                   homeTrash: nil)
        var sessions: [SessionKey: SessionState] = [:]
        var commits = 0
        var shown: [Int64] = [1, 2, 3, 4, 5]
        var protected: Set<Int64> = []
        var duplicateCopies: [Int64] = []

        func session(_ key: SessionKey) -> SessionState { sessions[key] ?? SessionState() }

        func commit(_ state: SessionState, for key: SessionKey, replacing old: SessionState,
                    origin: ObjectIdentifier?) throws(ProtocolError) -> String? {
            guard state != old else { return nil }
            sessions[key] = state
            commits += 1
            return nil
        }

        func selectionLimit(for key: SessionKey) -> SelectionLimit {
            SelectionLimit(most: config.maxSelection, reason: .selection, configured: config.maxSelection)
        }

        func sessionResult(_ key: SessionKey, _ state: SessionState, change: SelectionChange?) -> SessionResult {
            SessionResult(session: key.name, mode: state.mode, view: state.view, cap: state.selection.cap, count: state.selection.count,
                          bytes: selectedTotals(state).bytes, added: change.map { $0.added.count }, removed: change.map { $0.removed.count })
        }

        func checkView(_ spec: ViewSpec, uid: UInt32) throws(ProtocolError) {
            if let root = spec.root, root != "pics" { throw ProtocolError(.noSuchRoot, "No root is named \"\(root)\".") }
        }

        func resolveSelector(_ selector: PhotoSelector, view: ViewSpec, uid: UInt32) throws(ProtocolError) -> [Int64] {
            if let ids = selector.ids { return ids }
            if selector.all == true { return shown }
            throw ProtocolError(.invalidArgument, "the fake resolves ids and all")
        }

        func duplicateRest(view: ViewSpec, selection: OrderedSelection, uid: UInt32) throws(ProtocolError) -> DuplicateRestChoice {
            DuplicateRestChoice(groupIDs: duplicateCopies, setsChosen: 1)
        }

        func stackRest(view: ViewSpec, selection: OrderedSelection, uid: UInt32) throws(ProtocolError) -> DuplicateRestChoice {
            DuplicateRestChoice()
        }

        func protectedPhotos(among ids: [Int64]) -> [Int64] { ids.filter(protected.contains) }

        func listedPath(of id: Int64) -> String? { "IMG_\(id).jpg" }

        func hiddenSelected(_ state: SessionState) -> Set<Int64> { Set(state.selection.items.filter { !shown.contains($0) }) }

        func selectedTotals(_ state: SessionState) -> (bytes: Int64, orphans: Int?) { (Int64(state.selection.count) * 100, nil) }

        func selectionItems(_ state: SessionState, hidden: Set<Int64>, uid: UInt32) -> [SelectionItem] {
            state.selection.items.enumerated().map { index, id in
                SelectionItem(number: index + 1, id: id, root: "pics", path: "IMG_\(id).jpg", size: 100,
                              hidden: hidden.contains(id) ? true : nil)
            }
        }
    }

    static let me = Caller(uid: 1000, gid: 1000)
    static let key = SessionKey(uid: 1000, name: "default")

    static func code(_ body: () throws -> Void) -> ErrorCode? {
        do {
            try body()
            return nil
        } catch let error as ProtocolError {
            return error.code
        } catch {
            return .internalError
        }
    }

    static func selecting(_ fake: FakeSessions) throws {
        _ = try ModeCommand.run(in: fake, ModeRequest(mode: .select), caller: me)
    }

    static func ids(_ ids: [Int64]) -> PhotoSelector { PhotoSelector(ids: ids) }

    @Test func selectDeselectToggleAndClearKeepTheOrderNamed() throws {
        let fake = FakeSessions()
        #expect(Self.code { _ = try SelectCommand.run(in: fake, SelectRequest(selector: Self.ids([1])), caller: Self.me) } == .notInSelectMode)
        #expect(fake.commits == 0, "nothing saved in view mode")

        try Self.selecting(fake)
        let selected = try SelectCommand.run(in: fake, SelectRequest(selector: Self.ids([3, 1, 4])), caller: Self.me)
        #expect(selected.count == 3 && selected.added == 3)
        #expect(fake.session(Self.key).selection.items == [3, 1, 4], "numbered in the order named")

        let deselected = try DeselectCommand.run(in: fake, DeselectRequest(selector: Self.ids([1])), caller: Self.me)
        #expect(deselected.removed == 1)
        #expect(fake.session(Self.key).selection.items == [3, 4], "the numbers after it shift down")

        _ = try ToggleCommand.run(in: fake, ToggleRequest(selector: Self.ids([4, 2])), caller: Self.me)
        #expect(fake.session(Self.key).selection.items == [3, 2])

        let shown = try SelectionCommand.run(in: fake, SelectionRequest(), caller: Self.me)
        #expect(shown.items.map(\.id) == [3, 2] && shown.items.map(\.number) == [1, 2])
        #expect(shown.count == 2 && shown.bytes == 200 && shown.mode == .select)

        let cleared = try ClearCommand.run(in: fake, ClearRequest(), caller: Self.me)
        #expect(cleared.count == 0 && cleared.removed == 2)
        #expect(fake.session(Self.key).selection.isEmpty && fake.session(Self.key).mode == .select, "clear keeps select mode")
    }

    @Test func protectedPhotosAreRefusedByNameAndLeftOutInBulk() throws {
        let fake = FakeSessions()
        fake.protected = [2]
        try Self.selecting(fake)
        do throws(ProtocolError) {
            _ = try SelectCommand.run(in: fake, SelectRequest(selector: Self.ids([1, 2])), caller: Self.me)
            Issue.record("a protected photo named by id was selected")
        } catch {
            #expect(error.code == .protected && error.photos == [2])
            #expect(error.message.contains("IMG_2.jpg"))
        }
        #expect(fake.session(Self.key).selection.isEmpty, "refused whole: not even photo 1")

        fake.shown = [1, 2, 3]
        let all = try SelectCommand.run(in: fake, SelectRequest(selector: PhotoSelector(all: true)), caller: Self.me)
        #expect(all.skippedProtected == 1)
        #expect(fake.session(Self.key).selection.items == [1, 3])

        // Toggling everything: the selected leave, the protected one is not added.
        let toggled = try ToggleCommand.run(in: fake, ToggleRequest(selector: PhotoSelector(all: true)), caller: Self.me)
        #expect(toggled.skippedProtected == 1)
        #expect(fake.session(Self.key).selection.isEmpty)

        // Deselecting a protected photo is always allowed.
        fake.protected = []
        _ = try SelectCommand.run(in: fake, SelectRequest(selector: Self.ids([2])), caller: Self.me)
        fake.protected = [2]
        _ = try DeselectCommand.run(in: fake, DeselectRequest(selector: Self.ids([2])), caller: Self.me)
        #expect(fake.session(Self.key).selection.isEmpty)
    }

    @Test func theDuplicatesRestIsSelectedOnlyAndAlone() throws {
        let fake = FakeSessions()
        fake.duplicateCopies = [5, 4]
        try Self.selecting(fake)
        var rest = PhotoSelector()
        rest.duplicates = .rest
        #expect(Self.code { _ = try DeselectCommand.run(in: fake, DeselectRequest(selector: rest), caller: Self.me) } == .invalidArgument)
        #expect(Self.code { _ = try ToggleCommand.run(in: fake, ToggleRequest(selector: rest), caller: Self.me) } == .invalidArgument)
        var mixed = rest
        mixed.ids = [1]
        #expect(Self.code { _ = try SelectCommand.run(in: fake, SelectRequest(selector: mixed), caller: Self.me) } == .invalidArgument)
        #expect(fake.session(Self.key).selection.isEmpty)

        let selected = try SelectCommand.run(in: fake, SelectRequest(selector: rest), caller: Self.me)
        #expect(fake.session(Self.key).selection.items == [5, 4])
        #expect(selected.duplicates?.sets == 1)
    }

    @Test func modeChecksItsCapAndLeavingSelectModeClears() throws {
        let fake = FakeSessions()
        #expect(Self.code { _ = try ModeCommand.run(in: fake, ModeRequest(mode: .select, cap: 5), caller: Self.me) } == .invalidArgument,
                "above max_selection (4)")
        #expect(Self.code { _ = try ModeCommand.run(in: fake, ModeRequest(mode: .select, cap: 0), caller: Self.me) } == .invalidArgument)
        let capped = try ModeCommand.run(in: fake, ModeRequest(mode: .select, cap: 2), caller: Self.me)
        #expect(capped.cap == 2 && capped.mode == .select)
        #expect(Self.code { _ = try SelectCommand.run(in: fake, SelectRequest(selector: Self.ids([1, 2, 3])), caller: Self.me) }
                == .selectionFull)
        _ = try SelectCommand.run(in: fake, SelectRequest(selector: Self.ids([1, 2])), caller: Self.me)

        let viewing = try ModeCommand.run(in: fake, ModeRequest(mode: .view), caller: Self.me)
        #expect(viewing.mode == .view && viewing.count == 0 && viewing.removed == 2)
        #expect(fake.session(Self.key).selection.isEmpty)
    }

    @Test func aViewIsCheckedBeforeTheSessionChanges() throws {
        let fake = FakeSessions()
        try Self.selecting(fake)
        _ = try SelectCommand.run(in: fake, SelectRequest(selector: Self.ids([1])), caller: Self.me)
        let commits = fake.commits
        #expect(Self.code { _ = try ViewCommand.run(in: fake, ViewRequest(view: ViewSpec(root: "nope")), caller: Self.me) } == .noSuchRoot)
        #expect(fake.commits == commits && fake.session(Self.key).selection.items == [1], "nothing changed")

        let moved = try ViewCommand.run(in: fake, ViewRequest(view: ViewSpec(root: "pics", folder: "b")), caller: Self.me)
        #expect(moved.view.folder == "b")
        #expect(fake.session(Self.key).selection.isEmpty && fake.session(Self.key).mode == .view, "another page resets (article 003)")
    }
}
