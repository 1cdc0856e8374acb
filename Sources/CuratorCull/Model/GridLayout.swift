// SPDX-License-Identifier: GPL-2.0-or-later

/// A run of consecutive photos of one folder in the view, as `list` gives its
/// sections: the grid shows each under a heading, starting a new row.
public struct FolderRun: Equatable, Sendable {
    public var root: String
    public var path: String
    /// Position (1-based) of its first photo in the view.
    public var start: Int
    public var count: Int
    /// Photos of the folder in the whole view (a sort other than by name may split it).
    public var total: Int

    public init(root: String, path: String, start: Int, count: Int, total: Int) {
        self.root = root
        self.path = path
        self.start = start
        self.count = count
        self.total = total
    }

    public var end: Int { start + count - 1 }
}

/// One line of the grid: a folder's heading, or a row of photos of a run.
public enum GridRow: Equatable, Sendable {
    case heading(run: Int)
    /// Positions `first...last` of run `run`.
    case photos(run: Int, first: Int, last: Int)
}

/// Where every photo of a view sits in a grid of `columns` columns, folders under
/// their headings, each folder starting a row (seed 001's sections). Pure, so that
/// the cursor's moves are tested without a terminal.
public struct GridLayout: Equatable, Sendable {
    public let runs: [FolderRun]
    public let columns: Int
    /// For each run, the index of its heading row.
    private let headingRows: [Int]
    public let rowCount: Int

    public init(runs: [FolderRun], columns: Int) {
        self.runs = runs
        self.columns = max(1, columns)
        var rows: [Int] = []
        var next = 0
        for run in runs {
            rows.append(next)
            next += 1 + (run.count + self.columns - 1) / self.columns
        }
        headingRows = rows
        rowCount = next
    }

    public var photoCount: Int { runs.last.map { $0.end } ?? 0 }

    /// The run holding a position.
    public func runIndex(of position: Int) -> Int? {
        var low = 0, high = runs.count - 1
        while low <= high {
            let mid = (low + high) / 2
            if runs[mid].end < position { low = mid + 1 } else if runs[mid].start > position { high = mid - 1 } else { return mid }
        }
        return nil
    }

    public func row(_ index: Int) -> GridRow? {
        guard index >= 0, index < rowCount else { return nil }
        // The last run whose heading is at or before the row.
        var low = 0, high = headingRows.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if headingRows[mid] <= index { low = mid } else { high = mid - 1 }
        }
        let run = runs[low]
        let offset = index - headingRows[low]
        if offset == 0 { return .heading(run: low) }
        let first = run.start + (offset - 1) * columns
        return .photos(run: low, first: first, last: min(run.end, first + columns - 1))
    }

    /// The row a photo is drawn in, and its column.
    public func place(of position: Int) -> (row: Int, column: Int)? {
        guard let r = runIndex(of: position) else { return nil }
        let offset = position - runs[r].start
        return (headingRows[r] + 1 + offset / columns, offset % columns)
    }

    /// The position one row up or down from `position`, in the same column where the
    /// row has one, else the row's last photo; nil at the top or bottom.
    public func vertical(from position: Int, by delta: Int) -> Int? {
        guard let here = place(of: position) else { return nil }
        var index = here.row + delta
        while let row = row(index) {
            if case .photos(_, let first, let last) = row { return min(first + here.column, last) }
            index += delta
        }
        return nil
    }
}
