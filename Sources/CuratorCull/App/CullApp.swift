// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import FoundationEssentials
import Glibc

/// `curatorctl cull`: the seeds' photo grid in a terminal, driven by the protocol
/// alone. One thread: a poll(2) loop over the keyboard, the daemon's socket and the
/// signal pipe (resize, continue). The app routes keys and the daemon's answers and
/// events to the parts that own each piece of state, and draws a frame when
/// something changed.
public final class CullApp {
    let options: CullOptions
    let terminal: Terminal
    let link: DaemonLink
    var writer = ScreenWriter(trueColor: false)
    /// The thumbnails and the art they are drawn with.
    var thumbnails: Thumbnails
    var input = KeyInput()
    /// What sits over the grid: it decides what the keys mean (`KeyMap`).
    var overlay = Overlay.none
    /// The session as the daemon last said.
    var mirror = SessionMirror()
    var data = ViewData()
    var grid = GridGeometry()
    var cursor = GridCursor()
    var pages = PageHistory()
    var batches = BatchMemory()
    var marks: MarkKeys
    var status = StatusLine()
    var shape = ShapeRefresh()
    var requests = RequestLedger()
    var fileFacts = FileFactsCache()
    var frames = FrameTiming(startedAt: MonotonicClock.nanoseconds())
    var running = true
    var dirty = true

    public init(options: CullOptions) throws(CullError) {
        self.options = options
        marks = MarkKeys(advance: options.advance)
        terminal = try Terminal()
        link = try DaemonLink(socketPath: options.socketPath)
        thumbnails = Thumbnails(art: ChafaArt(graphics: .symbols, cellPixels: (10, 20)), link: link)
    }

    var session: String { options.session ?? "default" }

    /// Runs until `q`; the terminal is left as it was found, whatever ends it.
    public func run() throws(CullError) {
        try start()
        defer {
            terminal.leave()
            thumbnails.releaseArt()
        }
        try loop()
    }

    func loop() throws(CullError) {
        while running {
            // Keys typed ahead wait for the session's answer before them, so that
            // `v Space Space d` typed at once means what it would typed slowly; and
            // for the whole view's shape at the start (G goes to the last photo).
            while requests.isIdle, data.isComplete, running, let key = input.next() { try handle(key) }
            guard running else { break }
            if dirty { draw() }
            // The first frame has asked for its thumbnails: now the whole shape.
            if !data.isComplete, !shape.inFlight { try listShape() }
            var fds = [
                pollfd(fd: terminal.input, events: Int16(POLLIN), revents: 0),
                pollfd(fd: link.descriptor.rawValue, events: Int16(POLLIN), revents: 0),
                pollfd(fd: terminal.wakeRead, events: Int16(POLLIN), revents: 0),
            ]
            let ready = SystemCalls.poll(&fds, nfds_t(fds.count), pollTimeout())
            if ready < 0 && errno != EINTR { throw CullError.system("poll", errno) }
            if fds[2].revents != 0, terminal.drainWake() {
                writer.invalidate()
                grid.invalidate()
                dirty = true
            }
            if fds[1].revents != 0 { try link.readAvailable() }
            try requests.check()
            if fds[0].revents & Int16(POLLIN) != 0 {
                guard let bytes = terminal.readInput() else { running = false; break }
                frames.keysRead(at: MonotonicClock.nanoseconds())
                // Ctrl-C is never kept waiting: it quits even while the daemon is silent.
                if input.feed(bytes), !isProgress { running = false; break }
            } else if fds[0].revents & Int16(POLLHUP | POLLERR) != 0 {
                running = false  // the terminal went away (ssh dropped)
            } else if ready == 0, input.isHolding {
                input.flushHeld()
            }
            if shape.isDue(now: MonotonicClock.nanoseconds()) { try listShape() }
        }
    }

    /// How long poll may sleep: an Escape to tell from a sequence, a listing due.
    private func pollTimeout() -> Int32 {
        var timeout: Int32 = -1
        if input.isHolding { timeout = 25 }
        if let ms = shape.pollTimeout(now: MonotonicClock.nanoseconds()) {
            timeout = timeout < 0 ? ms : min(timeout, ms)
        }
        return timeout
    }

    /// A status line: it may name photos and quote the daemon, so it is escaped.
    func say(_ text: String, warning: Bool = false) {
        status.say(text, warning: warning)
        dirty = true
    }

    /// Sends a request whose failure is shown in the status line.
    func request<R: ProtocolRequest>(_ command: R, failed: (() -> Void)? = nil,
                                     _ done: @escaping (R.Result) throws(CullError) -> Void) throws(CullError) {
        requests.sent()
        try link.call(command) { [weak self] outcome in
            guard let self else { return }
            self.requests.answered()
            switch outcome {
            case .success(let result):
                do throws(CullError) { try done(result) } catch { self.requests.carry(error) }
            case .failure(let error):
                failed?()
                self.say(error.message, warning: true)
            }
        }
    }

    var isProgress: Bool { if case .progress = overlay { true } else { false } }
}
