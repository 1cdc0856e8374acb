// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import Foundation

/// A connection to curatord: sends request lines, reads response and event lines.
final class Client {
    let socketPath: String
    private let descriptor: FileDescriptor
    private var buffer: [UInt8] = []
    private var nextID: Int64 = 1
    private let decoder = Wire.makeDecoder()

    init(socketPath: String) throws(CLIError) {
        self.socketPath = socketPath
        do {
            descriptor = try UnixSocket.connect(to: ByteString(socketPath))
        } catch {
            if error.errno == .accessDenied || error.errno == .notPermitted {
                throw CLIError.socketForbidden(explanation: SocketAccess(path: socketPath).explanation())
            }
            throw CLIError.daemonUnreachable(path: socketPath, reason: error)
        }
    }

    deinit { try? descriptor.close() }  // a socket: nothing to lose

    /// Sends a command and returns its result, or throws the daemon's error.
    func call<R: ProtocolRequest>(_ command: R) throws(CLIError) -> R.Result {
        let raw = try callRaw(command)
        do {
            let response = try decoder.decode(Response<R.Result>.self, from: raw)
            if response.ok, let result = response.result { return result }
            throw CLIError.daemon(response.error ?? ProtocolError(.internalError, "the daemon gave no result"))
        } catch let error as CLIError {
            throw error
        } catch {
            throw mismatch(explaining: error)
        }
    }

    /// An answer this curatorctl cannot decode comes most often from a curatord of
    /// another protocol version: ask it (`hello` has kept its shape since protocol 1)
    /// so that the message names the curatorctl to use, not a JSON key.
    private func mismatch(explaining error: any Error) -> CLIError {
        if let raw = try? callRaw(HelloRequest()),
           let hello = try? decoder.decode(Response<HelloResult>.self, from: raw).result,
           hello.protocolVersion != ProtocolInfo.version {
            return .otherProtocol(hello)
        }
        return .protocolMismatch("\(error)")
    }

    /// Sends a command and returns the raw response line (for --json).
    func callRaw(_ command: some ProtocolRequest) throws(CLIError) -> Data {
        let id = RequestID.number(nextID)
        nextID += 1
        do {
            try send(Wire.request(id: id, command: command))
        } catch {
            // Refused (too many connections, shutting down): the daemon said why and
            // closed before our request got there. Its reason is the answer to show.
            guard let line = try? readLine(), line.first == UInt8(ascii: "{") else { throw error }
            return line
        }
        while true {
            let line = try readLine()
            // Events may come before our response when subscribed: skip them here.
            if line.first == UInt8(ascii: "{"), let probe = try? decoder.decode(IDProbe.self, from: line), probe.event == nil {
                return line
            }
        }
    }

    private struct IDProbe: Decodable {
        var id: RequestID?
        var event: String?
    }

    func send(_ data: Data) throws(CLIError) {
        do {
            try UnixSocket.sendAll(descriptor, Array(data))
        } catch {
            throw CLIError.connectionLost("\(error)")
        }
    }

    /// The next line from the daemon (without its newline).
    func readLine() throws(CLIError) -> Data {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Data(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            let n: Int?
            do {
                n = try chunk.withUnsafeMutableBytes { buf in try UnixSocket.receive(descriptor, into: buf) }
            } catch {
                throw CLIError.connectionLost("\(error)")
            }
            guard let n, n > 0 else { throw CLIError.connectionLost("curatord closed the connection") }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }
}
