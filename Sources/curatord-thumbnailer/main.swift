// SPDX-License-Identifier: GPL-2.0-or-later
// curatord-thumbnailer: makes thumbnails for curatord, one job at a time, in a process
// of its own so that a hostile file can crash or bloat only this process. It reads
// jobs on stdin and answers on stdout (`ThumbnailJob`, `ThumbnailResult`; the
// exchange is in docs/THUMBNAILS.md), at idle priority, with its address space
// and each job's CPU time bounded. The daemon starts it (`ThumbnailerProcess`);
// scripts may too, a job per line:
//
//   echo '{"id":1,"uri":"file:///home/ann/a.jpg","sizes":["large"]}' | curatord-thumbnailer
import CLinux
import CuratorCommandLine
import CuratorImaging
import CuratorSystem
import CuratorThumbnails
import CWorker
import FoundationEssentials
import Glibc

/// The command line's arguments; for a usage error, its text on stderr and exit
/// status 2. `sheet` runs here and exits.
func parse(_ arguments: [String]) -> ThumbnailerArguments {
    let line: ParsedCommandLine
    do {
        switch try CommandParser.parse(arguments, root: ThumbnailerArguments.self) {
        case .help(let text):
            print(text)
            exit(0)
        case .run(let parsed):
            line = parsed
        }
    } catch {
        // The sheet's lines start as curatorctl, which runs it, looks for (`SheetCommand.say`).
        if error.commandPath.hasSuffix(" sheet") {
            SheetCommand.say("curatord-thumbnailer sheet: \(error.message)\nUsage: \(error.usage)")
        } else {
            SheetCommand.say(error.text)
        }
        exit(error.exitCode)
    }
    if let sheet = line.command as? SheetArguments { exit(SheetCommand.run(sheet)) }
    guard let settings = line.command(ThumbnailerArguments.self) else { preconditionFailure("the root command is parsed") }
    if settings.version {
        print("curatord-thumbnailer \(ThumbnailKeys.softwareName)")
        exit(0)
    }
    return settings
}

/// Bounds this process before it reads a job. Its priority is lowered later, once
/// libvips is loaded (`lowerPriority`).
func confine(_ settings: ThumbnailerArguments) {
    if curator_worker_bind_to_parent() != 0 {
        log.warning("curatord-thumbnailer: prctl: \(Errno.current)")
    }
    // The system service's capabilities (CAP_DAC_OVERRIDE and the like) are not for
    // decoders of untrusted files: the worker reads the descriptors it is given and
    // writes into the cache directory it is given, which needs none. Before any
    // thread starts, since capabilities are per thread. Failing that, no jobs.
    if curator_worker_drop_capabilities() != 0 {
        log.error("curatord-thumbnailer: cannot drop its capabilities: \(Errno.current)")
        exit(1)
    }
    // No core files: a crash on a hostile file would write the user's photo to disk.
    var none = rlimit(rlim_cur: 0, rlim_max: 0)
    setrlimit(Int32(RLIMIT_CORE.rawValue), &none)
    if settings.memoryMiB > 0 {
        let bytes = rlim_t(settings.memoryMiB) << 20
        var memory = rlimit(rlim_cur: bytes, rlim_max: bytes)
        if setrlimit(Int32(RLIMIT_AS.rawValue), &memory) != 0 { log.warning("curatord-thumbnailer: RLIMIT_AS: \(Errno.current)") }
    }
    // Two malloc arenas, not one per thread: the address-space bound counts them.
    curator_worker_limit_arenas(2)
    signal(SIGPIPE, SIG_IGN)
}

/// nice 19, SCHED_IDLE, I/O class idle, for every thread libvips started too (Linux
/// keeps priorities per thread). Only after libvips and its modules are loaded: that
/// takes a few hundred milliseconds of CPU once, and at idle priority on a machine
/// whose cores are busy it took longer than the daemon waits for `ready`, again at
/// each retry. No job is read before this.
func lowerPriority() {
    if curator_worker_lower_all_threads() != 0 {
        log.warning("curatord-thumbnailer: could not lower its priority fully: \(Errno.current)")
    }
}

/// The CPU time used so far plus one job's allowance becomes the soft RLIMIT_CPU:
/// past it the kernel sends SIGXCPU, which ends the worker, and the client knows
/// that the file took too long.
func allowCPU(seconds: Int) {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let used = Int(usage.ru_utime.tv_sec) + Int(usage.ru_stime.tv_sec) + 1
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_CPU.rawValue), &limit)
    // The hard limit stays as it is (raising it needs privileges); RLIM_INFINITY is
    // rlim_t.max.
    limit.rlim_cur = min(rlim_t(used + seconds), limit.rlim_max)
    setrlimit(Int32(RLIMIT_CPU.rawValue), &limit)
}

/// Test hooks (`CURATORD_THUMBNAILER_FAULT=<action>:<text>`): when a file whose URI
/// contains <text> is about to be decoded, `crash` (a real bad-pointer SIGSEGV, as a decoder bug would
/// make), `spin` (burn CPU), `hang` (sleep), or `exit` (end before answering).
/// `start` (no text) dies before saying it is ready.
struct Fault {
    var action: String
    var marker: String

    static let armed: Fault? = {
        guard let value = ProcessInfo.processInfo.environment["CURATORD_THUMBNAILER_FAULT"] else { return nil }
        let parts = value.split(separator: ":", maxSplits: 1).map(String.init)
        return Fault(action: parts[0], marker: parts.count > 1 ? parts[1] : "")
    }()

    func strike(on job: ThumbnailJob) {
        guard job.uri.contains(marker) else { return }
        switch action {
        case "crash":
            // raise(SIGSEGV) would not do: a handler may return from a raised signal.
            UnsafeMutablePointer<Int>(bitPattern: 8)?.pointee = 1
        case "spin": while true { _ = getpid() }
        case "hang": while true { sleep(60) }
        case "exit": exit(3)
        default: break
        }
    }
}

let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return encoder
}()

func send(_ channel: WorkerChannel, _ value: some Encodable) {
    do {
        try channel.send(Array(try encoder.encode(value)))
    } catch {
        // The client went away: nothing is left to do.
        exit(0)
    }
}

let settings = parse(Array(CommandLine.arguments.dropFirst()))
confine(settings)
if Fault.armed?.action == "start" { exit(4) }
do {
    try Vips.start(threads: settings.threads)
} catch {
    log.error("curatord-thumbnailer: \(error)")
    exit(1)
}
lowerPriority()
// After libvips started its threads (the filter goes on every one) and before any job.
if curator_worker_deny_system_calls() != 0 {
    // EPERM: the system unit's own filter (which holds this process too) refuses another.
    let error = Errno.current
    if error == .notPermitted {
        log.info("curatord-thumbnailer: no seccomp filter of its own: \(error)")
    } else {
        log.warning("curatord-thumbnailer: no seccomp filter: \(error)")
    }
}

let input = FileDescriptor(rawValue: 0)
let kind: WorkerChannel.Kind
do {
    kind = try WorkerChannel.kind(of: input)
} catch {
    log.error("curatord-thumbnailer: stdin: \(error)")
    exit(1)
}
let channel = WorkerChannel(input: input, output: FileDescriptor(rawValue: 1), kind: kind)
var runner = ThumbnailJobRunner(
    maker: ThumbnailMaker(maxPixels: settings.maxPixels), environment: ProcessInfo.processInfo.environment)
if let fault = Fault.armed { runner.beforeDecoding = { fault.strike(on: $0) } }
send(channel, ThumbnailerHello(pid: getpid(), version: ThumbnailKeys.softwareName, vips: Vips.version))

while true {
    let message: WorkerChannel.Message
    do {
        // Freed memory goes back to the system once no job has come for a second, not
        // after every job: a run of jobs would fault the same pages in again each time.
        if try !channel.wait(timeoutMilliseconds: 1000) { curator_trim_heap() }
        guard let received = try channel.receive() else { exit(0) }
        message = received
    } catch {
        log.error("curatord-thumbnailer: reading jobs: \(error)")
        exit(1)
    }
    defer { message.descriptors.forEach { try? $0.close() } }  // the daemon's copies stay open
    if message.bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }) { continue }
    let job: ThumbnailJob
    do {
        job = try JSONDecoder().decode(ThumbnailJob.self, from: Data(message.bytes))
    } catch {
        send(channel, ThumbnailResult.failure(id: 0, .badJob, "not a job: \(error)"))
        continue
    }
    allowCPU(seconds: settings.cpuSeconds)
    send(channel, runner.run(job, descriptors: message.descriptors))
}
