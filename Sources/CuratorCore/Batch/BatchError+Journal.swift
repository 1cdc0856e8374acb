// SPDX-License-Identifier: GPL-2.0-or-later

extension BatchError.Code {
    /// The journal holds a value this version does not know: nothing is done from
    /// it (recovery, undo, history) until a human has looked.
    public static let journalUnreadable = BatchError.Code("journal_unreadable")
}

extension BatchError {
    /// A journal failure as a batch error: `.journalUnreadable` for a value this
    /// version does not know, `.journal` for the rest.
    static func journal(_ error: any Error, opening: Bool = false) -> BatchError {
        let what = opening ? "cannot open the journal" : "journal"
        if let journalError = error as? JournalError, case .unknownValue = journalError {
            return BatchError(.journalUnreadable, "\(what): \(journalError)")
        }
        return BatchError(.journal, "\(what): \(error)")
    }
}
