// SPDX-License-Identifier: GPL-2.0-or-later

extension Curator {
    /// A one-line summary for systemd's STATUS=.
    public func statusLine() -> String {
        withState { state in
            let scanning = state.rootOrder.compactMap { id -> String? in
                guard let r = state.roots[id], r.scanning else { return nil }
                return "\(r.config.name) \(r.scanFiles) files/\(r.scanDirectories) folders"
            }
            let offline = state.rootOrder.filter { state.roots[$0]?.online == false }.count
            var text = "\(state.library.photos.count) photos in \(state.rootOrder.count) root(s)"
            if !scanning.isEmpty { text += "; scanning " + scanning.joined(separator: ", ") }
            if offline > 0 { text += "; \(offline) offline" }
            text += "; \(state.events.clients) client(s)"
            return text
        }
    }
}
