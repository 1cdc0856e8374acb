// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorImaging
import CuratorProtocol
import CuratorSystem
import CuratorThumbnails
import FoundationEssentials
import Glibc
import Synchronization

/// `curatord-thumbnailer sheet`: renders a contact sheet from a JSON list of items,
/// the renderer `curatorctl sheet` is to use, runnable on its own (samples, the
/// benchmark):
///
///     [{"folder":"2024/05 Kyoto","count":48},
///      {"thumbnail":"/home/ann/.cache/thumbnails/large/….png","position":1,"badge":2,
///       "protected":false,"label":"IMG_0001.JPG","video":false,"set":5,
///       "rating":3,"flag":"reject","color":"red"}, ...]
enum SheetCommand {
    struct Item: Decodable {
        var folder: String?
        var count: Int?
        var thumbnail: String?
        var position: Int?
        var badge: Int?
        var protected: Bool?
        var label: String?
        var video: Bool?
        /// The count of the stack or duplicate set the photo stands for.
        var set: Int?
        var rating: Int?
        var flag: String?
        var color: String?
    }

    struct Report: Encodable {
        var pages: [String]
        var photos: Int
        /// From the start to the first page written, and to the last, milliseconds.
        var firstPageMs: Int
        var ms: Int

        enum CodingKeys: String, CodingKey {
            case pages, photos, ms
            case firstPageMs = "first_page_ms"
        }
    }

    static func run(_ arguments: SheetArguments) -> Int32 {
        let (input, output) = (arguments.items, arguments.output)
        var style = ContactSheetStyle()
        if let columns = arguments.columns { style.columns = columns }
        if let cell = arguments.cell { style.cell = cell }
        style.title = arguments.title
        style.selecting = arguments.selecting
        let maxPageHeight = arguments.maxPageHeight
        if let problem = SheetLimits.problem(columns: style.columns, cell: style.cell, maxPageHeight: maxPageHeight) {
            return usageError(problem)
        }
        if let maxPageHeight { style.maxPageHeight = maxPageHeight }
        let started = MonotonicClock.nanoseconds()
        do {
            let fd = try FileDescriptor.open(ByteString(input), O_RDONLY)
            let bytes = try fd.closeAfter { (fd) throws(SystemError) in try fd.readAll() }
            let items = try JSONDecoder().decode([Item].self, from: Data(bytes)).map { item -> ContactSheetItem in
                if let folder = item.folder { return .folder(name: folder, count: item.count ?? 0) }
                return .photo(ContactSheetPhoto(
                    thumbnail: item.thumbnail.map { ByteString($0) }, position: item.position ?? 0, badge: item.badge,
                    isProtected: item.protected ?? false, label: item.label ?? "", isVideo: item.video ?? false,
                    setCount: item.set, rating: item.rating, flag: item.flag, colorLabel: item.color))
            }
            try Vips.start(threads: 1)
            let jpeg = output.lowercased().hasSuffix(".jpg") || output.lowercased().hasSuffix(".jpeg")
            let pages = style.layout(items)
            // Pages are drawn side by side, one per core; each is written when it is done.
            let written = Mutex<[Int: String]>([:])
            let firstPage = Atomic<Int>(0)
            try ContactSheet.renderConcurrently(pages, style: style, format: jpeg ? .jpeg(quality: 88) : .png) {
                (index, bytes) throws(ContactSheet.Failure) in
                let path = index == 0 ? output : pageName(output, index + 1)
                do throws(SystemError) {
                    let out = try FileDescriptor.open(ByteString(path), O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
                    try out.closeAfter { (fd) throws(SystemError) in try fd.writeAll(bytes) }
                } catch {
                    throw ContactSheet.Failure(description: "cannot write \(path): \(error.errno.message)")
                }
                written.withLock { $0[index] = path }
                if index == 0 { firstPage.store(Int((MonotonicClock.nanoseconds() - started) / 1_000_000), ordering: .relaxed) }
            }
            let photos = items.filter { if case .photo = $0 { true } else { false } }.count
            let report = Report(
                pages: written.withLock { $0.sorted { $0.key < $1.key }.map(\.value) }, photos: photos,
                firstPageMs: firstPage.load(ordering: .relaxed), ms: Int((MonotonicClock.nanoseconds() - started) / 1_000_000))
            print(String(decoding: try JSONEncoder().encode(report), as: UTF8.self))
            return 0
        } catch {
            say("curatord-thumbnailer sheet: \(error)")
            return 1
        }
    }

    /// A line on stderr, as people read it (no log prefix): curatorctl shows it.
    static func say(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        try? FileDescriptor(rawValue: STDERR_FILENO).writeAll(bytes)
    }

    /// Exit status 2, with what was wrong.
    static func usageError(_ problem: String) -> Int32 {
        say("curatord-thumbnailer sheet: \(problem)\nSee curatord-thumbnailer sheet --help.")
        return 2
    }

    /// OUT.png -> OUT-2.png.
    static func pageName(_ output: String, _ number: Int) -> String {
        guard let dot = output.lastIndex(of: "."), !output[dot...].contains("/") else { return "\(output)-\(number)" }
        return "\(output[..<dot])-\(number)\(output[dot...])"
    }
}
