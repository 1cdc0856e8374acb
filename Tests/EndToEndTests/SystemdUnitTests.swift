// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// The unit files as systemd reads them: `systemd-analyze verify` must have
/// nothing at all to say (it exits 0 on warnings, so any output fails), the
/// system service must stay hardened, and the score in the docs must be true.
@Suite(.serialized)
struct SystemdUnitTests {
    static let root = Command.packageRoot

    /// A copy of the units with ExecStart= and ExecReload= pointing at the built
    /// binaries, which verify wants to exist; the text is otherwise exactly what we ship.
    static func unitCopy(_ relative: [String], in directory: TestDirectory) throws -> [String] {
        try relative.map { path in
            let text = try String(contentsOfFile: root + "/systemd/" + path, encoding: .utf8)
            if path.hasSuffix(".service") {
                #expect(text.contains("ExecStart=/usr/local/bin/curatord"), "\(path) should name /usr/local/bin/curatord for make install to rewrite")
            }
            let copy = directory.sub((path as NSString).lastPathComponent)
            Files.write(copy, text.replacingOccurrences(of: "/usr/local/bin/curatord", with: Daemon.curatord)
                .replacingOccurrences(of: "/usr/local/bin/curatorctl", with: Daemon.curatorctl))
            return copy
        }
    }

    @Test func systemUnitsVerifyWithoutAWord() throws {
        let dir = TestDirectory("units")
        let units = try Self.unitCopy(["curatord.socket", "curatord.service"], in: dir)
        let result = try Command.run("/usr/bin/systemd-analyze", ["verify", "--man=no"] + units, directory: dir.path)
        #expect(result.status == 0)
        #expect(result.output.isEmpty, "systemd-analyze verify said: \(result.output)")
    }

    @Test func userUnitsVerifyWithoutAWord() throws {
        let dir = TestDirectory("units")
        let units = try Self.unitCopy(["user/curatord.socket", "user/curatord.service"], in: dir)
        // A user manager needs a runtime directory and a home: private ones, never the real home.
        let runtime = dir.mkdir("runtime")
        chmod(runtime, 0o700)
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtime
        env["HOME"] = dir.mkdir("home")
        env["XDG_CONFIG_HOME"] = dir.mkdir("home/.config")
        let result = try Command.run("/usr/bin/systemd-analyze", ["verify", "--user", "--man=no"] + units,
                                     environment: env, directory: dir.path)
        #expect(result.status == 0)
        #expect(result.output.isEmpty, "systemd-analyze verify --user said: \(result.output)")
    }

    @Test func verifyWouldCatchAMistake() throws {
        // The check above means something only if verify prints on a bad key.
        let dir = TestDirectory("units")
        let units = try Self.unitCopy(["curatord.service"], in: dir)
        let text = (Files.read(units[0]) ?? "").replacingOccurrences(of: "[Service]\n", with: "[Service]\nProtectSytem=strict\n")
        Files.write(units[0], text)
        Files.write(dir.sub("curatord.socket"), Files.read(Self.root + "/systemd/curatord.socket") ?? "")
        let result = try Command.run("/usr/bin/systemd-analyze", ["verify", "--man=no", units[0]], directory: dir.path)
        #expect(result.output.contains("ProtectSytem"))
    }

    static func exposure(_ unit: String) throws -> Double? {
        let result = try Command.run("/usr/bin/systemd-analyze", ["security", "--offline=yes", "--no-pager", unit],
                                     directory: (unit as NSString).deletingLastPathComponent)
        guard let line = result.stdout.split(separator: "\n").first(where: { $0.contains("Overall exposure level") }) else { return nil }
        let words = line.split(separator: " ")
        guard let i = words.firstIndex(where: { $0.hasSuffix(":") && $0.contains("curatord.service") }), i + 1 < words.count else { return nil }
        return Double(words[i + 1])
    }

    @Test func systemServiceIsHardenedAndTheDocumentedScoreIsTheMeasuredOne() throws {
        let dir = TestDirectory("units")
        let units = try Self.unitCopy(["curatord.socket", "curatord.service"], in: dir)
        let score = try #require(try Self.exposure(units[1]))
        #expect(score <= 2.0, "systemd-analyze security exposure \(score) is above 2.0")
        let docs = Files.read(Self.root + "/docs/SYSTEMD.md") ?? ""
        #expect(docs.contains("exposure level: \(String(format: "%.1f", score))"),
                "docs/SYSTEMD.md must record the measured exposure \(score)")

        let text = Files.read(Self.root + "/systemd/curatord.service") ?? ""
        for line in ["Type=notify", "ExecReload=/usr/local/bin/curatorctl --socket /run/curatord/curatord.sock reload", "User=curatord", "Group=curatord", "StateDirectory=curatord",
                     "ConfigurationDirectory=curatord", "ProtectSystem=strict", "ProtectHome=yes", "PrivateTmp=yes",
                     "NoNewPrivileges=yes", "RestrictAddressFamilies=AF_UNIX", "SystemCallFilter=@system-service",
                     "CapabilityBoundingSet=CAP_CHOWN CAP_DAC_OVERRIDE CAP_FOWNER\n", "SystemCallFilter=@chown\n"] {
            #expect(text.contains(line), "curatord.service lacks \(line)")
        }
        #expect(text.contains("WatchdogSec="))
        // The socket lives in the .socket unit's directory, not the service's RuntimeDirectory= (removed on stop).
        #expect(!text.contains("RuntimeDirectory="))
        #expect(!text.contains("DynamicUser=yes"))
        let socket = Files.read(Self.root + "/systemd/curatord.socket") ?? ""
        for line in ["ListenStream=/run/curatord/curatord.sock", "SocketMode=0660", "SocketGroup=curatord"] {
            #expect(socket.contains(line), "curatord.socket lacks \(line)")
        }
        let userSocket = Files.read(Self.root + "/systemd/user/curatord.socket") ?? ""
        #expect(userSocket.contains("ListenStream=%t/curatord.sock") && userSocket.contains("SocketMode=0600"))
    }

    /// A minimal image (debootstrap's minbase, slim containers) has no kill(1) or
    /// sh beyond what we ship: every command a unit runs must be one of our binaries,
    /// by absolute path (issue 13: `systemctl reload` failed with 203/EXEC).
    @Test func unitsRunOnlyOurOwnBinaries() throws {
        let ours = ["/usr/local/bin/curatord", "/usr/local/bin/curatorctl"]
        for unit in ["curatord.service", "user/curatord.service"] {
            let text = Files.read(Self.root + "/systemd/" + unit) ?? ""
            let commands = text.split(separator: "\n").filter { $0.hasPrefix("Exec") }
            #expect(commands.count >= 2, "\(unit): \(commands)")
            for line in commands {
                let program = line.split(separator: "=", maxSplits: 1).last?.split(separator: " ").first.map(String.init) ?? ""
                #expect(ours.contains(program), "\(unit): \(line) runs \(program), which a minimal system may lack")
            }
            #expect(text.contains("ExecReload=/usr/local/bin/curatorctl --socket "), "\(unit) reloads through curatorctl")
        }
        let user = Files.read(Self.root + "/systemd/user/curatord.service") ?? ""
        #expect(user.contains("ExecReload=/usr/local/bin/curatorctl --socket %t/curatord.sock reload"))
    }

    @Test func sysusersSnippetMakesTheUserAndGroup() throws {
        let dir = TestDirectory("sysroot")
        dir.mkdir("etc")
        let result = try Command.run("/usr/bin/systemd-sysusers", ["--root=" + dir.path, Self.root + "/systemd/curatord.sysusers"])
        #expect(result.status == 0, "\(result.output)")
        let passwd = Files.read(dir.sub("etc/passwd")) ?? ""
        let group = Files.read(dir.sub("etc/group")) ?? ""
        #expect(passwd.contains("curatord:x:") && passwd.contains(":/var/lib/curatord:"), "\(passwd)")
        #expect(group.hasPrefix("curatord:x:") || group.contains("\ncuratord:x:"), "\(group)")
    }

    /// The web gateway's units (issue 51): socket-activated on loopback, run as its own
    /// user in curatord's socket group, with no capability, no network of its own and
    /// no view of homes or photo folders.
    @Test func webGatewayUnitsVerifyWithoutAWordAndAreSandboxed() throws {
        let dir = TestDirectory("units")
        let units = try Self.unitCopy(["curatord.socket", "curatord.service", "curatord-web.socket", "curatord-web.service"], in: dir)
        let result = try Command.run("/usr/bin/systemd-analyze", ["verify", "--man=no"] + units, directory: dir.path)
        #expect(result.status == 0)
        #expect(result.output.isEmpty, "systemd-analyze verify said: \(result.output)")
        let text = Files.read(Self.root + "/systemd/curatord-web.service") ?? ""
        for line in ["ExecStart=/usr/local/bin/curatord-web --system --socket /run/curatord/curatord.sock\n", "User=curatord-web\n",
                     "SupplementaryGroups=curatord\n", "ProtectSystem=strict\n", "ProtectHome=yes\n", "PrivateNetwork=yes\n",
                     "CapabilityBoundingSet=\n", "NoNewPrivileges=yes\n", "Requires=curatord-web.socket\n"] {
            #expect(text.contains(line), "curatord-web.service lacks \(line)")
        }
        let socket = Files.read(Self.root + "/systemd/curatord-web.socket") ?? ""
        #expect(socket.contains("ListenStream=127.0.0.1:8480\n"))
    }

    @Test func webSysusersSnippetPutsTheGatewayInTheSocketGroup() throws {
        let dir = TestDirectory("sysroot")
        dir.mkdir("etc")
        let result = try Command.run("/usr/bin/systemd-sysusers", ["--root=" + dir.path, Self.root + "/systemd/curatord.sysusers",
                                                                    Self.root + "/systemd/curatord-web.sysusers"])
        #expect(result.status == 0, "\(result.output)")
        let passwd = Files.read(dir.sub("etc/passwd")) ?? ""
        let group = Files.read(dir.sub("etc/group")) ?? ""
        #expect(passwd.contains("\ncuratord-web:x:") || passwd.hasPrefix("curatord-web:x:"), "\(passwd)")
        let socketGroup = group.split(separator: "\n").first { $0.hasPrefix("curatord:x:") }
        #expect(socketGroup?.hasSuffix(":curatord-web") == true, "\(group)")
    }
}
