// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import Foundation
import Glibc

/// `curatorctl web`: the personal web gateway, for the user who runs it. curatorctl
/// becomes `curatord-web` (exec, so Ctrl-C and the exit status are the gateway's),
/// which prints the address with its one-time secret and serves until stopped.
struct WebCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "web",
        abstract: "Serve your curatord to a browser on this computer; prints the address to open.")

    @Option("--port", value: "N", help: "Listen on 127.0.0.1 port N (default: a free port).")
    var port: Int?

    func run(_ context: CLIContext) throws(CLIError) {
        guard let gateway = Self.gateway() else {
            throw CLIError.failed("curatord-web is not installed beside curatorctl (it serves the browser)")
        }
        var arguments = [gateway, "--socket", context.options.socket]
        if let port { arguments += ["--port", String(port)] }
        let argv = arguments.map { strdup($0) } + [nil]
        execv(gateway, argv)
        throw CLIError.failed("cannot run \(gateway): \(String(cString: strerror(errno)))")
    }

    /// `curatord-web` beside this curatorctl (as `make install` and `swift build` put
    /// them), else on PATH.
    static func gateway() -> String? {
        let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let beside = URL(fileURLWithPath: own).deletingLastPathComponent().appendingPathComponent("curatord-web").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(directory)/curatord-web"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
