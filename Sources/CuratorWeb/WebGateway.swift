// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import FoundationEssentials
import Glibc

/// The personal gateway's life: check the daemon answers, listen, print the address
/// with the secret, serve until SIGTERM or SIGINT.
public enum WebGateway {
    static let handledSignals: [Int32] = [SIGTERM, SIGINT, SIGHUP]

    /// Call first in `main`, before any thread: the server's threads inherit a mask in
    /// which the handled signals are blocked, so they come to `sigwait` here.
    public static func prepareProcess() {
        signal(SIGPIPE, SIG_IGN)
        var set = signalSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    public static func main(arguments: [String]) -> Int32 {
        let args: GatewayArguments
        do {
            switch try GatewayArguments.parse(Array(arguments.dropFirst())) {
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
        guard let socket = args.socket ?? defaultSocket() else {
            printError("curatord-web: no socket: give --socket PATH (XDG_RUNTIME_DIR and CURATORD_SOCKET are unset)")
            return 2
        }
        let pool = DaemonPool(socketPath: socket)
        do {
            let hello = try pool.call { id in Array(#"{"cmd":"hello","id":\#(id)}"#.utf8) + [0x0A] }
            guard APIForwarder.status(of: hello) == 200 else {
                printError("curatord-web: curatord at \(socket) refused: \(String(decoding: hello, as: UTF8.self))")
                return 1
            }
        } catch {
            printError("curatord-web: \(error.message)")
            return 1
        }
        let site: StaticSite?
        switch loadSite(args.web) {
        case .success(let loaded): site = loaded
        case .failure(let error):
            printError("curatord-web: no page at --web \(args.web ?? ""): \(error)")
            return 2
        }
        let secret: RandomToken
        do {
            secret = try RandomToken.generate()
        } catch {
            printError("curatord-web: no random bytes: \(error)")
            return 1
        }
        let port: UInt16
        let server: HTTPServer
        do {
            let listener: FileDescriptor
            (listener, port) = try LoopbackListener.listen(port: UInt16(args.port))
            let router = Router(policy: HostPolicy(port: port), gate: LoginGate(secret: secret),
                                forwarder: APIForwarder(pool: pool), streams: StreamSlots(capacity: 8), site: site)
            server = HTTPServer(router: router)
            try server.start(listener: listener, limits: HTTPServer.Limits())
        } catch {
            printError("curatord-web: cannot listen on 127.0.0.1: \(error)")
            return 1
        }
        // The address alone on standard output (scripts read its first line); the rest
        // for people on standard error.
        printLine("http://127.0.0.1:\(port)/login?token=\(secret.hex)", to: 1)
        printError("curatord-web: serving \(socket) on 127.0.0.1:\(port); open the address above in your browser "
                   + "(it works once). Stop with Ctrl-C.")
        var set = signalSet()
        var received: Int32 = 0
        repeat {
            sigwait(&set, &received)
        } while received == SIGHUP
        server.stop()
        return 0
    }

    /// The page from `--web`, which must load; else from the first default place that
    /// has one, or none (the gateway then serves the API alone, and says so).
    static func loadSite(_ given: String?) -> Result<StaticSite?, SystemError> {
        if let given {
            do { return .success(try StaticSite.load(directory: given)) } catch { return .failure(error) }
        }
        for candidate in defaultSiteDirectories() {
            if let site = try? StaticSite.load(directory: candidate) { return .success(site) }
        }
        printError("curatord-web: no page found (looked in \(defaultSiteDirectories().joined(separator: ", "))); "
                   + "serving the API alone: give --web DIR")
        return .success(nil)
    }

    static func defaultSiteDirectories() -> [String] {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = SystemCalls.readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return [] }
        let directory = ByteString(buffer[0..<count].map { UInt8(bitPattern: $0) }).parent.lossyString
        return [directory + "/web", directory + "/../share/curatord/web"]
    }

    private static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for s in handledSignals { sigaddset(&set, s) }
        return set
    }

    static func defaultSocket() -> String? {
        let env = ProcessInfo.processInfo.environment
        if let path = env["CURATORD_SOCKET"], !path.isEmpty { return path }
        if let runtime = env["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") { return runtime + "/curatord.sock" }
        return nil
    }

    static func printError(_ text: String) { printLine(text, to: 2) }

    /// write(2), not print: a line goes out whole and at once, even into a pipe.
    private static func printLine(_ text: String, to descriptor: Int32) {
        let bytes = Array((text + "\n").utf8)
        _ = bytes.withUnsafeBytes { buffer in SystemCalls.write(descriptor, buffer.baseAddress, buffer.count) }
    }
}
