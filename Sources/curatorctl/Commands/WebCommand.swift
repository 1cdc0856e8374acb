// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import CuratorProtocol
import Foundation
import Glibc

/// `curatorctl web`: the personal web gateway, for the user who runs it. curatorctl
/// becomes `curatord-web` (exec, so Ctrl-C and the exit status are the gateway's),
/// which prints the address with its one-time secret and serves until stopped.
/// `curatorctl web passwd` sets the user's password for the system gateway instead.
struct WebCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "web",
        abstract: "Serve your curatord to a browser on this computer; prints the address to open. "
            + "`web passwd` sets your password for the system's web gateway.")

    @Argument("ACTION", help: "passwd: set your web password (the system gateway's login) instead of serving.")
    var action: String?

    @Option("--port", value: "N", help: "Listen on 127.0.0.1 port N (default: a free port).")
    var port: Int?

    @Flag("--stdin", help: "With passwd: read the password from the first line of standard input (for scripts).")
    var stdin: Bool

    func run(_ context: CLIContext) throws(CLIError) {
        switch action {
        case nil:
            if stdin { throw CLIError.usage("--stdin goes with `web passwd`") }
            try serve(context)
        case "passwd"?:
            if port != nil { throw CLIError.usage("--port goes with `web` alone, not `web passwd`") }
            try setPassword(context)
        case let other?:
            throw CLIError.usage("unknown web action \"\(other)\": `curatorctl web` serves, `curatorctl web passwd` sets your web password")
        }
    }

    private func setPassword(_ context: CLIContext) throws(CLIError) {
        let password: String
        if stdin {
            guard let line = readLine(strippingNewline: true) else { throw CLIError.failed("no password on standard input") }
            password = line
        } else {
            let first = try PasswordPrompt.read("New web password: ")
            let second = try PasswordPrompt.read("Again: ")
            guard first == second else { throw CLIError.failed("the two passwords differ; nothing was changed") }
            password = first
        }
        guard !password.isEmpty else { throw CLIError.failed("an empty password is no password; nothing was changed") }
        guard let result = try context.call(WebPasswdRequest(password: password)) else { return }
        Format.write("Web password set for \(result.user) (uid \(result.uid)); your earlier web sessions are ended.")
    }

    private func serve(_ context: CLIContext) throws(CLIError) {
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
