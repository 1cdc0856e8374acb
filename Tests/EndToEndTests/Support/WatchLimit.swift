// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Running a daemon out of inotify watches without starving anybody else.
enum WatchLimit {
    static let globalPath = "/proc/sys/fs/inotify/max_user_watches"

    /// True when this process may make a user namespace and set its own watch
    /// limit there (/proc/sys/user/max_inotify_watches is per user namespace).
    static let userNamespacesWork: Bool = {
        guard let unshare = tool("unshare") else { return false }
        let probe = try? run(unshare, ["--user", "--map-root-user", "/bin/sh", "-c", "echo 5 > /proc/sys/user/max_inotify_watches"])
        return probe?.status == 0
    }()

    /// A wrapper that starts the daemon in a new user namespace allowed `limit` watches.
    static func inUserNamespace(limit: Int) -> [String] {
        [tool("unshare") ?? "/usr/bin/unshare", "--user", "--map-root-user", "/bin/sh", "-c",
         "echo \(limit) > /proc/sys/user/max_inotify_watches && exec \"$0\" \"$@\""]
    }

    /// Runs `body` with the per-user limit set to what this user holds now plus
    /// `headroom`, and restores it whatever happens. What the user holds is
    /// measured, not estimated: under a trial limit, a probe counts the watches it
    /// can still add. Kept as short as the body.
    static func withGlobalLimit(headroom: Int, _ body: () throws -> Void) throws {
        guard let original = Files.read(globalPath)?.trimmingCharacters(in: .whitespacesAndNewlines), let originalLimit = Int(original),
              access(globalPath, W_OK) == 0
        else {
            try Test.cancel("\(globalPath) is not writable here, and user namespaces are not available")
        }
        defer { try? original.write(toFile: globalPath, atomically: false, encoding: .utf8) }
        let probeDirectory = TestDirectory("watch-probe")
        let probes = 500
        for i in 0..<probes { Files.write(probeDirectory.sub("\(i)"), "") }
        // Under a trial limit L the probe can add min(probes, L - held) watches:
        // search L until that is strictly between 0 and `probes`.
        var low = 0
        var high = originalLimit
        var held: Int?
        while held == nil && low < high {
            let trial = (low + high) / 2
            try String(max(trial, 1)).write(toFile: globalPath, atomically: false, encoding: .utf8)
            let added = countWatchesAddable(in: probeDirectory, upTo: probes)
            if added == 0 {
                low = trial + 1
            } else if added == probes {
                high = trial
            } else {
                held = trial - added
            }
        }
        guard let held else {
            try Test.cancel("could not measure the inotify watches this user holds")
        }
        try String(held + headroom).write(toFile: globalPath, atomically: false, encoding: .utf8)
        try body()
    }

    private static func countWatchesAddable(in directory: TestDirectory, upTo count: Int) -> Int {
        let fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var added = 0
        while added < count, inotify_add_watch(fd, directory.sub("\(added)"), UInt32(IN_ATTRIB)) >= 0 { added += 1 }
        return added
    }
}
