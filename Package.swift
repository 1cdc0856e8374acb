// swift-tools-version:6.0
// SPDX-License-Identifier: GPL-2.0-or-later
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

/// Debug builds (tests, and the daemon the end-to-end tests start) carry the hook
/// through which tests make a system call fail (`FaultPlan`); release builds call
/// libc directly.
let faultInjection: [SwiftSetting] = strict + [
    .define("CURATOR_FAULT_INJECTION", .when(configuration: .debug)),
]

let package = Package(
    name: "curatord",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "curatord", targets: ["curatord"]),
        .executable(name: "curatorctl", targets: ["curatorctl"]),
    ],
    targets: [
        // C libraries from Debian, wrapped once and thinly.
        .systemLibrary(name: "CInotifyTools", path: "Sources/CInotifyTools"),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3"),
        .systemLibrary(name: "CSystemd", path: "Sources/CSystemd", pkgConfig: "libsystemd"),
        .systemLibrary(name: "CExif", path: "Sources/CExif", pkgConfig: "libexif"),
        // The terminal grid of `curatorctl cull`: thumbnails as text, sixels, kitty or iTerm2 images.
        .systemLibrary(name: "CChafa", path: "Sources/CChafa", pkgConfig: "chafa"),
        // Raw mode and its undoing from a signal handler (async-signal-safe, so in C).
        .target(name: "CTerminalGuard", path: "Sources/CTerminalGuard"),
        // What Glibc hides without _GNU_SOURCE: renameat2, ucred, statx, O_PATH, O_TMPFILE.
        .target(name: "CLinux", path: "Sources/CLinux"),

        .target(name: "CuratorSystem", dependencies: ["CLinux"], swiftSettings: faultInjection),
        // The command lines of both programs: declared options, generated help (standard library only).
        .target(name: "CuratorCommandLine", swiftSettings: strict),
        .target(name: "CuratorProtocol", swiftSettings: strict),
        .target(name: "CuratorStore", dependencies: ["CSQLite", "CuratorSystem"], swiftSettings: strict),
        .target(
            name: "CuratorCore",
            dependencies: ["CuratorSystem", "CuratorProtocol", "CuratorStore", "CInotifyTools", "CExif", "CLinux"],
            swiftSettings: strict),
        .target(
            name: "CuratorDaemon",
            dependencies: ["CuratorCore", "CuratorSystem", "CuratorProtocol", "CuratorCommandLine", "CSystemd", "CLinux"],
            swiftSettings: strict),
        .executableTarget(name: "curatord", dependencies: ["CuratorDaemon"], swiftSettings: strict),
        // `curatorctl cull`: the full-screen grid, driven by the protocol (CLI side: may use Foundation).
        .target(
            name: "CuratorCull",
            dependencies: ["CuratorProtocol", "CuratorSystem", "CChafa", "CTerminalGuard"],
            swiftSettings: strict),
        .executableTarget(
            name: "curatorctl", dependencies: ["CuratorProtocol", "CuratorSystem", "CuratorCommandLine", "CuratorCull"],
            swiftSettings: strict),

        .testTarget(name: "CuratorCommandLineTests", dependencies: ["CuratorCommandLine"], swiftSettings: strict),
        .testTarget(name: "CuratorSystemTests", dependencies: ["CuratorSystem"], swiftSettings: faultInjection),
        .testTarget(name: "CuratorStoreTests", dependencies: ["CuratorStore", "CuratorSystem"], swiftSettings: faultInjection),
        .testTarget(name: "CuratorCullTests", dependencies: ["CuratorCull", "CuratorProtocol"], swiftSettings: strict),
        .testTarget(name: "CuratorProtocolTests", dependencies: ["CuratorProtocol"], swiftSettings: strict),
        .testTarget(
            name: "CuratorCoreTests",
            dependencies: ["CuratorCore", "CuratorSystem", "CuratorStore", "CuratorProtocol"],
            swiftSettings: faultInjection),
        .testTarget(name: "CuratorDaemonTests", dependencies: ["CuratorDaemon", "CuratorProtocol"], swiftSettings: strict),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["CuratorSystem", "CuratorProtocol"],
            swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
