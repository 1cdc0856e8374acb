// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// `make install` and `make uninstall` into a DESTDIR: every file where it
/// belongs, the units pointing at the installed binary, and nothing left behind.
/// The release build is skipped (`-o release`) and the debug binaries installed
/// instead (BUILDDIR), so the test exercises the real install recipe quickly.
@Suite(.serialized)
struct SystemdInstallTests {
    static func make(_ target: String, destdir: String, prefix: String) throws -> Command {
        try Command.run("/usr/bin/make", ["-C", Command.packageRoot, "-o", "release", target, "DESTDIR=" + destdir,
                                          "PREFIX=" + prefix, "BUILDDIR=" + Daemon.binDirectory])
    }

    static func files(under root: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var found: [String] = []
        while let item = walker.nextObject() as? String {
            var st = stat()
            if lstat(root + "/" + item, &st) == 0, st.st_mode & S_IFMT != S_IFDIR { found.append("/" + item) }
        }
        return found.sorted()
    }

    static func mode(_ path: String) -> mode_t {
        var st = stat()
        return stat(path, &st) == 0 ? st.st_mode & 0o7777 : 0
    }

    @Test func installLaysOutEveryFileAndUninstallRemovesThem() throws {
        let dest = TestDirectory("destdir")
        let install = try Self.make("install", destdir: dest.path, prefix: "/usr")
        #expect(install.status == 0, "\(install.output)")

        let expected = [
            "/usr/bin/curatorctl", "/usr/bin/curatord", "/usr/bin/curatord-thumbnailer", "/usr/bin/curatord-web",
            "/usr/lib/systemd/system/curatord-web.service", "/usr/lib/systemd/system/curatord-web.socket",
            "/usr/lib/systemd/system/curatord.service", "/usr/lib/systemd/system/curatord.socket",
            "/usr/lib/systemd/user/curatord.service", "/usr/lib/systemd/user/curatord.socket",
            "/usr/lib/sysusers.d/curatord-web.conf", "/usr/lib/sysusers.d/curatord.conf",
            "/usr/share/doc/curatord/README.md", "/usr/share/doc/curatord/curatord.json5",
            "/usr/share/man/man1/curatorctl.1", "/usr/share/man/man8/curatord.8",
        ] + Self.files(under: Command.packageRoot + "/web").map { "/usr/share/curatord/web" + $0 }
        #expect(Self.files(under: dest.path) == expected.sorted())
        #expect(expected.contains("/usr/share/curatord/web/index.html") && expected.contains("/usr/share/curatord/web/js/main.js"))
        #expect(Self.mode(dest.path + "/usr/share/curatord/web/js/main.js") == 0o644)
        #expect(Self.mode(dest.path + "/usr/bin/curatord") == 0o755)
        #expect(Self.mode(dest.path + "/usr/lib/systemd/system/curatord.service") == 0o644)
        #expect(Self.mode(dest.path + "/usr/share/man/man8/curatord.8") == 0o644)

        // The units name the binary where PREFIX put it, and nothing else changed in them.
        for unit in ["system/curatord.service", "user/curatord.service"] {
            let text = Files.read(dest.path + "/usr/lib/systemd/" + unit) ?? ""
            #expect(text.contains("ExecStart=/usr/bin/curatord"), "\(unit): \(text)")
            #expect(text.contains("ExecReload=/usr/bin/curatorctl --socket "), "\(unit): \(text)")
            #expect(!text.contains("/usr/local/"))
            let source = Files.read(Command.packageRoot + "/systemd/" + (unit.hasPrefix("user/") ? "user/curatord.service" : "curatord.service")) ?? ""
            #expect(text == source.replacingOccurrences(of: "/usr/local/bin/curatord", with: "/usr/bin/curatord")
                .replacingOccurrences(of: "/usr/local/bin/curatorctl", with: "/usr/bin/curatorctl"))
        }
        // What was installed runs.
        let version = try Command.run(dest.path + "/usr/bin/curatord", ["--version"])
        #expect(version.stdout.hasPrefix("curatord "))
        // Nothing under /etc: the configuration is the administrator's.
        #expect(!Files.exists(dest.path + "/etc"))

        let uninstall = try Self.make("uninstall", destdir: dest.path, prefix: "/usr")
        #expect(uninstall.status == 0, "\(uninstall.output)")
        #expect(Self.files(under: dest.path).isEmpty, "left behind: \(Self.files(under: dest.path))")
    }

    @Test func defaultPrefixIsUsrLocalAndUnitsNeedNoRewrite() throws {
        let dest = TestDirectory("destdir")
        let install = try Self.make("install", destdir: dest.path, prefix: "/usr/local")
        #expect(install.status == 0, "\(install.output)")
        let text = Files.read(dest.path + "/usr/local/lib/systemd/system/curatord.service") ?? ""
        #expect(text == Files.read(Command.packageRoot + "/systemd/curatord.service"))
        #expect(Files.exists(dest.path + "/usr/local/share/man/man8/curatord.8"))
        #expect(try Self.make("uninstall", destdir: dest.path, prefix: "/usr/local").status == 0)
        #expect(Self.files(under: dest.path).isEmpty)
    }

    @Test func manPagesRenderWithoutWarnings() throws {
        for page in ["docs/man/curatord.8", "docs/man/curatorctl.1"] {
            var env = ProcessInfo.processInfo.environment
            env["LC_ALL"] = "C.UTF-8"
            let result = try Command.run("/usr/bin/groff", ["-man", "-ww", "-z", Command.packageRoot + "/" + page], environment: env)
            #expect(result.status == 0)
            #expect(result.output.isEmpty, "\(page): \(result.output)")
        }
    }

    @Test func everyOptionOfHelpIsInTheManPage() throws {
        let help = try Command.run(Daemon.curatord, ["--help"]).stdout
        let page = Files.read(Command.packageRoot + "/docs/man/curatord.8") ?? ""
        let options = Set(help.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "[" || $0 == "]" })
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",.:")) }
            .filter { $0.hasPrefix("--") && $0.count > 2 && $0.dropFirst(2).allSatisfy { $0.isLetter || $0 == "-" } })
        #expect(options.count >= 7, "\(options)")
        for option in options {
            #expect(page.contains(option.replacingOccurrences(of: "-", with: "\\-")), "curatord.8 does not document \(option)")
        }
    }
}
