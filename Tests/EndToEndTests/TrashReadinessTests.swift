// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Before anyone deletes (issue 13): `--check-config` (and the start, and a reload)
/// says, for each root, what stands in the way of its trash, with the fix.
@Suite(.serialized)
struct TrashReadinessTests {
    static func config(_ d: Daemon, trash: String = "freedesktop", socketMode: String = "0600") -> String {
        let path = d.home.sub("curatord.json5")
        Files.write(path, """
            { roots: [ { name: "pics", path: "\(d.root())", trash: "\(trash)" } ],
              socket: "\(d.socket)", socket_mode: "\(socketMode)", state_dir: "\(d.stateDir)" }
            """)
        return path
    }

    /// As a service user without capabilities, serving others: it cannot make a
    /// trash theirs, and says so with the fix (and says nothing of it per user).
    @Test func aDaemonWithoutCapabilitiesServingOthersSaysSo() throws {
        guard getuid() == 0, Tool.exists("/usr/bin/setpriv") else {
            print("skipped: needs root and setpriv to run curatord as another uid")
            return
        }
        let d = Daemon()
        chmod(d.home.path, 0o755)
        chown(d.stateDir, 4247, 4247)
        let shared = Self.config(d, socketMode: "0660")
        let bare = try Tool.run("/usr/bin/setpriv", ["--reuid=4247", "--regid=4247", "--clear-groups", Daemon.curatord,
                                                     "--check-config", "--config", shared], environment: d.environment)
        #expect(bare.stderr.contains("root \"pics\": curatord (uid 4247) lacks CAP_CHOWN, CAP_DAC_OVERRIDE, CAP_FOWNER"),
                "\(bare.stderr)")
        #expect(bare.stderr.contains("setpriv --inh-caps=+chown,+dac_override,+fowner"), "\(bare.stderr)")
        #expect(bare.stderr.contains("trash: \"recycle\""), "\(bare.stderr)")
        // With the three capabilities, nothing to say.
        let capable = try Tool.run("/usr/bin/setpriv", ["--reuid=4247", "--regid=4247", "--clear-groups",
                                                        "--inh-caps=+chown,+dac_override,+fowner",
                                                        "--ambient-caps=+chown,+dac_override,+fowner", Daemon.curatord,
                                                        "--check-config", "--config", shared], environment: d.environment)
        #expect(!capable.stderr.contains("lacks"), "\(capable.stderr)")
        // A daemon of one's own (socket 0600) trashes only for its user: nothing to say.
        let own = Self.config(d)
        let alone = try Tool.run("/usr/bin/setpriv", ["--reuid=4247", "--regid=4247", "--clear-groups", Daemon.curatord,
                                                      "--check-config", "--config", own], environment: d.environment)
        #expect(!alone.stderr.contains("lacks"), "\(alone.stderr)")
    }

    /// Run as a user without CAP_CHOWN, the daemon refuses another user's plan before
    /// showing it (rather than skipping every photo at delete time), and still
    /// trashes for its own user.
    @Test func aDaemonThatCannotMakeATrashTheCallersRefusesThePlan() throws {
        guard getuid() == 0, Tool.exists("/usr/bin/setpriv"), Tool.exists("/usr/bin/chown") else {
            print("skipped: needs root and setpriv to run curatord as another uid")
            return
        }
        let d = Daemon()
        Files.write(d.root() + "/a.jpg", "a")
        Files.write(d.root() + "/b.jpg", "b")
        #expect(try Tool.run("/usr/bin/chown", ["-R", "4247:4247", d.home.path]).status == 0)
        d.wrapper = ["/usr/bin/setpriv", "--reuid=4247", "--regid=4247", "--clear-groups"]
        try d.start()
        chmod(d.socket, 0o666)
        let refused = try d.ctl(["rm", "--yes", "--photo", "pics/a.jpg"])
        #expect(refused.status == 1, "\(refused.stdout) \(refused.stderr)")
        #expect(refused.stderr.contains("lacks CAP_CHOWN, so nothing can be trashed for you"), "\(refused.stderr)")
        #expect(!refused.stdout.contains("Move 1 photo"), "no plan is shown")
        #expect(Files.read(d.root() + "/a.jpg") == "a")
        let own = try d.ctl(["rm", "--yes", "--photo", "pics/b.jpg"], asUID: 4247)
        #expect(own.status == 0, "\(own.stdout) \(own.stderr)")
        #expect(!Files.exists(d.root() + "/b.jpg"))
        #expect(TrashSnapshot(d.trashDirectory).entries.count == 1)
    }

    /// A root bind-mounted onto itself (what `ReadWritePaths=` does in a service's
    /// namespace): the file system's real top directory is named, with the fix.
    @Test func aRootThatIsABindMountOfItselfIsReported() throws {
        guard getuid() == 0, Tool.exists("/usr/bin/unshare") else {
            print("skipped: needs root and unshare for a mount namespace")
            return
        }
        let d = Daemon()
        let config = Self.config(d)
        let top = try Tool.run("/usr/bin/findmnt", ["-n", "-o", "TARGET", "-T", d.root()]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let script = "mount --make-rprivate / && mount --bind \"$1\" \"$1\" && exec \"$2\" --check-config --config \"$3\""
        let bound = try Tool.run("/usr/bin/unshare", ["-m", "/bin/sh", "-c", script, "sh", d.root(), Daemon.curatord, config],
                                 environment: d.environment)
        #expect(bound.stderr.contains("root \"pics\": \(d.root()) is a mount of its own here"), "\(bound.stderr)")
        #expect(bound.stderr.contains("that file system's top directory, where trash-list, gio and file managers look for a "
                                      + "user's trash, is \(top)"), "\(bound.stderr)")
        #expect(bound.stderr.contains("EXDEV"), "\(bound.stderr)")
        #expect(bound.stderr.contains("curatord refuses the root") && bound.stderr.contains("trash: \"recycle\""),
                "\(bound.stderr)")
        #expect(bound.status == 1, "a root that no trash its users see can serve fails the check")
        // The recycle kind stays inside the root: nothing to say.
        let recycle = Self.config(d, trash: "recycle")
        let inside = try Tool.run("/usr/bin/unshare", ["-m", "/bin/sh", "-c", script, "sh", d.root(), Daemon.curatord, recycle],
                                  environment: d.environment)
        #expect(!inside.stderr.contains("mount of its own"), "\(inside.stderr)")
        // Without the bind mount, nothing either.
        let plain = try Tool.run(Daemon.curatord, ["--check-config", "--config", config], environment: d.environment)
        #expect(!plain.stderr.contains("mount of its own"), "\(plain.stderr)")
        #expect(plain.status == 0, "\(plain.stderr)")
    }

    /// Started (not only checked) with such a root, curatord refuses it and exits at
    /// once, naming `trash: "recycle"`, instead of trashing where no one looks.
    @Test func aDaemonWhoseRootIsABindMountOfItselfRefusesToStart() throws {
        guard getuid() == 0, Tool.exists("/usr/bin/unshare"), Tool.exists("/usr/bin/timeout") else {
            print("skipped: needs root, unshare and timeout")
            return
        }
        let d = Daemon()
        let config = Self.config(d)
        // Bounded: a daemon that starts serves until killed (status 124).
        let script = "mount --make-rprivate / && mount --bind \"$1\" \"$1\" && exec /usr/bin/timeout 20 \"$2\" --config \"$3\""
        let run = try Tool.run("/usr/bin/unshare", ["-m", "/bin/sh", "-c", script, "sh", d.root(), Daemon.curatord, config],
                               environment: d.environment)
        #expect(run.status == 1, "\(run.status): \(run.stderr)")
        #expect(run.stderr.contains("root \"pics\": \(d.root()) is a mount of its own here"), "\(run.stderr)")
        #expect(run.stderr.contains("trash: \"recycle\""), "\(run.stderr)")
        #expect(!Files.exists(d.root() + "/.Trash-\(getuid())"))
    }

    /// The host's mount of the file system need not be its whole (`root` "/"): a
    /// btrfs subvolume, or a container's tree, is itself a folder of the file system.
    /// A folder bound onto itself below such a mount is found by walking up to it.
    @Test func aRootBoundOntoItselfBelowAMountOfAFolderIsReported() throws {
        guard getuid() == 0, Tool.exists("/usr/bin/unshare") else {
            print("skipped: needs root and unshare for a mount namespace")
            return
        }
        let d = Daemon()
        let volume = d.home.sub("volume")      // the "subvolume", mounted at `top`
        let top = d.home.sub("top")
        Files.mkdir(volume)
        Files.mkdir(volume + "/photos")
        Files.mkdir(top)
        let root = top + "/photos"
        let config = d.home.sub("curatord.json5")
        Files.write(config, """
            { roots: [ { name: "pics", path: "\(root)" } ],
              socket: "\(d.socket)", state_dir: "\(d.stateDir)" }
            """)
        let script = "mount --make-rprivate / && mount --bind \"$1\" \"$2\" && mount --bind \"$2/photos\" \"$2/photos\" "
            + "&& exec \"$3\" --check-config --config \"$4\""
        let run = try Tool.run("/usr/bin/unshare", ["-m", "/bin/sh", "-c", script, "sh", volume, top, Daemon.curatord, config],
                               environment: d.environment)
        #expect(run.stderr.contains("root \"pics\": \(root) is a mount of its own here"), "\(run.stderr)")
        #expect(run.stderr.contains("that file system's top directory, where trash-list, gio and file managers look for a "
                                    + "user's trash, is \(top)"), "\(run.stderr)")
        #expect(run.status == 1, "\(run.stderr)")
    }
}
