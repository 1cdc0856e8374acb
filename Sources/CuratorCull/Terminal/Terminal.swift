// SPDX-License-Identifier: GPL-2.0-or-later
import CTerminalGuard
import CuratorSystem
import Glibc

/// The terminal the grid runs on: raw mode on the alternate screen, the cursor
/// hidden, and all of it undone on the way out, whatever the way (`CTerminalGuard`
/// restores from a signal handler too). Keys are read from standard input, frames
/// written to standard output.
final class Terminal {
    struct Size: Equatable {
        var columns: Int
        var rows: Int
        /// The window in pixels, when the terminal tells (xterm, kitty, WezTerm); 0 otherwise.
        var pixelWidth: Int
        var pixelHeight: Int
    }

    let input: Int32 = 0
    let output: Int32 = 1
    /// Woken (readable) on SIGWINCH and SIGCONT.
    let wakeRead: Int32
    private let wakeWrite: Int32
    private(set) var active = false

    /// Alternate screen, cursor hidden, keypad in normal mode, line wrap off.
    static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[?1l\u{1B}>\u{1B}[H\u{1B}[2J"
    /// Scroll region, style, wrap and cursor back, then the main screen as it was.
    static let leaveSequence = "\u{1B}[r\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"

    init() throws(CullError) {
        guard isatty(input) == 1, isatty(output) == 1 else {
            throw CullError.notATerminal
        }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw CullError.system("pipe", errno) }
        for fd in fds {
            _ = SystemCalls.fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = SystemCalls.fcntl(fd, F_SETFL, SystemCalls.fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    deinit {
        leave()
        _ = SystemCalls.close(wakeRead)
        _ = SystemCalls.close(wakeWrite)
    }

    func enter() throws(CullError) {
        guard terminal_guard_enter(output, wakeWrite, Self.enterSequence, Self.leaveSequence) == 0 else {
            throw CullError.system("tcsetattr", errno)
        }
        active = true
    }

    /// kitty keeps its images apart from the text: they are deleted before the
    /// main screen comes back, by every way out (the signal handlers too).
    func deleteKittyImagesOnLeave() {
        terminal_guard_set_leave(Self.kittyDeleteAll + Self.leaveSequence)
    }

    /// kitty's "delete every placement on screen", without an answer (q=2).
    static let kittyDeleteAll = "\u{1B}_Ga=d,q=2\u{1B}\\"

    func leave() {
        guard active else { return }
        terminal_guard_leave()
        active = false
    }

    func size() -> Size {
        var columns: Int32 = 0, rows: Int32 = 0, pw: Int32 = 0, ph: Int32 = 0
        if terminal_guard_size(output, &columns, &rows, &pw, &ph) != 0 || columns <= 0 || rows <= 0 {
            return Size(columns: 80, rows: 24, pixelWidth: 0, pixelHeight: 0)
        }
        return Size(columns: Int(columns), rows: Int(rows), pixelWidth: Int(pw), pixelHeight: Int(ph))
    }

    func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return SystemCalls.write(output, base + offset, buffer.count - offset)
            }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return
            }
            offset += n
        }
    }

    /// Bytes waiting on standard input (after poll said so); empty at end of input.
    func readInput() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { SystemCalls.read(input, $0.baseAddress, $0.count) }
        if n < 0 { return errno == EINTR || errno == EAGAIN ? [] : nil }
        if n == 0 { return nil }
        return Array(buffer[0..<n])
    }

    /// Empties the wake pipe; true when something had woken it.
    func drainWake() -> Bool {
        var byte: UInt8 = 0
        var woke = false
        while SystemCalls.read(wakeRead, &byte, 1) == 1 { woke = true }
        return woke
    }
}
