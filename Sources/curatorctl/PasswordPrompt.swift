// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// A password read from the terminal with its echo off (and put back, also when the
/// read fails). Only from a terminal: a script gives `--stdin`.
enum PasswordPrompt {
    static func read(_ prompt: String) throws(CLIError) -> String {
        let tty = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard tty >= 0 else {
            throw CLIError.failed("no terminal to read the password from; give it on standard input with --stdin")
        }
        defer { close(tty) }  // a terminal: nothing written to lose
        var saved = termios()
        guard tcgetattr(tty, &saved) == 0 else { throw CLIError.failed("cannot read the terminal's settings: \(String(cString: strerror(errno)))") }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        quiet.c_lflag |= tcflag_t(ECHONL)
        _ = prompt.withCString { write(tty, $0, strlen($0)) }
        guard tcsetattr(tty, TCSAFLUSH, &quiet) == 0 else { throw CLIError.failed("cannot turn the terminal's echo off") }
        defer { tcsetattr(tty, TCSAFLUSH, &saved) }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let n = Glibc.read(tty, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 || byte == UInt8(ascii: "\n") { break }
            line.append(byte)
            if line.count > 4096 { throw CLIError.failed("that password is too long") }
        }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return String(decoding: line, as: UTF8.self)
    }
}
