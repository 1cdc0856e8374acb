// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import FoundationEssentials
import Glibc
import Synchronization

/// The named steps of the batch, undo and recovery protocols, each reached just
/// *after* the step it names is done (and, for journal steps, committed).
/// `CURATORD_FAILPOINT=<name>:<n>` kills the process with SIGKILL the n-th time
/// the named step is reached, so that crash tests can stop it at every step.
///
///   batch.journaled       batch and plan committed, nothing moved yet
///   chunk.intent          a chunk's trashes and names (and the skips found) committed, nothing moved
///   item.new_name         a photo's name was taken meanwhile: the next one committed, no .trashinfo yet
///   item.info_created     a .trashinfo's file created unnamed (or partial), nothing written, nothing
///                         named yet (on the thread that writes it)
///   item.info_unnamed     a .trashinfo written but not named yet (on the thread that writes it)
///   item.info_written     .trashinfo created (not synced), photo not moved yet
///   item.renamed          photo renamed into the trash, nothing synced
///   chunk.synced          the chunk's file systems synced, its outcomes not journaled yet
///   chunk.journaled       the chunk's outcomes committed (trashed or skipped), about to report them
///   batch.finished        batch state `done` committed
///   undo.started          undo flagged as running in the journal
///   undo.chunk_intent     a chunk's `restoring` committed, nothing moved yet
///   undo.renamed          photo back at its path, .trashinfo still there
///   undo.info_removed     .trashinfo removed (not synced; on the helper that removes them behind the undo thread)
///   undo.chunk_synced     the chunk's file systems synced, its outcomes not journaled yet
///   undo.chunk_journaled  the chunk's undo outcomes committed
///   undo.finished         batch's state after undo committed
///   recovery.repaired     one photo's repair done on disk, not journaled yet
///   dir.made              a folder made for a user (a trash, a recycle folder, a folder undo
///                         recreates), not opened again yet: where another user could swap it
///
/// `<name>:<n>:stop` stops the process with SIGSTOP there instead, for a test to
/// change the disk at that exact moment (as an attacker racing it would) and SIGCONT it.
public enum Failpoint: String, CaseIterable, Sendable {
    case batchJournaled = "batch.journaled"
    case chunkIntent = "chunk.intent"
    case itemNewName = "item.new_name"
    case itemInfoCreated = "item.info_created"
    case itemInfoUnnamed = "item.info_unnamed"
    case itemInfoWritten = "item.info_written"
    case itemRenamed = "item.renamed"
    case chunkSynced = "chunk.synced"
    case chunkJournaled = "chunk.journaled"
    case batchFinished = "batch.finished"
    case undoStarted = "undo.started"
    case undoChunkIntent = "undo.chunk_intent"
    case undoRenamed = "undo.renamed"
    case undoInfoRemoved = "undo.info_removed"
    case undoChunkSynced = "undo.chunk_synced"
    case undoChunkJournaled = "undo.chunk_journaled"
    case undoFinished = "undo.finished"
    case emptyIntent = "empty.intent"
    case emptyRemoved = "empty.removed"
    case emptySynced = "empty.synced"
    case recoveryRepaired = "recovery.repaired"
    case directoryMade = "dir.made"
}

/// The armed failpoint, if any. Thread-safe: the hit counter is atomic.
public final class Failpoints: Sendable {
    public enum Action: Sendable {
        /// SIGKILL this process: what end-to-end crash tests use.
        case kill
        /// Throw `BatchError.failpoint` and unwind without any clean-up, leaving the
        /// journal and the disk as a kill would: for in-process tests.
        case throwError
        /// Run this and go on: lets a test change the disk at an exact step (a race).
        case run(@Sendable () -> Void)
        /// SIGSTOP this process, and go on once continued: what end-to-end race tests use.
        case stop
    }

    public static let environmentVariable = "CURATORD_FAILPOINT"
    public static let shared = Failpoints(environment: ProcessInfo.processInfo.environment)
    public static let disarmed = Failpoints(point: nil)

    public let point: Failpoint?
    public let count: Int
    private let action: Action
    private let hits = Atomic<Int>(0)

    public init(point: Failpoint?, count: Int = 1, action: Action = .kill) {
        self.point = point
        self.count = max(count, 1)
        self.action = action
    }

    /// Reads `CURATORD_FAILPOINT`; a malformed value is logged and ignored.
    public convenience init(environment: [String: String]) {
        guard let spec = environment[Self.environmentVariable], !spec.isEmpty else {
            self.init(point: nil)
            return
        }
        let stops = spec.hasSuffix(":stop")
        guard let (point, count) = Self.parse(stops ? String(spec.dropLast(5)) : spec) else {
            log.error("\(Self.environmentVariable)=\(spec) is not <step>:<n>[:stop] with a known step; ignored")
            self.init(point: nil)
            return
        }
        log.warning("failpoint armed: the process will be \(stops ? "stopped" : "killed") at \(point.rawValue) hit \(count)")
        self.init(point: point, count: count, action: stops ? .stop : .kill)
    }

    /// `<step>:<n>` or `<step>` (n = 1).
    public static func parse(_ spec: String) -> (Failpoint, Int)? {
        let parts = spec.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2, let point = Failpoint(rawValue: String(parts[0])) else { return nil }
        if parts.count == 1 { return (point, 1) }
        guard let count = Int(parts[1]), count >= 1 else { return nil }
        return (point, count)
    }

    func reach(_ reached: Failpoint) throws(BatchError) {
        guard let point, reached == point else { return }
        let hit = hits.add(1, ordering: .relaxed).newValue
        guard hit == count else { return }
        switch action {
        case .kill:
            log.warning("failpoint \(point.rawValue):\(count) reached: killing the process")
            kill(getpid(), SIGKILL)
            _exit(137)
        case .throwError:
            throw BatchError(.failpoint, "failpoint \(point.rawValue):\(count) reached")
        case .run(let body):
            body()
        case .stop:
            log.warning("failpoint \(point.rawValue):\(count) reached: stopping the process")
            raise(SIGSTOP)
        }
    }
}
