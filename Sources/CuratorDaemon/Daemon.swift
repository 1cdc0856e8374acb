// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCore
import CuratorProtocol
import CuratorSystem
import Foundation
import Glibc

/// Wires the pieces together: configuration, the index, the watcher, the socket
/// server, and signals. Owns no state of its own beyond the process's lifetime.
public enum Daemon {
    /// The signals handled by the main thread with sigwait; blocked everywhere else.
    static let handledSignals: [Int32] = [SIGTERM, SIGINT, SIGHUP]

    /// Call first thing in `main`, before any thread exists.
    public static func prepareProcess() {
        signal(SIGPIPE, SIG_IGN)
        var set = sigset_t()
        sigemptyset(&set)
        for s in handledSignals { sigaddset(&set, s) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    public static func main(arguments: [String], inotify: InotifyToolsHandle?, inotifyError: SystemError?) -> Int32 {
        let args: DaemonArguments
        do {
            args = try DaemonArguments.parse(Array(arguments.dropFirst()))
        } catch {
            printError("curatord: \(error)")
            return 2
        }
        if args.showHelp {
            print(DaemonArguments.help)
            return 0
        }
        if args.showVersion {
            print("curatord \(ProtocolInfo.serverVersion) (protocol \(ProtocolInfo.version))")
            return 0
        }
        let config: Configuration
        do {
            config = try loadConfiguration(args)
        } catch {
            printError("curatord: \(error)")
            return 1
        }
        log.level = config.logLevel
        if args.checkConfig {
            print(EffectiveSettings.describe(config))
            return 0
        }
        if let inotifyError { log.warning("inotify is unavailable (\(inotifyError)); every root will be polled") }
        return run(config, arguments: args, inotify: inotify)
    }

    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static func loadConfiguration(_ args: DaemonArguments) throws -> Configuration {
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
            if let socket = args.socket { config.socketPath = ByteString(socket) }
            if let state = args.stateDirectory { config.stateDirectory = ByteString(state) }
        }
        if let word = args.logLevel {
            guard let level = LogLevel(word: word) else {
                throw ConfigError(file: nil, key: "--log-level", "must be one of error, warning, notice, info, debug")
            }
            config.logLevel = level
        }
        for warning in loader.warnings { log.warning(warning) }
        return config
    }

    static func run(_ config: Configuration, arguments: DaemonArguments, inotify: InotifyToolsHandle?) -> Int32 {
        do {
            try makeDirectory(config.stateDirectory, mode: 0o700)
            try makeDirectory(config.socketPath.parent, mode: 0o700)
        } catch {
            log.error("\(error)")
            return 1
        }
        let curator: Curator
        do {
            curator = try Curator(config: config)
        } catch {
            log.error("cannot open the index in \(config.stateDirectory): \(error)")
            return 1
        }
        // The journal is settled before anyone is served: a crash mid-batch is
        // finished or reported first.
        do {
            let report = try curator.recoverJournal()
            for batch in report.batches {
                log.notice("recovered batch \(batch.batch): \(batch.state.rawValue), \(batch.trashed) in the trash, \(batch.skipped) not")
            }
            for repair in report.repairs { log.notice("journal recovery: \(repair)") }
        } catch {
            log.error("cannot recover the journal in \(config.stateDirectory): \(error)")
            return 1
        }
        let listener: FileDescriptor
        let ownsPath: ByteString?
        do {
            (listener, ownsPath) = try openListener(config)
        } catch {
            if error.errno.rawValue == EADDRINUSE {
                log.error("another curatord is already serving \(config.socketPath); stop it first")
            } else {
                log.error("cannot listen on \(config.socketPath): \(error)")
            }
            return 1
        }
        let server = Server(listener: listener, curator: curator, maxClients: config.maxClients, ownsPath: ownsPath)
        let watcher = Watcher(curator: curator, tools: inotify)
        server.start()
        watcher.start()
        CaptureReader(curator: curator).start()
        log.notice("curatord \(ProtocolInfo.serverVersion) serving \(config.socketPath) for \(config.roots.count) root(s): "
                   + config.roots.map { "\($0.name)=\($0.path)" }.joined(separator: ", "))
        SystemdNotifier.ready(status: "scanning \(config.roots.count) root(s); \(curator.photoCount) photos indexed")
        waitForSignals(curator: curator, arguments: arguments)
        SystemdNotifier.stopping()
        log.notice("stopping")
        server.stop()
        watcher.stop()
        curator.shutdown()
        return 0
    }

    static func openListener(_ config: Configuration) throws(SystemError) -> (FileDescriptor, ByteString?) {
        if let inherited = SocketActivation.listener() { return (inherited, nil) }
        let fd = try UnixSocket.listen(at: config.socketPath, mode: mode_t(config.socketMode))
        return (fd, config.socketPath)
    }

    static func makeDirectory(_ path: ByteString, mode: mode_t) throws {
        guard !path.isEmpty else { return }
        if let status = try FileStatus.ifExists(path) {
            guard status.isDirectory else { throw SystemError("mkdir", path: path.lossyString, errno: .exists) }
            return
        }
        try makeDirectory(path.parent, mode: 0o755)
        let rc = path.withCString { mkdir($0, mode) }
        if rc != 0 && errno != EEXIST { throw SystemError("mkdir", path: path.lossyString, errno: .current) }
    }

    /// SIGHUP: read the configuration again; a broken one leaves the old in force.
    static func reload(curator: Curator, arguments: DaemonArguments) {
        SystemdNotifier.reloading()
        defer { SystemdNotifier.send("READY=1") }
        do {
            let config = try loadConfiguration(arguments)
            let old = curator.configuration
            if config.socketPath != old.socketPath || config.stateDirectory != old.stateDirectory {
                log.warning("reload: socket and state_dir changes take effect at the next restart")
            }
            try curator.reconfigure(config)
            log.level = config.logLevel
            log.notice("reloaded the configuration: \(config.roots.count) root(s)")
        } catch {
            log.error("reload refused, the previous configuration stays in force: \(error)")
        }
    }

    /// The main thread's loop: signals, and periodic status for systemd.
    static func waitForSignals(curator: Curator, arguments: DaemonArguments) {
        var set = sigset_t()
        sigemptyset(&set)
        for s in handledSignals { sigaddset(&set, s) }
        var lastStatus = ""
        while true {
            var timeout = timespec(tv_sec: 1, tv_nsec: 0)
            let signal = sigtimedwait(&set, nil, &timeout)
            if signal == SIGTERM || signal == SIGINT { return }
            if signal == SIGHUP {
                reload(curator: curator, arguments: arguments)
            }
            let status = curator.statusLine()
            if status != lastStatus {
                SystemdNotifier.status(status)
                lastStatus = status
            }
        }
    }
}
