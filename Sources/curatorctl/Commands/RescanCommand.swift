// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import CuratorProtocol

struct RescanCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "rescan",
        abstract: "Walk a root (or all) again and bring the index in line with the disk.")

    @Argument("ROOT", help: "The root to walk (default: every root).")
    var root: String?

    func run(_ context: CLIContext) throws(CLIError) {
        guard let r = try context.call(RescanRequest(root: root)) else { return }
        Format.write("Rescanning \(r.roots.joined(separator: ", ")).")
    }
}
