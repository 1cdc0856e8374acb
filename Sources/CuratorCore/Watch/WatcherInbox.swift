// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import CuratorSystem
import FoundationEssentials
import Glibc
import Synchronization

/// What other threads ask of the watcher thread.
enum WatcherCommand: Sendable {
    /// Rescan these roots from scratch (nil: all).
    case rescan([Int32]?)
    /// The configuration changed: start, stop or restart roots.
    case reconfigure
    /// Signal it from the watcher's loop, then from the inotify source's: proof for
    /// the systemd watchdog that both threads are still turning (see
    /// `Curator.startLivenessProbe`).
    case ping(OneShotSignal)
    /// Look at these files again (moves out a batch expected but did not make).
    case recheck([WatchTable.Entry])
    case stop
}

/// The watcher thread's mailbox: commands, plus the cookies that `sync` waits on.
/// Posting wakes the thread through an eventfd it polls beside inotify's descriptor.
final class WatcherInbox: Sendable {
    let wakeDescriptor: Int32
    private let commands = Mutex<[WatcherCommand]>([])
    private let cookies = Mutex<[ByteString: OneShotSignal]>([:])

    init() throws(SystemError) {
        wakeDescriptor = try syscall("eventfd") { SystemCalls.eventfd() }
    }

    func post(_ command: WatcherCommand) {
        commands.withLock { $0.append(command) }
        wake()
    }

    func wake() {
        var one: UInt64 = 1
        _ = SystemCalls.write(wakeDescriptor, &one, 8)
    }

    func drainWake() {
        var value: UInt64 = 0
        _ = SystemCalls.read(wakeDescriptor, &value, 8)
    }

    /// Whether a command waits (a scan step past its slice asks, to go on or not).
    var hasCommands: Bool { commands.withLock { !$0.isEmpty } }

    func takeCommands() -> [WatcherCommand] {
        commands.withLock { list in
            let taken = list
            list.removeAll()
            return taken
        }
    }

    // MARK: cookies

    static let cookiePrefix: [UInt8] = Array(".curatord-cookie-".utf8)

    static func isCookie(_ name: ByteString) -> Bool { name.bytes.starts(with: cookiePrefix) }
    static func isCookie(_ name: UnsafeBufferPointer<UInt8>) -> Bool { name.starts(with: cookiePrefix) }

    /// A cookie name no one can guess ahead (64 random bits): anyone who may write a
    /// root could otherwise make the names first and fail every `sync`. The pid
    /// tells this process's cookies from those a killed one left.
    func makeCookieName() -> ByteString {
        ByteString(".curatord-cookie-\(getpid())-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))")
    }

    func register(cookie: ByteString) -> OneShotSignal {
        let waiter = OneShotSignal()
        cookies.withLock { $0[cookie] = waiter }
        return waiter
    }

    func unregister(cookie: ByteString) {
        _ = cookies.withLock { $0.removeValue(forKey: cookie) }
    }

    /// Called by the watcher thread when a cookie's event comes through.
    func cookieSeen(_ name: ByteString) {
        let waiter = cookies.withLock { $0.removeValue(forKey: name) }
        waiter?.signal()
    }

    /// Wakes every waiter (poll-only roots, shutdown).
    func releaseAllCookies() {
        let all = cookies.withLock { map in
            let values = Array(map.values)
            map.removeAll()
            return values
        }
        for waiter in all { waiter.signal() }
    }
}
