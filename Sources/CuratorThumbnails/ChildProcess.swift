// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Glibc

/// A child process started with posix_spawn, its stdin and stdout on given
/// descriptors, stderr shared with ours (the daemon's log). Signals it starts with:
/// none blocked, the usual ones at their defaults (the daemon blocks TERM, INT and
/// HUP for sigwait, and a child would inherit that across exec).
struct ChildProcess {
    let pid: pid_t

    /// Starts `executable` with our environment, `environment` added (or replacing).
    static func spawn(executable: ByteString, arguments: [String], environment: [String: String] = [:],
                      stdin: FileDescriptor, stdout: FileDescriptor) throws(SystemError) -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on the copies; the originals stay close-on-exec.
        posix_spawn_file_actions_adddup2(&actions, stdin.rawValue, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout.rawValue, 1)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGCHLD, SIGUSR1, SIGUSR2] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var argv = CStrings([executable.bytes] + arguments.map { Array($0.utf8) })
        defer { argv.free() }
        var variables: [[UInt8]] = []
        var index = 0
        while let entry = environ[index] {
            let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(entry).assumingMemoryBound(to: UInt8.self), count: strlen(entry)))
            let name = bytes.prefix(while: { $0 != UInt8(ascii: "=") })
            if environment[String(decoding: name, as: UTF8.self)] == nil { variables.append(bytes) }
            index += 1
        }
        variables += environment.sorted { $0.key < $1.key }.map { Array("\($0.key)=\($0.value)".utf8) }
        var envp = CStrings(variables)
        defer { envp.free() }

        var pid: pid_t = 0
        let rc = executable.withCString { path in posix_spawn(&pid, path, &actions, &attributes, argv.pointers, envp.pointers) }
        guard rc == 0 else { throw SystemError("posix_spawn", path: executable.lossyString, errno: Errno(rc)) }
        return ChildProcess(pid: pid)
    }

    /// How a child ended.
    enum Ending: Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        init(waitStatus status: Int32) {
            // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift cannot import (macros).
            self = status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F)
        }

        var description: String {
            switch self {
            case .exited(let code): "exited with status \(code)"
            case .signalled(let signal): "was killed by \(Self.signalName(signal))"
            }
        }

        static func signalName(_ signal: Int32) -> String {
            switch signal {
            case SIGSEGV: "SIGSEGV"
            case SIGBUS: "SIGBUS"
            case SIGABRT: "SIGABRT"
            case SIGILL: "SIGILL"
            case SIGTRAP: "SIGTRAP"
            case SIGFPE: "SIGFPE"
            case SIGKILL: "SIGKILL"
            case SIGTERM: "SIGTERM"
            case SIGXCPU: "SIGXCPU"
            case SIGXFSZ: "SIGXFSZ"
            default: "signal \(signal)"
            }
        }
    }

    /// Waits for the child to end (it has been told to, or killed).
    func wait() -> Ending {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            if errno != EINTR { return .exited(-1) }
        }
        return Ending(waitStatus: status)
    }

    /// The ending if the child has ended, nil while it runs.
    func poll() -> Ending? {
        var status: Int32 = 0
        let rc = waitpid(pid, &status, WNOHANG)
        if rc == pid { return Ending(waitStatus: status) }
        return rc == -1 && errno == ECHILD ? .exited(-1) : nil
    }

    func kill(_ signal: Int32 = SIGKILL) { _ = Glibc.kill(pid, signal) }
}

/// A NULL-terminated array of C strings, for argv and envp.
private struct CStrings {
    var pointers: [UnsafeMutablePointer<CChar>?]

    init(_ strings: [[UInt8]]) {
        pointers = strings.map { bytes in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (i, byte) in bytes.enumerated() { copy[i] = CChar(bitPattern: byte) }
            copy[bytes.count] = 0
            return copy
        }
        pointers.append(nil)
    }

    mutating func free() {
        for pointer in pointers { pointer?.deallocate() }
        pointers = []
    }
}
