// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import CuratorCore
import CuratorProtocol
import CuratorSystem
import CuratorThumbnails
import FoundationEssentials
import Glibc

/// Wires the pieces together: configuration, the index, the watcher, the socket
/// server, and signals. Owns no state of its own beyond the process's lifetime.
public enum Daemon {
    /// The signals handled by the main thread with sigwait; blocked everywhere else.
    static let handledSignals: [Int32] = [SIGTERM, SIGINT, SIGHUP]

    /// Call first thing in `main`, before any thread exists.
    public static func prepareProcess() {
        signal(SIGPIPE, SIG_IGN)
        // One malloc arena per thread would multiply the heap by the number of
        // client threads; two are plenty for a daemon that mostly waits. A fixed
        // mmap threshold stops glibc from raising it after a large free (a 15 MB
        // listing), which would put later large buffers in the arenas, where
        // their freed pages stay resident.
        curator_tune_malloc(2, 256 << 10)
        var set = sigset_t()
        sigemptyset(&set)
        for s in handledSignals { sigaddset(&set, s) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    public static func main(arguments: [String], inotify: InotifyToolsHandle?, inotifyError: SystemError?) -> Int32 {
        let args: DaemonArguments
        do {
            switch try DaemonArguments.parse(Array(arguments.dropFirst())) {
            case .help(let text):
                print(text)
                return 0
            case .run(let parsed):
                args = parsed
            }
        } catch {
            printError(error.text)
            return error.exitCode
        }
        if args.showVersion {
            print("curatord \(ProtocolInfo.serverVersion) (protocol \(ProtocolInfo.version))")
            return 0
        }
        let config: Configuration
        do {
            let warnings: [String]
            (config, warnings) = try loadConfiguration(args)
            for warning in warnings { log.warning(warning) }
        } catch {
            printError("curatord: \(error)")
            return 1
        }
        log.level = config.logLevel
        if args.checkConfig {
            let check = SettingsCheck(config, socketIsDefault: config.socketPath == ByteString(Environment().defaultSocketPath))
            for warning in check.warnings { log.warning(warning) }
            for error in check.errors { printError("curatord: \(error)") }
            guard check.errors.isEmpty else { return 1 }
            print(EffectiveSettings.describe(config, systemWide: Environment().isSystemService))
            return 0
        }
        if let inotifyError { log.warning("inotify is unavailable (\(inotifyError)); every root will be polled") }
        let trashProblems = TrashReadiness.problems(config, servesOthers: SettingsCheck.servesOthers(config))
        for problem in trashProblems where !problem.refusesRoot {
            log.warning("\(problem)")
        }
        let refused = trashProblems.filter(\.refusesRoot)
        guard refused.isEmpty else {
            for problem in refused { printError("curatord: \(problem)") }
            return 1
        }
        return run(config, arguments: args, inotify: inotify)
    }

    static func printError(_ text: String) {
        // write(2), not FileHandle: a closed stderr must not trap the daemon.
        let bytes = Array((text + "\n").utf8)
        _ = bytes.withUnsafeBytes { buffer in SystemCalls.write(2, buffer.baseAddress, buffer.count) }
    }

    /// The configuration the command line names, and what its loader warned about
    /// (unknown keys: for the log, and for the client that asked for a reload).
    static func loadConfiguration(_ args: DaemonArguments) throws -> (Configuration, [String]) {
        let environment = Environment()
        var loader = ConfigLoader(environment: environment)
        var config: Configuration
        if let path = args.configPath {
            config = try loader.load(file: path)
        } else if !args.roots.isEmpty {
            config = try loader.fromArguments(roots: args.roots, socket: args.socket, stateDirectory: args.stateDirectory)
        } else if FileManager.default.fileExists(atPath: environment.defaultConfigPath) {
            config = try loader.load(file: environment.defaultConfigPath)
        } else {
            throw ConfigError(file: nil, key: nil,
                              "nothing to watch: give --root DIR, or --config FILE (no \(environment.defaultConfigPath) found)")
        }
        if args.configPath != nil || args.roots.isEmpty {
            if let socket = args.socket {
                // As the file's `socket` is checked: sun_path holds 107 bytes and the NUL.
                guard socket.utf8.count <= UnixSocket.maxPathLength else {
                    throw ConfigError(file: nil, key: "--socket", "\(socket) is \(socket.utf8.count) bytes long; a Unix socket's "
                                      + "path can be at most \(UnixSocket.maxPathLength) bytes (sun_path holds "
                                      + "\(UnixSocket.maxPathLength + 1) with its NUL)")
                }
                config.socketPath = ByteString(socket)
            }
            if let state = args.stateDirectory { config.stateDirectory = ByteString(state) }
        }
        if let word = args.logLevel {
            guard let level = LogLevel(word: word) else {
                throw ConfigError(file: nil, key: "--log-level", "must be one of error, warning, notice, info, debug")
            }
            config.logLevel = level
        }
        return (config, loader.warnings)
    }

    /// How long shutdown waits for a running batch to reach the end of a step,
    /// connections to send what they owe, the watcher's scan step and the capture
    /// reader's batch: 27 s together, inside the units' TimeoutStopSec=30s.
    static let watcherStopSeconds = 15.0
    static let captureStopSeconds = 5.0
    static let batchStopSeconds = 5.0
    static let connectionsStopSeconds = 2.0

    static func run(_ config: Configuration, arguments: DaemonArguments, inotify: InotifyToolsHandle?) -> Int32 {
        let activated = SocketActivation.listener()
        do {
            try makeDirectory(config.stateDirectory, mode: 0o700)
        } catch {
            log.error("\(error)")
            return 1
        }
        // Before the index or the journal is opened: two daemons on one state would
        // both write the journal, the second "recovering" the first's running batch.
        // Held until the process exits.
        guard let stateLock = lockStateDirectory(config.stateDirectory) else { return 1 }
        do {
            // Under socket activation the .socket unit made the socket's directory.
            if activated == nil { try makeDirectory(config.socketPath.parent, mode: 0o700) }
        } catch {
            log.error("\(error)")
            return 1
        }
        let curator: Curator
        do {
            curator = try Curator(config: config)
        } catch {
            log.error("cannot open the index or the journal in \(config.stateDirectory): \(error)")
            return 1
        }
        do {
            try StartupRecovery.recoverJournal(curator)
        } catch {
            log.error("cannot recover the journal in \(config.stateDirectory): \(error)")
            return 1
        }
        guard let (listener, ownsPath, served) = openListener(config, activated: activated) else { return 1 }
        let reloader = ConfigReloader(curator: curator, arguments: arguments)
        curator.handReloadsTo(reloader)
        let server: Server
        do {
            server = try Server(listener: listener, curator: curator, ownsPath: ownsPath)
        } catch {
            log.error("cannot start the socket server: \(error)")
            return 1
        }
        let watcher = Watcher(curator: curator, tools: inotify)
        let captureReader = CaptureReader(curator: curator)
        let hasher = DuplicateHasher(curator: curator)
        let marksReader = MarksReader(curator: curator)
        let thumbnailers = makeThumbnailSchedulers(curator: curator, config: config)
        do {
            try server.start()
            try watcher.start()
            try captureReader.start()
            try hasher.start()
            try marksReader.start()
            for thumbnailer in thumbnailers { try thumbnailer.start() }
        } catch {
            log.error("cannot start the daemon's threads: \(error)")
            return 1
        }
        let how = activated == nil ? "listening on" : "serving the socket systemd passed,"
        log.notice("curatord \(ProtocolInfo.serverVersion) \(how) \(served) for \(config.roots.count) root(s): "
                   + config.roots.map { "\($0.name)=\($0.path)" }.joined(separator: ", "))
        // The journal is recovered and the socket accepts: clients may talk during the first scan.
        SystemdNotifier.ready(status: curator.statusLine())
        var loop = MainLoop(curator: curator, reloader: reloader, watchdog: Watchdog.fromEnvironment())
        if let period = loop.watchdog?.period { log.info("watchdog: pinging systemd every \(period / 1_000_000) ms") }
        let signal = loop.run()
        shutDown(server: server, watcher: watcher, captureReader: captureReader, hasher: hasher, marksReader: marksReader,
                 thumbnailers: thumbnailers, curator: curator, signal: signal)
        // The lock goes with the process (exit closes it), after everything else.
        _ = stateLock
        return 0
    }

    /// The background thumbnailers (the local roots' lane and the shares'), when the
    /// configuration asks for thumbnails and `curatord-thumbnailer` is installed
    /// beside the daemon. A lane's worker starts at its first photo.
    static func makeThumbnailSchedulers(curator: Curator, config: Configuration) -> [ThumbnailScheduler] {
        guard let cache = config.thumbnailCache else { return [] }
        guard let executable = ThumbnailerProcess.Options.besideCurrentExecutable(),
              (try? FileStatus.following(executable))?.isRegularFile == true else {
            log.warning("no thumbnails: curatord-thumbnailer is not installed beside curatord")
            curator.noteThumbnailsUnavailable("curatord-thumbnailer is not installed beside curatord")
            return []
        }
        log.info("thumbnails: made in \(cache) by \(executable)")
        return [ThumbnailLane.local, .shares].map { ThumbnailScheduler(curator: curator, cacheRoot: cache, executable: executable, lane: $0) }
    }

    /// The name of the lock file in the state directory.
    static let lockFileName = "curatord.lock"

    /// Takes the state directory's lock, or logs who holds it and returns nil.
    static func lockStateDirectory(_ directory: ByteString) -> LockFile? {
        let path = directory.appending(ByteString(lockFileName))
        do {
            switch try LockFile.acquire(path) {
            case .acquired(let lock):
                return lock
            case .held(let held):
                let who = held.pid.map { "curatord pid \($0)" } ?? "another curatord (its pid is not written yet)"
                log.error("the state directory \(directory) is in use by \(who), which holds \(held.path); "
                          + "stop it first, or give this one a state directory of its own (--state-dir)")
                return nil
            }
        } catch {
            log.error("cannot lock the state directory: \(error)")
            return nil
        }
    }

    /// The socket systemd passed, or one we make: (descriptor, the path to remove
    /// on exit if it is ours, the path served). Nil after logging why not.
    static func openListener(_ config: Configuration, activated: SocketActivation.Inherited?)
        -> (FileDescriptor, ByteString?, ByteString)?
    {
        if let activated { return (activated.descriptor, nil, activated.path ?? config.socketPath) }
        do {
            let fd = try UnixSocket.listen(at: config.socketPath, mode: mode_t(config.socketMode))
            return (fd, config.socketPath, config.socketPath)
        } catch {
            if error.errno.rawValue == EADDRINUSE {
                log.error("another curatord is already serving \(config.socketPath); stop it first")
            } else {
                log.error("cannot listen on \(config.socketPath): \(error)")
            }
            return nil
        }
    }

    /// SIGTERM: stop accepting, answer every new request `shutting_down`, let the
    /// step in progress finish (a batch stops between two steps, answers its client,
    /// and is left to recovery), let connections send what they owe and close them,
    /// close the index. Every wait is bounded, well inside the unit's TimeoutStopSec=.
    static func shutDown(server: Server, watcher: Watcher, captureReader: CaptureReader, hasher: DuplicateHasher,
                         marksReader: MarksReader, thumbnailers: [ThumbnailScheduler], curator: Curator, signal: Int32) {
        SystemdNotifier.stopping(status: "stopping")
        log.notice("stopping on \(signal == SIGINT ? "SIGINT" : "SIGTERM")")
        server.stop()
        curator.beginStopping()
        if !curator.waitForBatchToStop(seconds: batchStopSeconds) {
            log.warning("the running batch did not reach the end of a step within \(Int(batchStopSeconds)) s; its journal will settle it at the next start")
        }
        if !server.closeConnections(waitingUpTo: connectionsStopSeconds) {
            log.warning("some clients did not take what they were owed within \(Int(connectionsStopSeconds)) s; closing anyway")
        }
        if !watcher.stop(waitingUpTo: watcherStopSeconds) {
            log.warning("the watcher did not finish its step within \(Int(watcherStopSeconds)) s; closing the index anyway")
        }
        // The worker is stopped with it; a thumbnail in the making is made again next time.
        for thumbnailer in thumbnailers { thumbnailer.requestStop() }
        for thumbnailer in thumbnailers where !thumbnailer.stop(waitingUpTo: captureStopSeconds) {
            log.warning("the thumbnailer (\(thumbnailer.lane.rawValue) lane) did not finish its photo within \(Int(captureStopSeconds)) s")
        }
        if !captureReader.stop(waitingUpTo: captureStopSeconds) {
            log.warning("the capture-time reader did not finish its batch within \(Int(captureStopSeconds)) s; closing the index anyway")
        }
        if !hasher.stop(waitingUpTo: captureStopSeconds) {
            log.warning("the content hasher did not finish its batch within \(Int(captureStopSeconds)) s; closing the index anyway")
        }
        if !marksReader.stop(waitingUpTo: captureStopSeconds) {
            log.warning("the marks reader did not finish its batch within \(Int(captureStopSeconds)) s; closing the index anyway")
        }
        curator.shutdown()
        log.notice("stopped cleanly")
    }

    /// Makes `path` and its missing parents, each 0700 (as the XDG base directory
    /// spec asks of directories it makes), saying so: a typo in a configured path
    /// must not go unnoticed. An existing one (through a symlink too) is left as it is.
    static func makeDirectory(_ path: ByteString, mode: mode_t) throws {
        guard !path.isEmpty else { return }
        if try FileStatus.ifExists(path) != nil {
            guard (try? FileStatus.following(path))?.isDirectory == true else {
                throw SystemError("mkdir", path: path.lossyString, errno: .exists)
            }
            return
        }
        try makeDirectory(path.parent, mode: 0o700)
        let rc = path.withCString { SystemCalls.mkdirat(AT_FDCWD, $0, mode) }
        if rc != 0 && errno != EEXIST { throw SystemError("mkdir", path: path.lossyString, errno: .current) }
        if rc == 0 { log.notice("created \(path) (mode 0\(String(mode, radix: 8)))") }
    }
}
