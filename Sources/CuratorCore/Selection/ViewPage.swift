// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// The page a view shows (article 003's pages): a root, or all roots, and a folder
/// of it, or none. The rest of a view (filter, sort, order, sub-folders shown or
/// not) is how that page is shown: changing it keeps a session's selection, as the
/// checkmarks of article 001 stay while the search text changes; changing the page
/// resets the session.
struct ViewPage: Equatable {
    var root: String?
    /// Normalized; nil for the root itself ("", "/" and no folder are the same page).
    var folder: ByteString?

    init(_ spec: ViewSpec) {
        root = spec.root
        // A `folder_raw` that is not base64 was refused when the view was set; were it
        // stored anyway, its text stands for it.
        let path = (try? spec.folderPath()) ?? spec.folderRaw.map { ByteString($0).normalizedRelative }
        folder = path.flatMap { $0.isEmpty ? nil : $0 }
    }
}

extension ViewSpec {
    var page: ViewPage { ViewPage(self) }
}
