// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import FoundationEssentials
import Glibc

/// `curatorctl cull`: the seeds' photo grid in a terminal, driven by the protocol
/// alone. One thread: a poll(2) loop over the keyboard, the daemon's socket and the
/// signal pipe (resize, continue); every answer and event changes this state, and a
/// frame is drawn when something changed.
public final class CullApp {
    let options: CullOptions
    let session: String
    let terminal: Terminal
    let link: DaemonLink
    var writer = ScreenWriter(trueColor: false)
    var graphics = GraphicsMode.symbols
    var art: ChafaArt
    var thumbnails: Thumbnails
    var keys = KeyDecoder()
    /// Keys not handled yet: typed while the terminal was being asked what it can
    /// show, or while a session request was on its way.
    var pendingKeys: [Key] = []

    // The session, as the daemon last said.
    var mode = SessionMode.view
    var cap: Int?
    var selectedBytes: Int64 = 0
    var hiddenSelected = 0
    var selection = OrderedSelection()
    var data = ViewData()

    // The screen.
    var cursor = 1
    var top = 0
    var zoom = 1
    var overlay = Overlay.none
    var status: StatusMessage?
    var layoutCache: GridLayout?
    var lastBatch: Int64?
    /// The wider views folder pages were opened from (`o`), innermost last.
    var pages: [PageMemory] = []
    /// The photo the cursor goes to when the next shape comes (after a view change).
    var followAfterShape: Int64?
    /// What the daemon read from the files of photos shown large, by id.
    var fileFacts: [Int64: FileFacts] = [:]
    var running = true
    /// A mark moves the cursor on (`a` toggles it).
    var advance = false
    var dirty = true
    /// When the view's shape is to be listed again (events come in bursts).
    var shapeDue: UInt64?
    var shapeInFlight = false
    /// Something changed while a listing was on its way: list once more after it.
    var shapeAgain = false
    var startedAt = MonotonicClock.nanoseconds()
    var firstFrameReported = false
    /// The last grid drawn had every cell's name and thumbnail (or its known absence).
    var screenComplete = false
    /// When the keys not answered on screen yet were read (for CURATORCTL_CULL_TIMING).
    var keyReadAt: UInt64?

    public init(options: CullOptions) throws(CullError) {
        self.options = options
        session = options.session ?? "default"
        advance = options.advance
        terminal = try Terminal()
        link = try DaemonLink(socketPath: options.socketPath)
        art = ChafaArt(graphics: .symbols, cellPixels: (10, 20))
        thumbnails = Thumbnails(art: art, link: link)
    }

    /// Runs until `q`; the terminal is left as it was found, whatever ends it.
    public func run() throws(CullError) {
        try start()
        defer {
            terminal.leave()
            art.release()
        }
        try loop()
    }

    func loop() throws(CullError) {
        while running {
            // Keys typed ahead wait for the session's answer before them, so that
            // `v Space Space d` typed at once means what it would typed slowly; and
            // for the whole view's shape at the start (G goes to the last photo).
            while busy == 0, data.isComplete, running, !pendingKeys.isEmpty { try handle(pendingKeys.removeFirst()) }
            guard running else { break }
            if dirty { draw() }
            // The first frame has asked for its thumbnails: now the whole shape.
            if !data.isComplete, !shapeInFlight { try listShape() }
            var fds = [
                pollfd(fd: terminal.input, events: Int16(POLLIN), revents: 0),
                pollfd(fd: link.descriptor.rawValue, events: Int16(POLLIN), revents: 0),
                pollfd(fd: terminal.wakeRead, events: Int16(POLLIN), revents: 0),
            ]
            let ready = SystemCalls.poll(&fds, nfds_t(fds.count), pollTimeout())
            if ready < 0 && errno != EINTR { throw CullError.system("poll", errno) }
            if fds[2].revents != 0, terminal.drainWake() {
                writer.invalidate()
                layoutCache = nil
                dirty = true
            }
            if fds[1].revents != 0 { try link.readAvailable() }
            if let error = pendingError { throw error }
            if fds[0].revents & Int16(POLLIN) != 0 {
                guard let bytes = terminal.readInput() else { running = false; break }
                if keyReadAt == nil { keyReadAt = MonotonicClock.nanoseconds() }
                let typed = keys.feed(bytes)
                // Ctrl-C is never kept waiting: it quits even while the daemon is silent.
                if typed.contains(.control("c")), !isProgress { running = false; break }
                pendingKeys += typed
            } else if fds[0].revents & Int16(POLLHUP | POLLERR) != 0 {
                running = false  // the terminal went away (ssh dropped)
            } else if ready == 0, keys.isHolding {
                pendingKeys += keys.flush()
            }
            if let due = shapeDue, MonotonicClock.nanoseconds() >= due { try listShape() }
        }
    }

    /// How long poll may sleep: an Escape to tell from a sequence, a listing due.
    private func pollTimeout() -> Int32 {
        var timeout: Int32 = -1
        if keys.isHolding { timeout = 25 }
        if let due = shapeDue {
            let now = MonotonicClock.nanoseconds()
            let ms = due > now ? Int32(min(1000, (due - now) / 1_000_000 + 1)) : 0
            timeout = timeout < 0 ? ms : min(timeout, ms)
        }
        return timeout
    }

    /// A status line: it may name photos and quote the daemon, so it is escaped.
    func say(_ text: String, warning: Bool = false) {
        status = StatusMessage(text: text.forTerminal, warning: warning)
        dirty = true
    }

    /// Sends a request whose failure is shown in the status line.
    func request<R: ProtocolRequest>(_ command: R, failed: (() -> Void)? = nil,
                                     _ done: @escaping (R.Result) throws(CullError) -> Void) throws(CullError) {
        busy += 1
        try link.call(command) { [weak self] outcome in
            guard let self else { return }
            self.busy -= 1
            switch outcome {
            case .success(let result):
                do throws(CullError) { try done(result) } catch { self.pendingError = error }
            case .failure(let error):
                failed?()
                self.say(error.message, warning: true)
            }
        }
    }

    var isProgress: Bool { if case .progress = overlay { true } else { false } }

    /// Session requests sent and not answered yet: keys wait meanwhile.
    var busy = 0

    /// An error raised inside a reply, carried out of the link's dispatch.
    var pendingError: CullError?
}
