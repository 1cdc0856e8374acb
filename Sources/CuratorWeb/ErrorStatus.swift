// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// The HTTP status of a protocol error, so that a client that only looks at the status
/// still does the right thing. The body is the protocol's answer either way.
enum ErrorStatus {
    static func status(for code: ErrorCode) -> UInt32 {
        switch code {
        case .badRequest, .invalidArgument: 400
        case .loginFailed, .notSignedIn: 401
        case .permissionDenied: 403
        case .unknownCommand, .noSuchRoot, .noSuchFolder, .noSuchPhoto, .noSuchPosition, .noSuchBatch: 404
        case .notInSelectMode, .selectionFull, .protected, .filterActive, .rootOffline, .tooManySessions,
             .emptySelection, .tokenExpired, .tokenInvalid, .batchRunning, .notUndoable, .trashUnavailable,
             .thumbnailsOff, .configInvalid:
            409
        case .requestTooLarge: 413
        case .tooManyClients, .tooManyConnections, .loginThrottled: 429
        case .shuttingDown, .idleTimeout: 503
        default: 500  // internal_error, journal_failed, and a code newer than this gateway
        }
    }
}
