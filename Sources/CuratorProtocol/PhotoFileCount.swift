// SPDX-License-Identifier: GPL-2.0-or-later

/// Photos and files counted apart: every file of a group (a RAW, its JPEG, their
/// sidecars) is one photo; a file trashed alone (no `group`) is a photo of its own.
/// What clients say after a batch, an undo or of the trash, as the plan said it.
public struct PhotoFileCount: Equatable, Sendable {
    public var photos: Int
    public var files: Int

    public init(photos: Int, files: Int) {
        self.photos = photos
        self.files = files
    }

    public init<Item>(_ items: some Sequence<Item>, id: (Item) -> Int64, group: (Item) -> Int64?) {
        var units = Set<Unit>()
        var files = 0
        for item in items {
            files += 1
            units.insert(group(item).map(Unit.group) ?? .file(id(item)))
        }
        self.init(photos: units.count, files: files)
    }

    public init(_ items: some Sequence<BatchItemResult>) {
        self.init(items, id: \.id, group: \.group)
    }

    public init(_ photos: some Sequence<TrashedPhoto>) {
        self.init(photos, id: \.id, group: \.group)
    }

    /// "1 photo", "2 photos (7 files)": the files said where they are more.
    public var phrase: String {
        let counted = Self.plural(photos, "photo")
        return files == photos ? counted : "\(counted) (\(Self.plural(files, "file")))"
    }

    public static func plural(_ n: Int, _ word: String) -> String { n == 1 ? "1 \(word)" : "\(n) \(word)s" }

    /// A group's ids and files' ids are numbered apart.
    private enum Unit: Hashable {
        case group(Int64)
        case file(Int64)
    }
}
