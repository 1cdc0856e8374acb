// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine

/// `curatord-thumbnailer`'s command line, beside `ThumbnailerProcess`, which
/// writes it; `curatord-thumbnailer --help` is generated from it.
public struct ThumbnailerArguments: ParsableCommand, Sendable {
    public static let configuration = CommandConfiguration(
        name: "curatord-thumbnailer",
        abstract: "Makes thumbnails for curatord, one job at a time, in a process of its own.",
        discussion: """
            Reads thumbnail jobs (JSON, one per line or per SOCK_SEQPACKET message) on stdin, \
            answers each on stdout. Started by curatord; see docs/THUMBNAILS.md.
            """,
        subcommands: [SheetArguments.self])

    @Option("--max-pixels", value: "N", help: "Decode no image larger than N pixels.")
    public var maxPixels: Int = 16384 * 16384

    @Option("--memory-mib", value: "N", help: "Address-space bound, MiB (0: none).")
    public var memoryMiB: Int = 1024

    @Option("--cpu-seconds", value: "N", help: "CPU time one job may take (at least 1).")
    public var cpuSeconds: Int = 30

    @Option("--threads", value: "N", help: "libvips worker threads (at least 1).")
    public var threads: Int = 1

    @Flag("--version", help: "Print the version and exit.")
    public var version: Bool

    public init() {}

    public mutating func validate() throws(ValidationError) {
        for (name, value) in [("--max-pixels", maxPixels), ("--memory-mib", memoryMiB), ("--cpu-seconds", cpuSeconds),
                              ("--threads", threads)] where value < 0 {
            throw ValidationError("\(name) must not be negative, not \(value)")
        }
        cpuSeconds = max(1, cpuSeconds)
        threads = max(1, threads)
    }
}
