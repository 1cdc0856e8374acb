// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// Why a whole batch, undo or recovery could not go on. Per-photo problems are
/// outcomes, not errors. A struct with a code, so that adding a code breaks no caller.
public struct BatchError: Error, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        public static let noSuchBatch = Code("no_such_batch")
        public static let notUndoable = Code("not_undoable")
        /// Undo of another user's batch.
        public static let notOwner = Code("not_owner")
        public static let invalidPlan = Code("invalid_plan")
        /// A batch is still recorded as running: `recover()` must run first.
        public static let recoveryPending = Code("recovery_pending")
        /// The journal could not be written or read: nothing more is moved.
        public static let journal = Code("journal")
        /// A test failpoint stopped the run.
        public static let failpoint = Code("failpoint")
        /// The daemon is stopping: the batch or undo went no further (or did not start).
        public static let stopped = Code("stopped")
        /// `trash.empty` with a token for another list than the trash holds now.
        public static let tokenMismatch = Code("token_mismatch")
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }

    /// The error as a client sees it.
    public var protocolError: ProtocolError {
        let wire: ErrorCode = switch code {
        case .noSuchBatch: .noSuchBatch
        case .notUndoable: .notUndoable
        case .notOwner: .permissionDenied
        case .invalidPlan: .invalidArgument
        case .recoveryPending: .batchRunning
        case .journal: .journalFailed
        case .stopped: .shuttingDown
        case .tokenMismatch: .tokenInvalid
        default: .internalError
        }
        return ProtocolError(wire, message)
    }

    /// What the journal said, without the "journal: " this type's messages start with.
    var journalDetail: String {
        message.hasPrefix("journal: ") ? String(message.dropFirst("journal: ".count)) : message
    }
}
