// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import CuratorProtocol

/// One subcommand of curatorctl: its declared arguments (`@Option`, `@Flag`,
/// `@Argument`, `@OptionGroup`), its configuration (name and one-line abstract),
/// and what it does. Listed in `CuratorCtl.configuration.subcommands`, or in a
/// group's (`trash list`), it is parsed, helped and run from there.
protocol CLICommand: ParsableCommand {
    func run(_ context: CLIContext) throws(CLIError)
}

/// What a running command has: the options, and a connection made on first use.
final class CLIContext {
    let options: GlobalOptions
    private var client: Client?

    init(options: GlobalOptions) { self.options = options }

    func connection() throws(CLIError) -> Client {
        if let client { return client }
        let made = try Client(socketPath: options.socket)
        client = made
        return made
    }

    /// Commands that read events check first that the daemon writes them as this
    /// curatorctl reads them (the shapes changed with protocol 2). Other commands learn
    /// it only when an answer cannot be decoded (`Client.call`), which costs no round trip.
    func requireSameProtocol() throws(CLIError) {
        let hello = try connection().call(HelloRequest())
        guard hello.protocolVersion == ProtocolInfo.version else { throw CLIError.otherProtocol(hello) }
    }

    /// Sends a command: with --json prints the raw response and returns nil;
    /// otherwise returns the decoded result for the command to print.
    func call<R: ProtocolRequest>(_ command: R) throws(CLIError) -> R.Result? {
        if options.json {
            let raw = try connection().callRaw(command)
            Format.writeRaw(raw)
            if let failure = try? Wire.makeDecoder().decode(Response<R.Result>.self, from: raw), !failure.ok, let error = failure.error {
                throw CLIError.daemon(error)
            }
            return nil
        }
        return try connection().call(command)
    }

    /// Like `call`, but the result is decoded in `--json` mode too (after the raw
    /// answer is written), for a command whose exit status depends on it. The Bool
    /// says whether the text for people is still to be written.
    func callDecoding<R: ProtocolRequest>(_ command: R) throws(CLIError) -> (R.Result, writeText: Bool)? {
        guard options.json else { return (try connection().call(command), true) }
        let raw = try connection().callRaw(command)
        Format.writeRaw(raw)
        guard let decoded = try? Wire.makeDecoder().decode(Response<R.Result>.self, from: raw) else { return nil }
        if let result = decoded.result { return (result, false) }
        throw CLIError.daemon(decoded.error ?? ProtocolError(.internalError, "no result"))
    }
}
