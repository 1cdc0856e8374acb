// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import CuratorThumbnails
import Foundation
import Glibc
import Testing
import CuratorTestSupport

/// The real worker (`curatord-thumbnailer` from .build/debug) driven by its real
/// client over a socket pair, files and cache passed as descriptors as the daemon
/// will; what it writes is checked by GNOME's own code.
struct ThumbnailerProcessTests {
    /// A photo folder, a cache, a client.
    final class Setup {
        let scratch: ScratchDirectory
        let photos: ByteString
        let cache: ThumbnailCache
        let directory: ThumbnailDirectory
        let thumbnailer: ThumbnailerProcess
        let gnome: Gnome

        init(fault: String? = nil, configure: (inout ThumbnailerProcess.Options) -> Void = { _ in }) throws {
            scratch = try ScratchDirectory(label: "thumbs")
            photos = try scratch.mkdir("photos")
            _ = try scratch.mkdir("home")
            cache = ThumbnailCache(root: scratch.child("home/.cache/thumbnails"))
            directory = try ThumbnailDirectory.open(cache, create: true)
            var options = ThumbnailerProcess.Options(executable: ByteString(Package.thumbnailer))
            if let fault { options.environment["CURATORD_THUMBNAILER_FAULT"] = fault }
            configure(&options)
            thumbnailer = ThumbnailerProcess(options: options)
            gnome = Gnome(cacheHome: scratch.child("home/.cache").lossyString, home: scratch.child("home").lossyString)
        }

        deinit { thumbnailer.stop() }

        /// Asks the worker for `sizes` of the file at `path`, passing descriptors.
        func make(_ path: ByteString, _ sizes: [ThumbnailSize] = [.normal, .large]) throws -> ThumbnailResult {
            let source = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK)
            defer { try? source.close() }
            let request = ThumbnailerRequest(uri: try FileURI(path: path), source: source, cache: directory.descriptor, sizes: sizes)
            return try thumbnailer.make(request)
        }

        func subject(_ path: ByteString) throws -> ThumbnailSubject {
            let status = try FileStatus.of(path)
            return ThumbnailSubject(uri: try FileURI(path: path), mtime: status.mtimeNanoseconds / 1_000_000_000, size: UInt64(status.size))
        }

        func failRecordExists(_ path: ByteString) throws -> Bool {
            FileManager.default.fileExists(atPath: cache.failPath(for: try FileURI(path: path)).lossyString)
        }
    }

    @Test func makesThumbnailsThatGLibAndGnomeAccept() throws {
        let setup = try Setup()
        let photo = try Samples.marker(setup.photos.appending("IMG 0001 été.jpg"), width: 1600, height: 1200, orientation: 6)
        let result = try setup.make(photo, ThumbnailSize.allCases)
        #expect(result.status == .written, "\(result)")
        #expect(result.sizes == [.normal: .written, .large: .written, .xLarge: .written, .xxLarge: .written])
        #expect(result.width == 1600 && result.height == 1200)
        let uri = try FileURI(path: photo)
        for size in ThumbnailSize.allCases {
            let path = setup.cache.path(for: uri, size: size)
            #expect(try Pixels.size(path).width == min(size.pixels, 1600))
            #expect(Pixels.isRed(try Pixels.at(path, x: 3, y: 3)))
            #expect(try FileStatus.of(path).mode & 0o777 == 0o600)
        }
        // GLib (gio info) finds one and calls it valid; gnome-desktop finds each size.
        let gio = try setup.gnome.gio(photo.lossyString)
        #expect(gio.valid == true)
        #expect(gio.path?.hasPrefix(setup.cache.root.lossyString) == true)
        for size in ["normal", "large", "x-large", "xx-large"] {
            let found = try setup.gnome.lookup(photo.lossyString, size: size)
            #expect(found == setup.cache.root.lossyString + "/" + size + "/" + uri.thumbnailHash + ".png", "\(size)")
        }
        // Asked again: everything is reused, nothing rewritten.
        let again = try setup.make(photo, ThumbnailSize.allCases)
        #expect(again.status == .reused)
        #expect(again.sizes?.values.allSatisfy { $0 == .reused } == true)
    }

    /// A thumbnail Nautilus made (gnome-desktop's factory running gdk-pixbuf-thumbnailer)
    /// is used as it is; only the missing size is made. Once the photo changes, it is
    /// replaced.
    @Test func reusesWhatNautilusMadeUntilThePhotoChanges() throws {
        let setup = try Setup()
        let photo = try Samples.marker(setup.photos.appending("DSC_0042.JPG"), width: 800, height: 600)
        let theirs = try #require(try setup.gnome.make(photo.lossyString, size: "large"))
        let before = try setup.scratch.read(ByteString(theirs))
        let result = try setup.make(photo, [.normal, .large])
        #expect(result.sizes == [.normal: .written, .large: .reused], "\(result)")
        #expect(try setup.scratch.read(ByteString(theirs)) == before)

        // A minute later the file is rewritten: their thumbnail is stale for them and for us.
        var times = [timespec(tv_sec: time(nil) + 60, tv_nsec: 0), timespec(tv_sec: time(nil) + 60, tv_nsec: 0)]
        _ = photo.withCString { utimensat(AT_FDCWD, $0, &times, 0) }
        #expect(try setup.gnome.lookup(photo.lossyString, size: "large") == nil)
        let redone = try setup.make(photo, [.normal, .large])
        #expect(redone.sizes == [.normal: .written, .large: .written], "\(redone)")
        #expect(try setup.gnome.lookup(photo.lossyString, size: "large") == theirs)
    }

    /// gdk-pixbuf-thumbnailer itself (`-s SIZE URI OUTPUT`, as the .thumbnailer file
    /// says) writes a bare PNG: no Thumb::URI, no Thumb::MTime. gnome-desktop's factory
    /// adds them when it saves (the test above); a bare one at the standard's path is
    /// not valid for anyone, and is replaced.
    @Test func aBareGdkPixbufThumbnailIsNotValid() throws {
        let setup = try Setup()
        let photo = try Samples.marker(setup.photos.appending("bare.jpg"))
        let uri = try FileURI(path: photo)
        let target = setup.cache.path(for: uri, size: .large)
        _ = try setup.scratch.mkdir("home/.cache/thumbnails/large", mode: 0o700)
        let out = try Tool.run("/usr/bin/gdk-pixbuf-thumbnailer", ["-s", "256", uri.text, target.lossyString])
        try #require(out.status == 0, "\(out.stderr)")
        #expect(try setup.directory.lookup(try setup.subject(photo), size: .large) == .stale)
        #expect(try setup.gnome.lookup(photo.lossyString, size: "large") == nil, "GNOME does not take it either")
        let result = try setup.make(photo, [.large])
        #expect(result.sizes == [.large: .written], "\(result)")
        #expect(try setup.gnome.lookup(photo.lossyString, size: "large") == target.lossyString)
    }

    @Test func rawAndHEICThroughTheWorker() throws {
        let setup = try Setup()
        let dng = try Samples.dng(setup.photos.appending("DSC_0001.DNG"), orientation: 6)
        let heic = try Samples.heic(setup.photos.appending("IMG_5001.HEIC"))
        for photo in [dng, heic] {
            let result = try setup.make(photo, [.large])
            #expect(result.status == .written, "\(photo): \(result)")
            let path = setup.cache.path(for: try FileURI(path: photo), size: .large)
            #expect(Pixels.isRed(try Pixels.at(path, x: 5, y: 5)), "\(photo)")
        }
        #expect(try setup.gnome.gio(dng.lossyString).valid == true)
    }

    /// A video clip: nothing is put in the shared cache (it would stop a file manager
    /// from ever making a real one), unless another program made one: then it is used.
    @Test func videoGetsAPlaceholderAnswerAndNoFile() throws {
        let setup = try Setup()
        let clip = try setup.scratch.write("photos/clip.mp4", [0, 0, 0, 0x18] + Array("ftypmp42".utf8) + [UInt8](repeating: 0, count: 100))
        let result = try setup.make(clip, [.large])
        #expect(result.status == .placeholder)
        #expect(!FileManager.default.fileExists(atPath: setup.cache.path(for: try FileURI(path: clip), size: .large).lossyString))
        #expect(try !setup.failRecordExists(clip))
        let subject = try setup.subject(clip)
        try setup.directory.write(PNGChunks.emptyImage(text: subject.textEntries), for: subject.uri, size: .large)
        #expect(try setup.make(clip, [.large]).status == .reused)
    }

    // MARK: hostile files and a worker in trouble

    @Test func hostileFilesGetFailRecordsAndTheWorkerCarriesOn() throws {
        let setup = try Setup()
        let good = try Samples.marker(setup.photos.appending("good.jpg"))
        let huge = try setup.scratch.write("photos/huge.jpg", Samples.jpegClaiming(width: 60000, height: 60000, from: try setup.scratch.read(good)))
        let heic = try setup.scratch.read(try Samples.heic(setup.scratch.child("whole.heic")))
        let cut = try setup.scratch.write("photos/cut.heic", Array(heic.prefix(heic.count / 2)))
        let empty = try setup.scratch.write("photos/empty.jpg", [])
        let text = try setup.scratch.write("photos/notes.jpg", Array(String(repeating: "hello ", count: 100).utf8))
        let expected: [(ByteString, ThumbnailFailure)] = [(huge, .tooLarge), (cut, .corrupt), (empty, .corrupt), (text, .unsupported)]
        let pid = try #require({ try setup.thumbnailer.start(); return setup.thumbnailer.pid }())
        for (file, code) in expected {
            let result = try setup.make(file)
            #expect(result.status == .failed && result.code == code && result.recorded == true, "\(file): \(result)")
            #expect(try setup.failRecordExists(file))
            #expect(try setup.directory.failRecord(for: try setup.subject(file)) != nil)
            // Nothing else: no thumbnail of any size.
            for size in ThumbnailSize.allCases {
                #expect(!FileManager.default.fileExists(atPath: setup.cache.path(for: try FileURI(path: file), size: size).lossyString))
            }
        }
        #expect(setup.thumbnailer.pid == pid, "the worker survived them all")
        #expect(try setup.make(good).status == .written)
        // Asked again, a recorded failure is not tried again...
        #expect(try setup.make(huge).code == .previouslyFailed)
        // ...until the file changes.
        try setup.scratch.write("photos/huge.jpg", try setup.scratch.read(good))
        var times = [timespec(tv_sec: time(nil) + 120, tv_nsec: 0), timespec(tv_sec: time(nil) + 120, tv_nsec: 0)]
        _ = huge.withCString { utimensat(AT_FDCWD, $0, &times, 0) }
        #expect(try setup.make(huge).status == .written)
    }

    /// A decoder crash kills the worker, not the client: the file is blamed (a fail
    /// record, written by the client) and the next job gets a new worker.
    @Test func aCrashIsBlamedOnItsFileAndSurvived() throws {
        let setup = try Setup(fault: "crash:BOOM")
        let boom = try Samples.marker(setup.photos.appending("BOOM.jpg"))
        let fine = try Samples.marker(setup.photos.appending("fine.jpg"))
        try setup.thumbnailer.start()
        let first = setup.thumbnailer.pid
        let result = try setup.make(boom)
        #expect(result.status == .failed && result.code == .crashed && result.recorded == true, "\(result)")
        #expect(result.reason?.contains("SIGSEGV") == true)
        #expect(try setup.failRecordExists(boom))
        #expect(setup.thumbnailer.pid == nil)
        #expect(try setup.make(fine).status == .written)
        #expect(setup.thumbnailer.pid != first && setup.thumbnailer.starts == 2)
        #expect(try setup.make(boom).code == .previouslyFailed)
        #expect(setup.thumbnailer.starts == 2, "a recorded failure is not tried again")
    }

    @Test func aWorkerThatExitsMidJobIsACrashToo() throws {
        let setup = try Setup(fault: "exit:QUIT")
        let quit = try Samples.marker(setup.photos.appending("QUIT.jpg"))
        let result = try setup.make(quit)
        #expect(result.code == .crashed && result.recorded == true, "\(result)")
        #expect(result.reason?.contains("exited with status 3") == true)
    }

    /// A decoder stuck in a loop is stopped by the CPU-time bound (SIGXCPU) and the
    /// file recorded; CPU time, not wall time, so a busy machine blames nobody.
    @Test func aSpinningDecoderIsStoppedByItsCPUBound() throws {
        let setup = try Setup(fault: "spin:SPIN") { $0.cpuSecondsPerJob = 1 }
        let spin = try Samples.marker(setup.photos.appending("SPIN.jpg"))
        let result = try setup.make(spin)
        #expect(result.code == .timeout && result.recorded == true, "\(result)")
        #expect(try setup.make(try Samples.marker(setup.photos.appending("ok.jpg"))).status == .written)
    }

    /// No answer within the wall-clock bound: the worker is killed and replaced, and
    /// nothing is recorded (the worker runs at idle priority: the machine may be busy).
    @Test func aHungWorkerIsReplacedWithoutBlame() throws {
        let setup = try Setup(fault: "hang:HANG") { $0.answerTimeoutMilliseconds = 1500 }
        let hang = try Samples.marker(setup.photos.appending("HANG.jpg"))
        try setup.thumbnailer.start()
        let first = try #require(setup.thumbnailer.pid)
        let result = try setup.make(hang)
        #expect(result.code == .noAnswer && result.recorded == false, "\(result)")
        #expect(try !setup.failRecordExists(hang))
        #expect(kill(first, 0) == -1 && errno == ESRCH, "the hung worker is gone")
        #expect(try setup.make(try Samples.marker(setup.photos.appending("ok.jpg"))).status == .written)
    }

    /// A worker killed between jobs (OOM killer, an admin) is nobody's file's fault.
    @Test func aWorkerKilledWhileIdleIsRestartedQuietly() throws {
        let setup = try Setup()
        let photo = try Samples.marker(setup.photos.appending("a.jpg"))
        try setup.thumbnailer.start()
        let first = try #require(setup.thumbnailer.pid)
        kill(first, SIGKILL)
        // Dead (a zombie, not yet reaped) before the job is sent: a loaded machine may
        // take longer than any fixed sleep to deliver the signal.
        let deadline = MonotonicClock.nanoseconds() + 30_000_000_000
        while !isZombie(first) && MonotonicClock.nanoseconds() < deadline { usleep(5_000) }
        try #require(isZombie(first), "the worker did not die of SIGKILL")
        let result = try setup.make(photo)
        #expect(result.status == .written, "\(result)")
        #expect(try !setup.failRecordExists(photo))
        #expect(setup.thumbnailer.starts == 2)
    }

    /// The process has exited and waits for its parent to reap it.
    private func isZombie(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return stat[close...].dropFirst(2).first == "Z"
    }

    @Test func aWorkerThatCannotStartIsAnErrorNotAFailure() throws {
        let setup = try Setup(fault: "start")
        let photo = try Samples.marker(setup.photos.appending("a.jpg"))
        #expect(throws: ThumbnailerError.self) { try setup.make(photo) }
        #expect(try !setup.failRecordExists(photo))
        let missing = ThumbnailerProcess(options: .init(executable: "/nonexistent/curatord-thumbnailer"))
        #expect(throws: ThumbnailerError.self) { try missing.start() }
    }

    /// nice and scheduling policy of each thread of `pid`, by thread id.
    static func threadPriorities(_ pid: pid_t) throws -> [String: (nice: Substring, policy: Substring)] {
        var found: [String: (nice: Substring, policy: Substring)] = [:]
        for tid in try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") {
            let stat = try String(contentsOfFile: "/proc/\(pid)/task/\(tid)/stat", encoding: .utf8)
            let fields = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...].split(separator: " ")
            found[tid] = (fields[16], fields[38])
        }
        return found
    }

    /// Idle priority (nice 19, SCHED_IDLE, I/O class idle) on every thread once it is
    /// ready, its memory bound, no core files, and it ends when its client closes the socket.
    @Test func theWorkerRunsIdleAndBounded() throws {
        let setup = try Setup { $0.memoryLimitMiB = 768 }
        try setup.thumbnailer.start()
        let pid = try #require(setup.thumbnailer.pid)
        let threads = try Self.threadPriorities(pid)
        #expect(!threads.isEmpty)
        for (tid, priority) in threads {
            #expect(priority.nice == "19", "nice of thread \(tid)")
            #expect(priority.policy == "5", "policy SCHED_IDLE of thread \(tid)")
        }
        let ionice = try Tool.run("/usr/bin/ionice", ["-p", "\(pid)"])
        #expect(ionice.stdout.hasPrefix("idle"), "\(ionice.stdout)")
        let limits = try String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)
        #expect(limits.contains { _ in true })
        let lines = limits.split(separator: "\n")
        #expect(lines.first { $0.hasPrefix("Max address space") }?.contains("\(768 << 20)") == true)
        #expect(lines.first { $0.hasPrefix("Max core file size") }?.split(separator: " ").dropFirst(4).first == "0")
        setup.thumbnailer.stop()
        #expect(kill(pid, 0) == -1 && errno == ESRCH)
    }

    /// On a core that other work keeps busy, a new worker still says it is ready
    /// within the daemon's wait (10 s): it loads libvips at its parent's priority
    /// and only then lowers itself. (Loaded at SCHED_IDLE, next to a busy process it
    /// got almost no CPU: the daemon gave up on it, again at each retry.) Ready, it
    /// runs idle, every thread of it.
    @Test func aWorkerStartsBesideABusyCore() throws {
        let scratch = try ScratchDirectory(label: "thumbs")
        let allowed = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
            .split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") }
        let cpu = try #require(allowed?.split(separator: ":").last?.trimmingCharacters(in: .whitespaces)
            .split(whereSeparator: { $0 == "," || $0 == "-" }).first.map(String.init))
        // The worker, pinned to that core beside a process that never sleeps.
        let pinned = try scratch.write(
            "pinned-thumbnailer", Array("#!/bin/sh\nexec /usr/bin/taskset -c \(cpu) \"\(Package.thumbnailer)\" \"$@\"\n".utf8),
            mode: 0o755)
        let busy = Process()
        busy.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
        busy.arguments = ["-c", cpu, "/bin/sh", "-c", "while :; do :; done"]
        try busy.run()
        defer {
            // SIGKILL: the test runner's threads block SIGTERM, and the child inherits that.
            kill(busy.processIdentifier, SIGKILL)
            busy.waitUntilExit()
        }
        let thumbnailer = ThumbnailerProcess(options: .init(executable: pinned))
        defer { thumbnailer.stop() }
        let started = MonotonicClock.nanoseconds()
        try thumbnailer.start()
        let seconds = Double(MonotonicClock.nanoseconds() - started) / 1e9
        #expect(seconds < 10, "ready after \(seconds) s")
        let pid = try #require(thumbnailer.pid)
        for (tid, priority) in try Self.threadPriorities(pid) {
            #expect(priority.nice == "19" && priority.policy == "5", "thread \(tid): nice \(priority.nice), policy \(priority.policy)")
        }
    }

    /// A script's way: jobs as lines on a pipe, paths instead of descriptors (a name
    /// that is not UTF-8 as `path_raw`), the user's cache from XDG_CACHE_HOME.
    @Test func linesOnAPipeWithPaths() throws {
        let scratch = try ScratchDirectory(label: "thumbs")
        // The generator takes UTF-8 names: made under one, then renamed to the bytes.
        let made = try Samples.marker(scratch.child("photo.jpg"))
        let photo = scratch.child(ByteString(Array("photo-".utf8) + [0xE9] + Array(".jpg".utf8)))
        _ = try syscall("rename") { made.withCString { from in photo.withCString { rename(from, $0) } } }
        let uri = try FileURI(path: photo)
        var job = ThumbnailJob(id: 7, uri: uri, sizes: [.normal])
        job.pathRaw = photo.base64
        let jobs = [String(decoding: try JSONEncoder().encode(job), as: UTF8.self), "{not json", ""].joined(separator: "\n")
        let input = try scratch.write("jobs", Array(jobs.utf8))
        let out = try Tool.run("/bin/sh", ["-c", "exec \"$1\" < \"$2\"", "sh", Package.thumbnailer, input.lossyString],
                               environment: ["XDG_CACHE_HOME": scratch.child("cache").lossyString, "PATH": "/usr/bin:/bin"])
        #expect(out.status == 0, "\(out.stderr)")
        let lines = out.stdout.split(separator: "\n").map { Data($0.utf8) }
        try #require(lines.count == 3, "\(out.stdout)")
        let hello = try JSONDecoder().decode(ThumbnailerHello.self, from: lines[0])
        #expect(hello.ready && hello.vips.hasPrefix("8."))
        let result = try JSONDecoder().decode(ThumbnailResult.self, from: lines[1])
        #expect(result.id == 7 && result.status == .written, "\(result)")
        let bad = try JSONDecoder().decode(ThumbnailResult.self, from: lines[2])
        #expect(bad.code == .badJob)
        let written = ThumbnailCache(root: scratch.child("cache/thumbnails")).path(for: uri, size: .normal)
        #expect(Pixels.isRed(try Pixels.at(written, x: 2, y: 2)))
    }
}
