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
        // Open photo files are kept a few seconds (OpenFileCache), each a descriptor:
        // the soft limit goes up to the hard one. The server polls with poll(2), which
        // has no FD_SETSIZE ceiling.
        var files = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &files) == 0, files.rlim_cur < files.rlim_max {
            files.rlim_cur = max(files.rlim_cur, min(files.rlim_max, 65_536))
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &files)
        }
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
        guard let (address, tls) = transport(args) else { return 2 }
        let site: StaticSite?
        switch loadSite(args.web) {
        case .success(let loaded): site = loaded
        case .failure(let error):
            printError("curatord-web: no page at --web \(args.web ?? ""): \(error)")
            return 2
        }
        if args.system { return serveSystem(args, address: address, tls: tls, site: site) }
        guard let socket = args.socket ?? defaultSocket() else {
            printError("curatord-web: no socket: give --socket PATH (XDG_RUNTIME_DIR and CURATORD_SOCKET are unset)")
            return 2
        }
        let pool = DaemonPool(socketPath: socket)
        do {
            let hello = try pool.call { id in DaemonPool.line(HelloRequest(), id: id) }
            guard APIForwarder.status(of: hello) == 200 else {
                printError("curatord-web: curatord at \(socket) refused: \(String(decoding: hello, as: UTF8.self))")
                return 1
            }
        } catch {
            printError("curatord-web: \(error.message)")
            return 1
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
            (listener, port) = try LoopbackListener.listen(port: UInt16(args.port ?? 0), address: address)
            var router = Router(policy: policy(args, address: address, port: port), access: .personal(LoginGate(secret: secret)),
                                forwarder: APIForwarder(pool: pool), streams: StreamSlots(capacity: args.maxStreams ?? 8), site: site)
            router.proxies = TrustedProxies(args.trustedProxies)
            router.files = OpenFileCache(lifetime: Double(args.keepFiles))
            let limits = HTTPServer.Limits(connections: UInt32(args.maxConnections ?? 64), timeoutSeconds: UInt32(args.timeout))
            server = HTTPServer(router: router, connections: limits.connections)
            try server.start(listener: listener, limits: limits, tls: tls)
        } catch {
            printError("curatord-web: cannot serve \(tls == nil ? "HTTP" : "HTTPS") on \(args.listen): \(error)")
            return 1
        }
        // The address alone on standard output (scripts read its first line); the rest
        // for people on standard error.
        let host = args.serverNames.first ?? (address.s_addr == 0 ? "127.0.0.1:\(port)" : "\(args.listen):\(port)")
        let scheme = tls == nil ? "http" : "https"
        printLine("\(scheme)://\(host)/login?token=\(secret.hex)", to: 1)
        printError("curatord-web: serving \(socket) on \(scheme)://\(args.listen):\(port); open the address above in your browser "
                   + "(it works once). Stop with Ctrl-C.")
        waitForStop()
        server.stop()
        return 0
    }

    /// The address to listen on and the certificate to serve, or nil after saying why.
    /// Plain HTTP leaves this computer only through a proxy that adds TLS: on any other
    /// address the session cookie and every photo would cross the network in clear.
    private static func transport(_ args: GatewayArguments) -> (in_addr, HTTPServer.TLS?)? {
        guard let address = LoopbackListener.parse(args.listen) else { return nil }  // validated
        switch (args.tlsCertificate, args.tlsKey) {
        case (let certificate?, let key?):
            do {
                return (address, HTTPServer.TLS(certificate: try readText(certificate), key: try readText(key)))
            } catch {
                printError("curatord-web: \(error)")
                return nil
            }
        default:
            guard LoopbackListener.isLoopback(address) else {
                printError("""
                    curatord-web: refusing to serve \(args.listen) over plain HTTP: give --tls-cert FILE and --tls-key FILE \
                    (a certificate and its key, PEM) to serve HTTPS there, or listen on 127.0.0.1 behind a reverse proxy \
                    that adds TLS (and name it with --trusted-proxy)
                    """)
                return nil
            }
            return (address, nil)
        }
    }

    /// The names this gateway answers to (`Host`).
    private static func policy(_ args: GatewayArguments, address: in_addr, port: UInt16) -> HostPolicy {
        let loopback = LoopbackListener.isLoopback(address) || address.s_addr == 0
        let names = args.serverNames + (loopback ? [] : ["\(args.listen):\(port)"])
        return HostPolicy(port: port, loopback: loopback, names: names)
    }

    private static func waitForStop() {
        var set = signalSet()
        var received: Int32 = 0
        repeat {
            sigwait(&set, &received)
        } while received == SIGHUP
    }

    /// The system service: no secret; sign-in by web password, checked by the daemon.
    /// The listening socket is systemd's when socket-activated, else the address and port.
    private static func serveSystem(_ args: GatewayArguments, address: in_addr, tls: HTTPServer.TLS?, site: StaticSite?) -> Int32 {
        let socket = args.socket ?? GatewayArguments.systemSocket
        let sessions = SystemSessions(socketPath: socket)
        let port: UInt16
        let server: HTTPServer
        do {
            let listener: FileDescriptor
            if let inherited = try SystemListener.inherited() {
                // The rule of `transport` for an address given on the command line,
                // for the one systemd bound (`ListenStream=` of curatord-web.socket).
                guard inherited.loopback || tls != nil else {
                    try? inherited.descriptor.close()  // never served: nothing to lose
                    printError("""
                        curatord-web: refusing to serve the socket systemd passed (port \(inherited.port), not loopback) over \
                        plain HTTP: give --tls-cert FILE and --tls-key FILE (a certificate and its key, PEM) to serve HTTPS \
                        there, or make ListenStream= of curatord-web.socket 127.0.0.1:PORT behind a reverse proxy that adds \
                        TLS (and name it with --trusted-proxy)
                        """)
                    return 2
                }
                (listener, port) = (inherited.descriptor, inherited.port)
            } else {
                (listener, port) = try LoopbackListener.listen(port: UInt16(args.port ?? GatewayArguments.systemPort), address: address)
            }
            var router = Router(policy: policy(args, address: address, port: port), access: .system(sessions),
                                forwarder: APIForwarder(pool: sessions.own), streams: StreamSlots(capacity: args.maxStreams ?? 64), site: site)
            router.proxies = TrustedProxies(args.trustedProxies)
            router.files = OpenFileCache(lifetime: Double(args.keepFiles))
            let limits = HTTPServer.Limits(connections: UInt32(args.maxConnections ?? 256), timeoutSeconds: UInt32(args.timeout))
            server = HTTPServer(router: router, connections: limits.connections)
            try server.start(listener: listener, limits: limits, tls: tls)
        } catch {
            printError("curatord-web: cannot listen: \(error)")
            return 1
        }
        printError("curatord-web: serving \(socket) to web sessions on port \(port) (sign in: POST /api/v1/login)")
        waitForStop()
        server.stop()
        return 0
    }

    /// A PEM file, whole (a certificate chain or a key is a few kilobytes).
    private static func readText(_ path: String) throws(SystemError) -> String {
        let bytes = try FileDescriptor.open(ByteString(path), O_RDONLY | O_NOCTTY).closeAfter { (fd) throws(SystemError) in
            try fd.readAll(limit: 1 << 20, path: path)
        }
        return String(decoding: bytes, as: UTF8.self)
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
