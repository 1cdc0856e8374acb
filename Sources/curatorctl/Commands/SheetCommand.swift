// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import CuratorProtocol
import Foundation
import Glibc

/// `curatorctl sheet`: the view (or the selection) as a contact sheet. The photos,
/// their positions, selection numbers and thumbnails come from curatord; the
/// pages are drawn by `curatord-thumbnailer sheet`, run as a child process, so
/// that curatorctl never loads libvips (LinkageTests hold it to that) and a
/// decoder's crash is the child's.
struct SheetCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "sheet",
        abstract: "Draw the session's view (or the view given, or the selection) as a contact sheet: PNG or JPEG pages.")

    @Argument("ROOT[/FOLDER]", help: "The root or folder to draw (a folder alone when there is one root).")
    var location: String?

    @OptionGroup var view: ViewOptions

    @Flag("--selection", help: "Only the selected photos of the view, each with its tap-order badge.")
    var selection: Bool

    @Option("--output", "-o", value: "FILE", help: "The first page: FILE.png or FILE.jpg; more pages are FILE-2.png, FILE-3.png...")
    var output: String

    @Option("--columns", value: "N", help: "Photos per row, 1 to 64 (default 8).")
    var columns: Int?

    @Option("--cell", value: "PX", help: "The square each photo is fitted into, 48 to 1024 pixels (default 180); columns times cell at most 16384.")
    var cell: Int?

    @Option("--wait", value: "SECONDS", help: "How long to wait for thumbnails still being made, 0 to 3600 (default 60); the rest are drawn as missing.")
    var wait: Int?

    /// How `curatord-thumbnailer sheet` starts the lines it means for people.
    static let rendererPrefix = "curatord-thumbnailer sheet: "

    /// Photos per `list` page and per `thumbnail` request.
    static let chunk = 1000

    /// Every option in range before anything is asked of curatord (exit status 2).
    func validate() throws(ValidationError) {
        let lower = output.lowercased()
        guard lower.hasSuffix(".png") || lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg") else {
            throw ValidationError("the output must be a .png, .jpg or .jpeg file: \(output)")
        }
        if let problem = SheetLimits.problem(columns: columns ?? 8, cell: cell ?? 180) { throw ValidationError(problem) }
        if let wait, !SheetLimits.wait.contains(wait) {
            throw ValidationError("--wait must be \(SheetLimits.wait.lowerBound) to \(SheetLimits.wait.upperBound) seconds, not \(wait)")
        }
    }

    func run(_ context: CLIContext) throws(CLIError) {
        try Self.checkWritable(output)
        guard let renderer = Self.renderer() else {
            throw CLIError.failed("curatord-thumbnailer is not installed beside curatorctl (it draws the pages)")
        }
        let spec = try view.spec(at: location, context)
        let (photos, shownView) = try listed(context, spec: spec)
        let shown = selection ? photos.filter { $0.selected != nil } : photos
        guard !shown.isEmpty else { throw CLIError.failed(selection ? "nothing is selected in this view" : "the view is empty") }

        let scratch = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        // The smallest thumbnail that fills a cell: none is blown up where a larger one is made.
        let size = ThumbnailSize.allCases.sorted().first { $0.pixels >= cell ?? 180 } ?? .xxLarge
        let thumbnails = try fetch(context, ids: shown.map(\.id), size: size, scratch: scratch)

        // Folder headings: a run of photos of one folder, with the folder's count.
        var items: [[String: Any]] = []
        var lastFolder: String?
        let counts = Dictionary(grouping: shown, by: Self.folderKey).mapValues(\.count)
        let duplicateCounts = Dictionary(grouping: photos.filter { $0.duplicateSet != nil }, by: { $0.duplicateSet ?? 0 })
            .mapValues(\.count)
        for photo in shown {
            let folder = Self.folderKey(photo)
            if folder != lastFolder {
                lastFolder = folder
                items.append(["folder": folder, "count": counts[folder] ?? 0])
            }
            var item: [String: Any] = [
                "position": photo.position ?? 0, "protected": photo.protected == true,
                "label": String(photo.path.split(separator: "/").last ?? Substring(photo.path)),
                "video": ["mp4", "mov"].contains(photo.type),
            ]
            if let path = thumbnails[photo.id] { item["thumbnail"] = path }
            if let badge = photo.selected { item["badge"] = badge }
            // A stack's count (the whole stack, as the daemon counts it), else the
            // duplicate set's as listed.
            if let count = photo.stackCount ?? photo.duplicateSet.flatMap({ duplicateCounts[$0] }) { item["set"] = count }
            if let rating = photo.rating { item["rating"] = rating }
            if let flag = photo.flag { item["flag"] = flag }
            if let label = photo.label { item["color"] = label }
            items.append(item)
        }
        let itemsPath = scratch + "/items.json"
        do {
            try JSONSerialization.data(withJSONObject: items).write(to: URL(fileURLWithPath: itemsPath))
        } catch {
            throw CLIError.failed("cannot write \(itemsPath): \(error)")
        }
        var arguments = ["sheet", itemsPath, "-o", output, "--title", title(shownView, count: shown.count)]
        // In select mode an unselected photo shows the empty circle a tap fills; in view mode none.
        if !selection, try sessionIsSelecting(context) { arguments.append("--selecting") }
        if let columns { arguments += ["--columns", String(columns)] }
        if let cell { arguments += ["--cell", String(cell)] }
        let report = try Self.runRenderer(renderer, arguments)
        if context.options.json {
            Format.write(report)
            return
        }
        let pages = (try? JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any])?["pages"] as? [String] ?? [output]
        let missing = shown.count - thumbnails.count
        let named = pages.count <= 3 ? pages.joined(separator: " ") : "\(pages[0]) ... \(pages[pages.count - 1])"
        Format.write("\(Format.plural(shown.count, "photo")) on \(Format.plural(pages.count, "page")): \(named)"
                     + (missing > 0 ? " (\(missing) without a thumbnail yet)" : ""))
    }

    /// Every photo of the view, in view order, and the view (the session's when none was given).
    private func listed(_ context: CLIContext, spec: ViewSpec) throws(CLIError) -> ([PhotoSummary], ViewSpec) {
        var photos: [PhotoSummary] = []
        while true {
            let request = ListRequest(session: context.options.session, view: spec == ViewSpec() ? nil : spec,
                                      offset: photos.count, limit: Self.chunk)
            let page = try context.connection().call(request)
            photos += page.photos
            if page.photos.isEmpty || photos.count >= page.total { return (photos, page.view) }
        }
    }

    /// Whether the session is in select mode.
    private func sessionIsSelecting(_ context: CLIContext) throws(CLIError) -> Bool {
        let request = SelectionRequest(session: context.options.session)
        return try context.connection().call(request).mode == .select
    }

    /// The path of each photo's thumbnail, once ready (up to --wait seconds for those
    /// being made). A thumbnail the daemon does not give by path (the system service)
    /// comes as bytes and is written to `scratch`.
    private func fetch(_ context: CLIContext, ids: [Int64], size: ThumbnailSize, scratch: String) throws(CLIError) -> [Int64: String] {
        var found: [Int64: String] = [:]
        var waiting = ids
        let deadline = Date(timeIntervalSinceNow: Double(wait ?? 60))
        var useData = false
        while !waiting.isEmpty {
            var pending: [Int64] = []
            for start in stride(from: 0, to: waiting.count, by: Self.chunk) {
                let ids = Array(waiting[start..<min(waiting.count, start + Self.chunk)])
                let request = ThumbnailRequest(ids: ids, size: size, data: useData ? true : nil)
                let result = try context.connection().call(request)
                for entry in result.thumbnails {
                    switch entry.state {
                    case .ready:
                        if let path = entry.path, entry.pathRaw == nil {
                            found[entry.photoId] = path
                        } else if let data = entry.data.flatMap({ Data(base64Encoded: $0) }) {
                            let path = scratch + "/\(entry.photoId).png"
                            if (try? data.write(to: URL(fileURLWithPath: path))) != nil { found[entry.photoId] = path }
                        } else {
                            useData = true
                            pending.append(entry.photoId)
                        }
                    case .pending:
                        pending.append(entry.photoId)
                    case .failed, .placeholder:
                        break
                    }
                }
            }
            waiting = pending
            if waiting.isEmpty || Date() > deadline { break }
            usleep(250_000)
        }
        return found
    }

    private func title(_ spec: ViewSpec, count: Int) -> String {
        var where_ = spec.root ?? "all roots"
        if let folder = spec.folder { where_ += "/" + folder }
        if let glob = spec.filter?.glob { where_ += " " + glob }
        return (selection ? "Selection: " : "") + "\(where_), \(Format.plural(count, "photo"))"
    }

    private static func folderKey(_ photo: PhotoSummary) -> String {
        let parts = photo.path.split(separator: "/", omittingEmptySubsequences: false)
        let folder = parts.dropLast().joined(separator: "/")
        return folder.isEmpty ? photo.root : photo.root + "/" + folder
    }

    /// `curatord-thumbnailer` beside this curatorctl (as `make install` and
    /// `swift build` put them), else on PATH.
    static func renderer() -> String? {
        let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let beside = URL(fileURLWithPath: own).deletingLastPathComponent().appendingPathComponent("curatord-thumbnailer").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(directory)/curatord-thumbnailer"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    private static func scratchDirectory() throws(CLIError) -> String {
        var template = Array("/tmp/curatorctl-sheet-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> String? in
            guard let base = buffer.baseAddress, let result = mkdtemp(base) else { return nil }
            return String(cString: result)
        }
        guard let made else { throw CLIError.failed("cannot make a scratch directory in /tmp: \(String(cString: strerror(errno)))") }
        return made
    }

    /// The pages are written last, by the renderer: a path that cannot be written is
    /// said at once, in a line, before curatord is asked for anything.
    static func checkWritable(_ path: String) throws(CLIError) {
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        if exists && isFolder.boolValue { throw CLIError.failed("cannot write \(path): it is a folder") }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if access(folder, W_OK | X_OK) != 0 {
            throw CLIError.failed("cannot write \(path): \(folder): \(String(cString: strerror(errno)))")
        }
        if exists && access(path, W_OK) != 0 {
            throw CLIError.failed("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Runs the renderer; its report (stdout) when it succeeds.
    private static func runRenderer(_ executable: String, _ arguments: [String]) throws(CLIError) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        do { try process.run() } catch { throw CLIError.failed("cannot run \(executable): \(error)") }
        // Both are small (one JSON line; a few log lines): read after the exit would
        // risk a full pipe, so read to the end first.
        let report = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            // Only the renderer's own sentence (the line it starts with its name), never
            // a log line or a stack trace: the user reads it as curatorctl's error.
            let said = String(decoding: errors, as: UTF8.self).split(separator: "\n")
                .first { $0.hasPrefix(Self.rendererPrefix) }.map { String($0.dropFirst(Self.rendererPrefix.count)) }
            let why = said ?? (process.terminationReason == .uncaughtSignal
                ? "curatord-thumbnailer was killed by signal \(process.terminationStatus)"
                : "curatord-thumbnailer exited with status \(process.terminationStatus)")
            throw CLIError.failed("drawing the sheet failed: \(why)")
        }
        return String(decoding: report, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
