// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// Prints a session's state after a change, the way a person reads it.
enum SessionOutput {
    /// Said when the change created the session and an idle one made room for it.
    static func evictionNote(_ r: SessionResult) {
        guard let evicted = r.evicted else { return }
        Format.write("Session \(evicted) (nothing selected, least recently used) was forgotten to make room for \(r.session).")
    }

    static func describe(_ r: SessionResult) -> String {
        var text = "Session \(r.session): \(r.mode == .select ? "select" : "view") mode"
        if r.mode == .select {
            text += ", \(Format.photosAndOrphans(r.count - (r.orphans ?? 0), orphans: r.orphans ?? 0)) selected (\(Format.bytes(r.bytes)))"
            if let hidden = r.hidden, hidden > 0 { text += ", \(hidden) of them hidden by the view" }
            if let cap = r.cap { text += ", at most \(cap)" }
        }
        return text + "."
    }
}
