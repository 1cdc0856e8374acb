// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import CuratorSystem
import Foundation
import Glibc
import Testing

/// The root supervisor's decisions, over a real state and a stand-in file system:
/// how each root is watched, offline (never empty) and back, replaced, reloaded,
/// polled, and inotify started afresh or lost.
@Suite struct RootSupervisorTests {
    /// The file system as the supervisor sees it: set per test.
    final class Probe: RootProbe, @unchecked Sendable {
        // @unchecked: set up by the test before the supervisor asks; remote checks
        // read it on their own thread while the test waits for their answer.
        var present: [ByteString: FileStatus] = [:]
        var remote: [ByteString: String] = [:]
        var maxUserWatches = 8192

        func presence(of path: ByteString, recordedDevice: UInt64) -> RootPresence {
            guard let status = present[path] else { return .absent(reason: "the folder is gone") }
            return .present(status)
        }

        func remoteKind(of path: ByteString) -> String? { remote[path] }
    }

    /// The crawlers and the inotify source, as calls written down.
    final class Control: RootControl {
        var inotifyAvailable = true
        var staleWatchEntries = 0
        var crawledRoots: [Int32] = []
        var calls: [String] = []
        var restart: Result<Int, SystemError> = .success(0)

        func startCrawling(_ id: Int32, config: RootConfig, watching: Bool, remote: Bool) {
            calls.append("start \(config.name)\(watching ? " watching" : "")")
            if !crawledRoots.contains(id) { crawledRoots.append(id) }
        }
        func stopCrawling(_ id: Int32) { calls.append("stop \(id)") }
        func removeCrawler(_ id: Int32) {
            calls.append("remove \(id)")
            crawledRoots.removeAll { $0 == id }
        }
        func scheduleFullScan(_ id: Int32, reason: String?) { calls.append("scan \(id)" + (reason.map { ": " + $0 } ?? "")) }
        func stopWatching(_ id: Int32) { calls.append("unwatch \(id)") }
        func forgetPendingMoves() { calls.append("forget moves") }
        func restartInotify() -> Result<Int, SystemError> {
            calls.append("restart inotify")
            return restart
        }
    }

    final class Fixture {
        let scratch: ScratchDirectory
        let state: CuratorState
        let probe = Probe()
        let control = Control()
        let supervisor: RootSupervisor
        var configs: [RootConfig]

        init(_ roots: [(name: String, watch: WatchMethod)] = [("pics", .inotify), ("share", .auto)]) throws {
            scratch = try ScratchDirectory()
            configs = roots.map { RootConfig(name: $0.name, path: ByteString("/roots/" + $0.name), watch: $0.watch, pollInterval: 60) }
            let config = Configuration(roots: configs, socketPath: scratch.child("s"), stateDirectory: scratch.path,
                                       homeTrash: scratch.child("trash"))
            state = try CuratorState(config: config, library: PhotoLibrary(store: IndexStore(path: scratch.child("index.sqlite").lossyString)))
            supervisor = RootSupervisor(state: TestStateLock(state), probe: probe, control: control, staleEntryLimit: 100)
            for config in configs { probe.present[config.path] = Self.directory(inode: 10) }
        }

        func id(_ name: String) -> Int32 { state.rootID(named: name) ?? -1 }

        func root(_ name: String) -> RootRuntime? { state.roots[id(name)] }

        func path(_ name: String) -> ByteString { ByteString("/roots/" + name) }

        static func directory(device: UInt64 = 2049, inode: UInt64) -> FileStatus {
            var st = stat()
            st.st_dev = __dev_t(device)
            st.st_ino = __ino_t(inode)
            st.st_mode = S_IFDIR | 0o755
            return FileStatus(st)
        }

        /// Takes every call written down so far.
        func calls() -> [String] {
            defer { control.calls.removeAll() }
            return control.calls
        }
    }

    @Test func theWatchMethodFollowsTheConfigurationAndTheHost() {
        #expect(RootWatching.decide(method: .inotify, inotifyAvailable: true, remote: nil) == RootWatching(usesInotify: true, polls: false))
        #expect(RootWatching.decide(method: .auto, inotifyAvailable: true, remote: nil) == RootWatching(usesInotify: true, polls: false))
        #expect(RootWatching.decide(method: .poll, inotifyAvailable: true, remote: "nfs")
                == RootWatching(usesInotify: false, polls: true, onShare: true))
        let share = RootWatching.decide(method: .auto, inotifyAvailable: true, remote: "nfs")
        #expect(share.usesInotify && share.polls && share.note?.contains("nfs share") == true)
        // Only inotify on a share: what the user asked (the note says nothing).
        #expect(RootWatching.decide(method: .inotify, inotifyAvailable: true, remote: "cifs")
                == RootWatching(usesInotify: true, polls: false, onShare: true))
        let without = RootWatching.decide(method: .inotify, inotifyAvailable: false, remote: nil)
        #expect(!without.usesInotify && without.polls && without.note == "inotify is unavailable; polling")
        #expect(RootWatching.decide(method: .poll, inotifyAvailable: false, remote: nil).note == nil)
    }

    @Test func rootsThatAreThereAreStartedScannedAndPolledAsTheyNeed() throws {
        let f = try Fixture()
        f.probe.remote[f.path("share")] = "nfs"
        f.supervisor.startAll(now: 1000)
        #expect(f.calls() == ["start pics watching", "scan \(f.id("pics"))", "start share watching", "scan \(f.id("share"))"])
        #expect(f.root("pics")?.online == true && f.root("pics")?.inode == 10 && f.root("pics")?.device == 2049)
        #expect(f.root("share")?.watchingDescription == "inotify+poll")
        #expect(f.supervisor.nextPoll == [f.id("share"): 1000 + 60_000_000_000])
        // The poll comes when due, and not before.
        f.supervisor.tick(now: 1000 + 59_000_000_000)
        #expect(f.calls().isEmpty)
        f.supervisor.tick(now: 1000 + 60_000_000_000)
        #expect(f.calls() == ["scan \(f.id("share"))"])
        #expect(f.supervisor.nextDeadline(now: 1000 + 60_000_000_000) == 1000 + 60_000_000_000 + 1_000_000_000)
    }

    @Test func aRootThatGoesAwayIsOfflineNotEmptyAndStartedAgainWhenBack() throws {
        let f = try Fixture()
        f.supervisor.startAll(now: 0)
        _ = f.calls()
        let pics = f.id("pics")
        f.probe.present[f.path("pics")] = nil
        f.supervisor.checkLiveness(now: 0)
        #expect(f.calls() == ["stop \(pics)"])
        #expect(f.root("pics")?.online == false && f.root("pics")?.note == "the folder is gone")
        // Still away: nothing more happens.
        f.supervisor.checkLiveness(now: 0)
        #expect(f.calls().isEmpty)
        f.probe.present[f.path("pics")] = Fixture.directory(inode: 10)
        f.supervisor.checkLiveness(only: pics, now: 0)
        #expect(f.calls() == ["start pics watching", "scan \(pics)"])
        #expect(f.root("pics")?.online == true && f.root("pics")?.note == nil)
    }

    /// Issue 54, item 6: another folder at the root's path (the root renamed away and a
    /// symlink put there) is never crawled: offline, until the folder it was is back.
    @Test func anotherFolderAtTheRootsPathIsOfflineUntilTheRootIsBack() throws {
        let f = try Fixture()
        f.supervisor.startAll(now: 0)
        _ = f.calls()
        let pics = f.id("pics")
        f.probe.present[f.path("pics")] = Fixture.directory(inode: 11)
        f.supervisor.checkLiveness(now: 0)
        #expect(f.calls() == ["stop \(pics)"])
        #expect(f.root("pics")?.online == false && f.root("pics")?.inode == 10)
        #expect(f.root("pics")?.note == RootSupervisor.replaced)
        f.supervisor.checkLiveness(now: 0)
        #expect(f.calls().isEmpty, "still another folder: nothing is started")
        f.probe.present[f.path("pics")] = Fixture.directory(inode: 10)
        f.supervisor.checkLiveness(now: 0)
        #expect(f.calls() == ["start pics watching", "scan \(pics)"])
        #expect(f.root("pics")?.online == true)
    }

    @Test func aReloadStartsStopsAndRestartsOnlyTheRootsThatChanged() throws {
        let f = try Fixture([("pics", .inotify), ("share", .auto), ("old", .inotify)])
        f.supervisor.startAll(now: 0)
        _ = f.calls()
        let (pics, share, old) = (f.id("pics"), f.id("share"), f.id("old"))
        var changed = f.configs[1]
        changed.path = ByteString("/roots/share2")
        f.probe.present[changed.path] = Fixture.directory(inode: 20)
        let added = RootConfig(name: "new", path: ByteString("/roots/new"), watch: .poll, pollInterval: 5)
        f.probe.present[added.path] = Fixture.directory(inode: 30)
        try f.state.registerRoots([f.configs[0], changed, added])
        f.supervisor.reconfigure(now: 0)
        let calls = f.calls()
        #expect(calls.contains("remove \(old)"))
        #expect(!calls.contains { $0.hasSuffix(" \(pics)") || $0.hasPrefix("start pics") }, "\(calls)")
        #expect(calls.filter { $0.hasSuffix(" \(share)") } == ["remove \(share)", "scan \(share)"])
        #expect(calls.contains("start share watching") && calls.contains("start new"))
        // The new path's folder is recorded, not compared with the old one's.
        #expect(f.root("share")?.inode == 20 && f.root("share")?.online == true)
        #expect(f.supervisor.startedConfigs[old] == nil && f.supervisor.nextPoll[f.id("new")] == 5_000_000_000)
    }

    @Test func outOfWatchesARootIsPolledAndSaysWhy() throws {
        let f = try Fixture()
        f.supervisor.startAll(now: 0)
        _ = f.calls()
        let pics = f.id("pics")
        f.supervisor.fallBackToPolling(pics, now: 7)
        #expect(f.calls() == ["unwatch \(pics)"])
        #expect(f.root("pics")?.watchingDescription == "poll")
        #expect(f.root("pics")?.note == "inotify watch limit reached (fs.inotify.max_user_watches = 8192); polling every 60 s")
        #expect(f.supervisor.nextPoll[pics] == 7 + 60_000_000_000)
    }

    @Test func lostEventsRescanTheInotifyRootsThatAreOnline() throws {
        let f = try Fixture([("pics", .inotify), ("polled", .poll), ("away", .inotify)])
        f.probe.present[f.path("away")] = nil
        f.supervisor.startAll(now: 0)
        _ = f.calls()
        f.supervisor.eventsLost(reason: "inotify queue overflow")
        #expect(f.calls() == ["forget moves", "scan \(f.id("pics")): inotify queue overflow"])
        #expect(f.state.totalOverflows == 1 && f.root("pics")?.overflows == 1 && f.root("polled")?.overflows == 0)
    }

    @Test func staleEntriesPastTheLimitRestartInotifyAndRescan() throws {
        let f = try Fixture([("pics", .inotify), ("polled", .poll)])
        f.supervisor.startAll(now: 0)
        _ = f.calls()
        f.control.staleWatchEntries = 99
        #expect(!f.supervisor.compactIfNeeded(now: 0))
        f.control.staleWatchEntries = 100
        f.control.restart = .success(100)
        #expect(f.supervisor.compactIfNeeded(now: 0))
        #expect(f.calls() == ["restart inotify", "scan \(f.id("pics")): inotify restarted to shed stale watch entries"])

        // Restarting failed: inotify is gone, every root is polled from now on.
        f.control.restart = .failure(SystemError("inotifytools_initialize", errno: Errno(EMFILE)))
        #expect(f.supervisor.compactIfNeeded(now: 0))
        let (pics, polled) = (f.id("pics"), f.id("polled"))
        #expect(f.calls() == ["restart inotify", "unwatch \(pics)", "scan \(pics): inotify lost", "unwatch \(polled)", "scan \(polled): inotify lost"])
        #expect(f.root("pics")?.watchingDescription == "poll" && f.root("pics")?.note?.contains("could not be restarted") == true)
        #expect(f.supervisor.nextPoll[pics] == 60_000_000_000)
        f.control.inotifyAvailable = false
        #expect(!f.supervisor.compactIfNeeded(now: 0))
    }
}
