// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import FoundationEssentials
import Glibc

extension CullApp {
    /// The session and the first page of its view from the daemon, then the
    /// terminal: what the first frame needs is asked for before the screen is taken
    /// over, and nothing more. The whole view's shape (every position's id: 1.5 MB at
    /// 100 000 photos) is listed after the first frame's thumbnails are asked for
    /// (`loop`), and keys wait for it.
    func start() throws(CullError) {
        link.onEvent = { [weak self] event in self?.handle(event) }
        if let view = options.view {
            let result = try link.callNow(ViewRequest(session: session, view: view))
            if let removed = result.removed, removed > 0 {
                say("Another page: \(removed) photo\(removed == 1 ? "" : "s") left the selection.")
            }
        }
        // Follow this session and every root: others' additions, trashes and renumbering.
        _ = try link.callNow(SubscribeRequest(roots: nil, sessions: [session], thumbnails: true))
        apply(try link.callNow(SelectionRequest(session: session)))
        let first = ListRequest(session: session, view: nil, offset: 0, limit: ViewData.pageSize, fields: ViewData.detailFields)
        data.seed(with: try link.callNow(first))
        try terminal.enter()
        let graphics = try chooseGraphics()
        if graphics == .kitty { terminal.deleteKittyImagesOnLeave() }
        writer = ScreenWriter(trueColor: Self.hasTrueColor(ProcessInfo.processInfo.environment))
        thumbnails.releaseArt()
        let size = terminal.size()
        let cell = size.pixelWidth > 0 && size.pixelHeight > 0
            ? (size.pixelWidth / size.columns, size.pixelHeight / size.rows) : (10, 20)
        thumbnails = Thumbnails(art: ChafaArt(graphics: graphics, cellPixels: cell), link: link)
        thumbnails.onChange = { [weak self] in self?.dirty = true }
        cursor.position = data.total > 0 ? 1 : 0
    }

    /// The listing that gives the view's shape: every position's id and the folder runs.
    func shapeRequest() -> ListRequest {
        ListRequest(session: session, view: nil, offset: nil, limit: nil, fields: ["id"])
    }

    func apply(_ result: SelectionResult) {
        mirror.apply(result)
        dirty = true
    }

    /// --graphics, else the environment, else the terminal's answer to `ESC [ c`.
    func chooseGraphics() throws(CullError) -> GraphicsMode {
        if let forced = options.graphics { return forced }
        let environment = ProcessInfo.processInfo.environment
        if let known = GraphicsMode.fromEnvironment(environment) { return known }
        terminal.write(Array("\u{1B}[c".utf8))
        var answer: [UInt8] = []
        let deadline = MonotonicClock.nanoseconds() + 300_000_000
        while !answer.contains(UInt8(ascii: "c")) {
            let now = MonotonicClock.nanoseconds()
            guard now < deadline else { break }
            var fd = pollfd(fd: terminal.input, events: Int16(POLLIN), revents: 0)
            guard SystemCalls.poll(&fd, 1, Int32((deadline - now) / 1_000_000 + 1)) > 0, let bytes = terminal.readInput() else { break }
            answer += bytes
        }
        // Keys typed meanwhile are kept; the answer itself is not a key.
        guard let reply = input.separateAnswer(answer) else { return .symbols }
        return GraphicsMode.answerListsSixels(reply) ? .sixel : .symbols
    }

    static func hasTrueColor(_ environment: [String: String]) -> Bool {
        let colorterm = environment["COLORTERM"] ?? ""
        return colorterm == "truecolor" || colorterm == "24bit"
    }
}
