// swift-tools-version:6.0
// SPDX-License-Identifier: GPL-2.0-or-later
import PackageDescription

/// Release builds leave out the run-time checks of exclusive access (each access to
/// a class's stored property or a global registered in a per-thread set and checked:
/// 4 % of the index thread's samples in a cold start). The compile-time checks stay
/// in every build, and debug builds, which the whole test suite runs, keep the
/// run-time ones, so an overlapping access is still caught there.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)),
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
        .executable(name: "curatord-thumbnailer", targets: ["curatord-thumbnailer"]),
        .executable(name: "curatord-web", targets: ["curatord-web"]),
    ],
    targets: [
        // C libraries from Debian, wrapped once and thinly.
        .systemLibrary(name: "CInotifyTools", path: "Sources/CInotifyTools"),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3"),
        .systemLibrary(name: "CSystemd", path: "Sources/CSystemd", pkgConfig: "libsystemd"),
        .systemLibrary(name: "CExif", path: "Sources/CExif", pkgConfig: "libexif"),
        .systemLibrary(name: "CACL", path: "Sources/CACL", pkgConfig: "libacl"),
        // The terminal grid of `curatorctl cull`: thumbnails as text, sixels, kitty or iTerm2 images.
        .systemLibrary(name: "CChafa", path: "Sources/CChafa", pkgConfig: "chafa"),
        // HTTP/1.1 for curatord-web (the library behind systemd-journal-gatewayd), and
        // its variadic calls with plain arguments.
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd"),
        .target(name: "CWebShim", dependencies: ["CMicroHTTPD"], path: "Sources/CWebShim"),
        // Web passwords (Argon2id), session tokens and their constant-time comparison,
        // in the daemon, which issues the system gateway's sessions.
        .systemLibrary(name: "CSodium", path: "Sources/CSodium", pkgConfig: "libsodium"),
        // Raw mode and its undoing from a signal handler (async-signal-safe, so in C).
        .target(name: "CTerminalGuard", path: "Sources/CTerminalGuard"),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib"),
        // Ratings, flags and colour labels in XMP: the Adobe XMP Toolkit through exempi.
        .systemLibrary(name: "CExempi", path: "Sources/CExempi", pkgConfig: "exempi-2.0"),
        // XXH3-128: the content hash of exact duplicates.
        .systemLibrary(name: "CXXHash", path: "Sources/CXXHash", pkgConfig: "libxxhash"),
        // Imaging: linked only into the thumbnailer worker (and later the CLI), never the daemon.
        .systemLibrary(name: "CVips", path: "Sources/CVips", pkgConfig: "vips"),
        .systemLibrary(name: "CRaw", path: "Sources/CRaw", pkgConfig: "libraw_r"),
        .target(name: "CImagingShim", dependencies: ["CVips"], path: "Sources/CImagingShim"),
        // Descriptor passing and process priority for the thumbnailer worker and its client.
        .target(name: "CWorker", path: "Sources/CWorker"),
        // What Glibc hides without _GNU_SOURCE: renameat2, ucred, statx, O_PATH, O_TMPFILE.
        .target(name: "CLinux", path: "Sources/CLinux"),

        .target(name: "CuratorSystem", dependencies: ["CLinux"], swiftSettings: faultInjection),
        // The command lines of both programs: declared options, generated help (standard library only).
        .target(name: "CuratorCommandLine", swiftSettings: strict),
        .target(name: "CuratorProtocol", swiftSettings: strict),
        .target(name: "CuratorStore", dependencies: ["CSQLite", "CuratorSystem"], swiftSettings: strict),
        // XMP: the marks (rating, flag, colour label) read from and written into sidecars.
        .target(name: "CuratorXMP", dependencies: ["CExempi", "CuratorSystem", "CLinux"], swiftSettings: strict),
        .target(
            name: "CuratorCore",
            dependencies: ["CuratorSystem", "CuratorProtocol", "CuratorStore", "CuratorThumbnails", "CuratorXMP", "CInotifyTools", "CExif",
                           "CACL", "CLinux", "CXXHash", "CSodium"],
            swiftSettings: strict),
        .target(
            name: "CuratorDaemon",
            dependencies: ["CuratorCore", "CuratorSystem", "CuratorProtocol", "CuratorThumbnails", "CuratorCommandLine", "CSystemd", "CLinux"],
            swiftSettings: strict),
        // Thumbnails by the freedesktop.org standard: naming, validity, the worker's job
        // protocol and its client. No libvips: the daemon may depend on it.
        .target(
            name: "CuratorThumbnails",
            dependencies: ["CuratorSystem", "CuratorProtocol", "CuratorCommandLine", "CLinux", "CZlib", "CWorker"],
            swiftSettings: strict),
        // The imaging engine (libvips, LibRaw): making thumbnails, contact sheets.
        .target(
            name: "CuratorImaging",
            dependencies: ["CuratorThumbnails", "CuratorProtocol", "CuratorSystem", "CVips", "CRaw", "CImagingShim", "CLinux",
                           "CZlib"],
            swiftSettings: strict),
        .executableTarget(name: "curatord", dependencies: ["CuratorDaemon"], swiftSettings: strict),
        // The web gateway: HTTP in front of the daemon's socket. It speaks the protocol
        // to the daemon and never opens a photo folder itself.
        .target(
            name: "CuratorWeb",
            dependencies: ["CMicroHTTPD", "CWebShim", "CuratorProtocol", "CuratorSystem", "CuratorCommandLine", "CLinux"],
            swiftSettings: strict),
        .executableTarget(name: "curatord-web", dependencies: ["CuratorWeb"], swiftSettings: strict),
        .testTarget(name: "CuratorWebTests", dependencies: ["CuratorWeb", "CuratorProtocol"], swiftSettings: strict),
        .executableTarget(
            name: "curatord-thumbnailer",
            dependencies: ["CuratorImaging", "CuratorThumbnails", "CuratorProtocol", "CuratorSystem", "CuratorCommandLine", "CWorker"],
            swiftSettings: strict),
        // `curatorctl cull`: the full-screen grid, driven by the protocol (CLI side: may use Foundation).
        .target(
            name: "CuratorCull",
            dependencies: ["CuratorProtocol", "CuratorSystem", "CuratorThumbnails", "CChafa", "CTerminalGuard"],
            swiftSettings: strict),
        .executableTarget(
            name: "curatorctl", dependencies: ["CuratorProtocol", "CuratorSystem", "CuratorCommandLine", "CuratorCull"],
            swiftSettings: strict),

        .testTarget(name: "CuratorCommandLineTests", dependencies: ["CuratorCommandLine"], swiftSettings: strict),
        .testTarget(name: "CuratorSystemTests", dependencies: ["CuratorSystem", "CuratorTestSupport"], swiftSettings: faultInjection),
        .testTarget(
            name: "CuratorXMPTests", dependencies: ["CuratorXMP", "CuratorSystem", "CuratorTestSupport"], swiftSettings: faultInjection),
        .testTarget(name: "CuratorStoreTests", dependencies: ["CuratorStore", "CuratorSystem"], swiftSettings: faultInjection),
        .testTarget(name: "CuratorCullTests", dependencies: ["CuratorCull", "CuratorProtocol"], swiftSettings: strict),
        .testTarget(name: "CuratorProtocolTests", dependencies: ["CuratorProtocol", "CuratorCore"], swiftSettings: strict),
        .testTarget(
            name: "CuratorCoreTests",
            dependencies: ["CuratorCore", "CuratorSystem", "CuratorStore", "CuratorProtocol", "CuratorXMP", "CuratorTestSupport"],
            swiftSettings: faultInjection),
        .testTarget(name: "CuratorDaemonTests", dependencies: ["CuratorDaemon", "CuratorProtocol"], swiftSettings: strict),
        // What test targets share: a scratch directory, a tool runner.
        .target(name: "CuratorTestSupport", dependencies: ["CuratorSystem"], path: "Tests/CuratorTestSupport", swiftSettings: strict),
        .testTarget(
            name: "CuratorThumbnailsTests",
            dependencies: ["CuratorThumbnails", "CuratorProtocol", "CuratorSystem", "CuratorCommandLine", "CuratorTestSupport"],
            swiftSettings: faultInjection),
        .testTarget(
            name: "CuratorImagingTests",
            dependencies: ["CuratorImaging", "CuratorThumbnails", "CuratorProtocol", "CuratorSystem", "CuratorTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["CuratorSystem", "CuratorProtocol", "CuratorCore", "CuratorTestSupport"],
            swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
