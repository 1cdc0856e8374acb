// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorTestSupport
import Foundation

/// How a program run to its end went and what it printed: the shared runner's
/// (`Tool.run`, through files, never a pipe that could fill while we wait), which
/// these tests call as `Command.run`, stopped after two minutes unless told otherwise.
typealias Command = Tool.Output

extension Tool.Output {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    @discardableResult
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                    directory: String? = nil, timeout: Double = 120) throws -> Command {
        try Tool.run(executable, arguments, environment: environment, directory: directory, timeout: timeout)
    }
}
