// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// The parts of `make test-systemd` that can be checked without booting anything,
/// so that `make test` catches a README edit the extraction no longer understands,
/// a pending list out of step with the checks, or a report that decides wrongly.
@Suite(.serialized)
struct SystemdHarnessTests {
    static let root = Command.packageRoot
    static let harness = root + "/Tests/systemd"

    static func extract(_ section: String, dropin: Bool, in dir: TestDirectory) throws -> (Command, String, String) {
        let script = dir.sub("steps.sh")
        let conf = dir.sub("dropin.conf")
        var args = [harness + "/readme_steps.py", root + "/README.md", section, "--script", script]
        if dropin { args += ["--dropin", conf] }
        let result = try Command.run("/usr/bin/python3", args)
        return (result, Files.read(script) ?? "", Files.read(conf) ?? "")
    }

    @Test func theReadmeSectionsBecomeScriptsThatBashAccepts() throws {
        let dir = TestDirectory("harness")
        let (system, steps, dropin) = try Self.extract("As a system service on a shared folder", dropin: true, in: dir)
        #expect(system.status == 0, "\(system.output)")
        for command in ["systemd-sysusers", "$EDITOR /etc/curatord/curatord.json5", "systemctl edit curatord.service",
                        "usermod -aG curatord alice", "usermod -aG curatord bob",
                        "systemctl enable --now curatord.socket curatord.service"] {
            #expect(steps.contains(command), "the extracted steps lack \(command)")
        }
        #expect(dropin == "[Service]\nProtectSystem=full\n", "\(dropin)")
        #expect(try Command.run("/bin/bash", ["-n", dir.sub("steps.sh")]).status == 0)

        let (user, userSteps, _) = try Self.extract("As a user service", dropin: false, in: dir)
        #expect(user.status == 0, "\(user.output)")
        #expect(userSteps.contains("systemctl --user enable --now curatord.socket curatord.service"))
        #expect(try Command.run("/bin/bash", ["-n", dir.sub("steps.sh")]).status == 0)
    }

    @Test func aMissingSectionOrDropinIsAnError() throws {
        let dir = TestDirectory("harness")
        let (missing, _, _) = try Self.extract("As a service on Mars", dropin: false, in: dir)
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("has no section \"As a service on Mars\""), "\(missing.stderr)")
        // The user section edits no unit: asking for its drop-in must fail, not write an empty one.
        let (noDropin, _, _) = try Self.extract("As a user service", dropin: true, in: dir)
        #expect(noDropin.status != 0)
        #expect(noDropin.stderr.contains("shows no drop-in"), "\(noDropin.stderr)")
    }

    /// The names in CHECKS=( ... ) of checks.sh.
    static func plannedChecks() -> [String] {
        let text = Files.read(harness + "/checks.sh") ?? ""
        guard let start = text.range(of: "CHECKS=(\n"), let end = text.range(of: "\n)", range: start.upperBound..<text.endIndex) else {
            return []
        }
        return text[start.upperBound..<end.lowerBound].split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    @Test func everyCheckHasAFunctionAndEveryPendingNameIsACheck() throws {
        let checks = Self.plannedChecks()
        #expect(checks.count >= 20, "\(checks)")
        let text = Files.read(Self.harness + "/checks.sh") ?? ""
        for name in checks { #expect(text.contains("\ncheck_\(name)() {"), "checks.sh has no check_\(name)") }
        let pending = (Files.read(Self.harness + "/pending.txt") ?? "").split(separator: "\n")
            .filter { !$0.hasPrefix("#") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
        for name in pending { #expect(checks.contains(name), "pending.txt names \(name), which checks.sh does not run") }
        for script in ["checks.sh", "editor"] {
            #expect(try Command.run("/bin/bash", ["-n", Self.harness + "/" + script]).status == 0, "\(script)")
        }
        #expect(try Command.run("/bin/bash", ["-n", Self.root + "/scripts/test-systemd.sh"]).status == 0)
    }

    /// A results folder as checks.sh writes it.
    static func results(_ rows: [(String, String)], planned: [String], in dir: TestDirectory) -> String {
        let folder = dir.mkdir("results")
        dir.mkdir("results/details")
        Files.write(folder + "/checks.list", planned.joined(separator: "\n") + "\n")
        Files.write(folder + "/results.tsv", rows.map { "\($0.0)\t\($0.1)\t1\t\($0.0) said so\n" }.joined())
        for (name, status) in rows { Files.write(folder + "/details/\(name).log", "+ something\n\(status): \(name) said so\n") }
        return folder
    }

    static func report(_ folder: String, pending: String, in dir: TestDirectory) throws -> Command {
        Files.write(dir.sub("pending.txt"), "# pending: issue 13 features not built yet\n" + pending)
        return try Command.run("/usr/bin/python3", [harness + "/report.py", folder, dir.sub("pending.txt")])
    }

    @Test func theReportFailsOnlyOnRequiredChecks() throws {
        // Each results folder in a directory of its own, kept until the end of the test.
        let dir = TestDirectory("harness")
        let (second, third, fourth) = (TestDirectory("harness"), TestDirectory("harness"), TestDirectory("harness"))
        let planned = ["setup", "works", "future"]
        // A pending check that fails: shown, not counted.
        var folder = Self.results([("setup", "PASS"), ("works", "PASS"), ("future", "FAIL")], planned: planned, in: dir)
        var report = try Self.report(folder, pending: "future    a feature to come\n", in: dir)
        #expect(report.status == 0, "\(report.output)")
        #expect(report.stdout.contains("PENDING  future"), "\(report.stdout)")
        #expect(report.stdout.contains("2 passed, 0 failed, 1 pending (0 of them passing)"), "\(report.stdout)")

        // A required check that fails fails the run, with its details.
        folder = Self.results([("setup", "PASS"), ("works", "FAIL"), ("future", "FAIL")], planned: planned, in: second)
        report = try Self.report(folder, pending: "future    a feature to come\n", in: dir)
        #expect(report.status == 1)
        #expect(report.stdout.contains("Required checks that FAILED:") && report.stdout.contains("FAIL: works said so"), "\(report.stdout)")

        // A pending check that passes is said loudly; a check that never reported is a failure.
        folder = Self.results([("setup", "PASS"), ("future", "PASS")], planned: planned, in: third)
        report = try Self.report(folder, pending: "future    a feature to come\n", in: dir)
        #expect(report.status == 1)
        #expect(report.stdout.contains("PENDING checks that PASS now"), "\(report.stdout)")
        #expect(report.stdout.contains("works") && report.stdout.contains("did not finish"), "\(report.stdout)")

        // A pending name that is no check is a mistake in the list.
        folder = Self.results([("setup", "PASS"), ("works", "PASS"), ("future", "PASS")], planned: planned, in: fourth)
        report = try Self.report(folder, pending: "gone    was removed from checks.sh\n", in: dir)
        #expect(report.status == 1)
        #expect(report.stdout.contains("names checks that checks.sh does not have: gone"), "\(report.stdout)")
    }
}
