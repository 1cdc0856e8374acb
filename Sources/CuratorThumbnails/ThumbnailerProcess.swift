// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import CWorker
import FoundationEssentials
import Glibc

/// The daemon's side of `curatord-thumbnailer`: starts the worker, hands it one job
/// at a time over a SOCK_SEQPACKET socket (the file and the cache directory passed
/// as descriptors), waits for the answer with a bound, and starts a new worker when
/// one dies. libvips and LibRaw live only in the worker: a decoder crash or a memory
/// blow-up on a hostile file ends that process, never the daemon, and the daemon's
/// own resident memory does not carry the imaging libraries.
///
/// Who is to blame is decided here. A worker that dies or runs out of CPU time in
/// the middle of a job died of that file: the job fails, and a fail record (written
/// here, the worker being gone) keeps anyone from trying the file again until it
/// changes. A worker that dies before it says it is ready, or between jobs, is
/// broken, not the file: that is a `ThumbnailerError`. A worker that takes too long
/// on the wall clock is killed, and nothing is recorded (the machine may just be
/// busy: the worker runs at idle priority).
///
/// Not Sendable: one thread owns it and calls `make` for one job at a time.
public final class ThumbnailerProcess {
    public struct Options: Sendable {
        public var executable: ByteString
        /// The largest image decoded, in pixels (width x height as the header says).
        public var maxPixels: Int = 16384 * 16384
        /// The worker's address-space bound (RLIMIT_AS), MiB.
        public var memoryLimitMiB: Int = 1024
        /// CPU time one job may take before the worker is stopped (RLIMIT_CPU), seconds.
        public var cpuSecondsPerJob: Int = 30
        /// How long to wait for an answer before killing the worker, milliseconds.
        public var answerTimeoutMilliseconds: Int32 = 120_000
        /// How long a new worker may take to say it is ready, milliseconds.
        public var startTimeoutMilliseconds: Int32 = 10_000
        /// libvips' worker threads.
        public var threads: Int = 1
        /// Variables added to (or replacing) the daemon's environment for the worker.
        /// By default the Swift runtime's crash backtracer is off: a decoder crash on a
        /// hostile file is one line in the daemon's log (the client's), not a page.
        public var environment: [String: String] = ["SWIFT_BACKTRACE": "enable=no"]

        public init(executable: ByteString) { self.executable = executable }

        /// `curatord-thumbnailer` next to the running program, where `make install`
        /// and `swift build` put it.
        public static func besideCurrentExecutable() -> ByteString? {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = SystemCalls.readlink("/proc/self/exe", &buffer, buffer.count - 1)
            guard count > 0 else { return nil }
            let own = ByteString(buffer[0..<count].map { UInt8(bitPattern: $0) })
            return own.parent.appending("curatord-thumbnailer")
        }

        var arguments: [String] {
            ["--max-pixels", String(maxPixels), "--memory-mib", String(memoryLimitMiB),
             "--cpu-seconds", String(cpuSecondsPerJob), "--threads", String(threads)]
        }
    }

    public let options: Options
    /// The running worker's pid, nil when none runs.
    public var pid: pid_t? { worker?.child.pid }
    /// How many workers were started so far.
    public private(set) var starts = 0
    /// What the current worker said when it started.
    public private(set) var hello: ThumbnailerHello?

    private struct Worker {
        let child: ChildProcess
        let channel: WorkerChannel
        let socket: FileDescriptor
    }

    private var worker: Worker?
    private var nextID = 1

    public init(options: Options) { self.options = options }

    deinit { stop() }

    /// Starts a worker now rather than at the first job.
    public func start() throws(ThumbnailerError) {
        if worker != nil { return }
        var pair: [Int32] = [-1, -1]
        guard curator_seqpacket_pair(&pair) == 0 else {
            throw ThumbnailerError(.spawn, "socketpair: \(Errno.current)")
        }
        let mine = FileDescriptor(rawValue: pair[0])
        let theirs = FileDescriptor(rawValue: pair[1])
        // The system unit gives the daemon its capabilities as ambient ones, which an
        // exec passes on: this thread (it starts workers, nothing else needs them
        // across an exec) lets them go, so that a worker starts with none even where
        // the unit's filter refuses it capset.
        if curator_clear_ambient_capabilities() != 0 {
            log.warning("thumbnails: cannot clear this thread's ambient capabilities: \(Errno.current)")
        }
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(
                executable: options.executable, arguments: options.arguments, environment: options.environment,
                stdin: theirs, stdout: theirs)
        } catch {
            try? mine.close()
            try? theirs.close()
            throw ThumbnailerError(.spawn, "\(error)")
        }
        // The worker holds its copy; ours is only a socket end with nothing to report.
        try? theirs.close()
        starts += 1
        let channel = WorkerChannel(input: mine, output: mine, kind: .messages)
        let started = Worker(child: child, channel: channel, socket: mine)
        do {
            guard try channel.wait(timeoutMilliseconds: options.startTimeoutMilliseconds) else {
                end(started, kill: true)
                throw ThumbnailerError(.spawn, "the worker did not say it was ready within \(options.startTimeoutMilliseconds) ms")
            }
            guard let message = try channel.receive() else {
                let ending = end(started, kill: false)
                throw ThumbnailerError(.spawn, "the worker \(ending) before it was ready")
            }
            hello = try JSONDecoder().decode(ThumbnailerHello.self, from: Data(message.bytes))
            message.descriptors.forEach { try? $0.close() }
        } catch let error as ThumbnailerError {
            throw error
        } catch {
            end(started, kill: true)
            throw ThumbnailerError(.spawn, "the worker's first message: \(error)")
        }
        worker = started
    }

    /// Makes (or finds valid) the thumbnails `request` asks for, and says what became
    /// of them. Throws only when no worker can be run; a file's failure is a result.
    public func make(_ request: ThumbnailerRequest) throws(ThumbnailerError) -> ThumbnailResult {
        let id = nextID
        nextID += 1
        var job = ThumbnailJob(
            id: id, uri: request.uri, sizes: request.sizes, type: request.type, mtime: request.mtime, size: request.size)
        if request.look { job.look = true }
        job.ask(previews: request.previews)
        let bytes: [UInt8]
        do {
            bytes = Array(try JSONEncoder().encode(job))
        } catch {
            return .failure(id: id, .badJob, "the job could not be encoded: \(error)")
        }
        let active = try send(bytes, descriptors: [request.source, request.cache])
        let answered: Bool
        do {
            answered = try active.channel.wait(timeoutMilliseconds: options.answerTimeoutMilliseconds)
        } catch {
            answered = false
        }
        guard answered else {
            end(active, kill: true)
            worker = nil
            return .failure(id: id, .noAnswer, "no answer within \(options.answerTimeoutMilliseconds) ms; the worker was stopped")
        }
        let message: WorkerChannel.Message?
        do {
            message = try active.channel.receive()
        } catch {
            message = nil
        }
        guard let message else {
            // The worker died on this file.
            let ending = end(active, kill: true)
            worker = nil
            return blame(request, id: id, ending: ending)
        }
        message.descriptors.forEach { try? $0.close() }
        do {
            let result = try JSONDecoder().decode(ThumbnailResult.self, from: Data(message.bytes))
            guard result.id == id else {
                end(active, kill: true)
                worker = nil
                throw ThumbnailerError(.protocolViolation, "answer \(result.id) to job \(id)")
            }
            return result
        } catch let error as ThumbnailerError {
            throw error
        } catch {
            end(active, kill: true)
            worker = nil
            throw ThumbnailerError(.protocolViolation, "an answer that is not a result: \(error)")
        }
    }

    /// Stops the worker: it sees the end of its input and exits; one that does not
    /// within a second is killed.
    public func stop() {
        guard let active = worker else { return }
        worker = nil
        _ = SystemCalls.shutdown(active.socket.rawValue, Int32(SHUT_RDWR))
        for _ in 0..<100 {
            if active.child.poll() != nil {
                try? active.socket.close()
                return
            }
            usleep(10_000)
        }
        end(active, kill: true)
    }

    // MARK: private

    /// Sends to the running worker, or to a new one when there is none or the old one
    /// is found dead between jobs (not the file's fault).
    private func send(_ bytes: [UInt8], descriptors: [FileDescriptor]) throws(ThumbnailerError) -> Worker {
        for attempt in 0..<2 {
            try start()
            guard let active = worker else { break }
            do {
                try active.channel.send(bytes, descriptors: descriptors)
                return active
            } catch where attempt == 0 && [.brokenPipe, Errno(ECONNRESET)].contains(error.errno) {
                let ending = end(active, kill: true)
                worker = nil
                log.warning("thumbnailer: worker \(active.child.pid) \(ending) while idle; starting another")
            } catch {
                end(active, kill: true)
                worker = nil
                throw ThumbnailerError(.spawn, "sending a job: \(error)")
            }
        }
        throw ThumbnailerError(.spawn, "the worker dies as soon as it is started")
    }

    /// The failure of a job whose worker died, recorded so that nobody tries again.
    private func blame(_ request: ThumbnailerRequest, id: Int, ending: ChildProcess.Ending) -> ThumbnailResult {
        let code: ThumbnailFailure = ending == .signalled(SIGXCPU) ? .timeout : .crashed
        let reason = code == .timeout
            ? "more than \(options.cpuSecondsPerJob) s of CPU time"
            : "the thumbnailer \(ending) while decoding this file"
        log.warning("thumbnailer: \(request.uri): \(reason)")
        var recorded = false
        do {
            let status = try FileStatus.of(descriptor: request.source)
            let subject = ThumbnailSubject(
                uri: request.uri, mtime: status.mtimeNanoseconds.floorDividedBySecond, size: UInt64(max(0, status.size)))
            let directory = try ThumbnailDirectory.duplicating(request.cache)
            try directory.writeFailRecord(for: subject, reason: "\(code.rawValue): \(reason)")
            recorded = true
        } catch {
            log.warning("thumbnailer: no fail record for \(request.uri): \(error)")
        }
        return .failure(id: id, code, reason, recorded: recorded)
    }

    @discardableResult
    private func end(_ active: Worker, kill: Bool) -> ChildProcess.Ending {
        if kill { active.child.kill() }
        let ending = active.child.wait()
        try? active.socket.close()
        return ending
    }
}

/// One file's thumbnails, asked of the worker.
public struct ThumbnailerRequest {
    public var uri: FileURI
    /// The file, open for reading (the caller keeps it: the worker gets a copy).
    public var source: FileDescriptor
    /// The `thumbnails` directory the thumbnails go to (the caller keeps it).
    public var cache: FileDescriptor
    public var sizes: [ThumbnailSize]
    public var type: String?
    public var mtime: Int64?
    public var size: UInt64?
    /// Ask for the thumbnails' measures too (`ThumbnailResult.look`).
    public var look = false
    /// Ask for these previews too (`ThumbnailResult.preview`, `.screen`).
    public var previews: Set<PreviewKind> = []

    public init(uri: FileURI, source: FileDescriptor, cache: FileDescriptor, sizes: [ThumbnailSize],
                type: String? = nil, mtime: Int64? = nil, size: UInt64? = nil) {
        self.uri = uri
        self.source = source
        self.cache = cache
        self.sizes = sizes
        self.type = type
        self.mtime = mtime
        self.size = size
    }
}

/// No worker could be run, or it broke the protocol: not any file's fault.
public struct ThumbnailerError: Error, CustomStringConvertible, Sendable {
    public enum Kind: String, Sendable {
        case spawn
        case protocolViolation = "protocol"
    }

    public let kind: Kind
    public let detail: String

    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    public var description: String { "thumbnailer \(kind.rawValue): \(detail)" }
}

extension Int64 {
    /// Nanoseconds to whole seconds, rounding down (before 1970 too), as st_mtime is.
    var floorDividedBySecond: Int64 {
        let (quotient, remainder) = quotientAndRemainder(dividingBy: 1_000_000_000)
        return remainder < 0 ? quotient - 1 : quotient
    }
}
