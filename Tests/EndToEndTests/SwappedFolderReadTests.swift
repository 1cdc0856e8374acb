// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Issue 54, item 2: the daemon (root, as the system service runs) reads a photo
/// for a user only through the descriptor it checked. The attacker, a user who
/// owns a folder in the share, swaps her folder `m` with a symlink to a root-only
/// folder (renameat2 RENAME_EXCHANGE, as fast as she can) while she asks for her
/// own photo's EXIF and thumbnail: had the daemon checked the path and then opened
/// it again, she would, within seconds, get the root-only photo's.
///
/// The root is polled once an hour, so that the index keeps `m/p.jpg` as it was
/// while the folder dances. Bounded: each race runs for `raceSeconds`.
@Suite(.serialized) struct SwappedFolderReadTests {
    static let raceSeconds = 12.0

    /// share/
    ///   mallory/         mallory 0755
    ///     m/             mallory 0755   p.jpg (mallory 0644)
    ///     mx -> private  (swapped with m all along)
    ///   private/         root 0700      p.jpg (root 0600)
    struct Scene {
        let daemon: Daemon
        let users: SystemUsers
        let mallory: String
        let share: String
        let photo: Int
    }

    static func scene(makePhotos: (_ mine: String, _ secret: String) throws -> Void) throws -> Scene? {
        guard SystemUsers.available else {
            print("skipped: needs root, useradd and setpriv to act as other users")
            return nil
        }
        let users = SystemUsers()
        let mallory = try users.user("mallory")
        let d = Daemon(roots: ["share"])
        let share = d.root("share")
        for folder in ["mallory/m", "private"] {
            try FileManager.default.createDirectory(atPath: share + "/" + folder, withIntermediateDirectories: true)
        }
        try makePhotos(share + "/mallory/m/p.jpg", share + "/private/p.jpg")
        chmod(share + "/private/p.jpg", 0o600)
        chmod(share + "/private", 0o700)
        chmod(share + "/mallory/m/p.jpg", 0o644)
        for path in ["mallory", "mallory/m", "mallory/m/p.jpg"] { chown(share + "/" + path, mallory.uid, mallory.gid) }
        guard symlink("../private", share + "/mallory/mx") == 0 else { throw HarnessError("symlink: \(errno)") }
        lchown(share + "/mallory/mx", mallory.uid, mallory.gid)

        let cacheDirectory = d.home.mkdir("var-cache-curatord")
        d.extraEnvironment = ["CACHE_DIRECTORY": cacheDirectory, "CONFIGURATION_DIRECTORY": d.home.mkdir("etc-curatord")]
        d.removedEnvironment = ["XDG_RUNTIME_DIR"]
        configure(d, """
            { roots: [{ name: "share", path: "\(share)", watch: "poll", poll_interval_seconds: 3600 }] }
            """)
        try d.start()
        d.letOtherUsersConnect()
        let ids = try d.client().idsByPath()
        let photo = try #require(ids["mallory/m/p.jpg"], "\(ids)")
        return Scene(daemon: d, users: users, mallory: mallory.name, share: share, photo: photo)
    }

    /// Mallory's swapping loop, as her, for `seconds`; it leaves `m` a folder.
    static func swapper(_ scene: Scene, seconds: Double) throws -> Process {
        guard let entry = getpwnam(scene.mallory) else { throw HarnessError("no user \(scene.mallory)") }
        let script = """
            import ctypes, os, sys, time
            libc = ctypes.CDLL(None, use_errno=True)
            fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY)
            end = time.monotonic() + float(sys.argv[2])
            swaps = 0
            while time.monotonic() < end:
                for _ in range(64):
                    if libc.renameat2(fd, b"m", fd, b"mx", 2) != 0:
                        sys.exit("renameat2: %d" % ctypes.get_errno())
                    swaps += 1
            print(swaps)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=\(scene.mallory)", "--regid=\(entry.pointee.pw_gid)", "--init-groups",
                             "/usr/bin/python3", "-c", script, scene.share + "/mallory", String(seconds)]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Ends the swapping and puts `m` back as her folder.
    static func stop(_ process: Process, _ scene: Scene) {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let folder = scene.share + "/mallory/"
        var st = stat()
        if lstat(folder + "m", &st) == 0, st.st_mode & S_IFMT == S_IFLNK {
            rename(folder + "m", folder + "swapped")
            rename(folder + "mx", folder + "m")
            rename(folder + "swapped", folder + "mx")
        }
    }

    /// Asks `ask` as mallory while she swaps, until it says the secret leaked or the
    /// race is over; returns (leaked, requests made).
    static func race(_ scene: Scene, _ ask: (Client) throws -> Bool) throws -> (leaked: Bool, requests: Int) {
        let connection = try scene.daemon.client(asUser: scene.mallory)
        defer { connection.end() }
        let swapping = try swapper(scene, seconds: raceSeconds)
        defer { stop(swapping, scene) }
        let deadline = Date(timeIntervalSinceNow: raceSeconds)
        var requests = 0
        while Date() < deadline && swapping.isRunning {
            requests += 1
            if try ask(connection.client) { return (true, requests) }
        }
        return (false, requests)
    }

    @Test func photoInfoNeverReadsThroughAFolderSwappedForASymlink() throws {
        guard let scene = try Self.scene(makePhotos: { mine, secret in
            try CameraJPEG.write(mine, make: "MalloryCam", model: "Own", width: 640, height: 480)
            try CameraJPEG.write(secret, make: "SecretCam", model: "Root only", width: 800, height: 600)
        }) else { return }
        defer {
            scene.daemon.stop()
            scene.users.remove()
        }
        var answered = 0
        let outcome = try Self.race(scene) { client in
            let answer = try client.request(["cmd": "photo.info", "photo": scene.photo])
            let result = answer["result"] as? [String: Any] ?? [:]
            if result["camera_make"] as? String == "MalloryCam" { answered += 1 }
            return "\(answer)".contains("SecretCam") || result["width"] as? Int == 800
        }
        #expect(!outcome.leaked, "the root-only photo's EXIF reached mallory after \(outcome.requests) requests")
        #expect(outcome.leaked || outcome.requests > 200, "the race ran: \(outcome.requests) requests")
        #expect(answered > 0, "some answers were read from her own photo")
        let mine = try scene.daemon.client().result(["cmd": "photo.info", "photo": scene.photo])
        #expect(mine["camera_make"] as? String == "MalloryCam", "\(mine)")
    }

    @Test func thumbnailsNeverShowAPhotoReachedThroughAFolderSwappedForASymlink() throws {
        var secretSize = 0
        guard let scene = try Self.scene(makePhotos: { mine, secret in
            try ThumbnailTests.sample(["marker", mine, "--width", "600", "--height", "400"])
            try ThumbnailTests.sample(["marker", secret, "--width", "640", "--height", "480"])
            secretSize = (try FileManager.default.attributesOfItem(atPath: secret)[.size] as? Int) ?? 0
        }) else { return }
        defer {
            scene.daemon.stop()
            scene.users.remove()
        }
        let root = try scene.daemon.client()
        try ThumbnailTests.waitForBacklog(root, ready: 2, failed: 0)
        // A thumbnail is stamped with the size of the file it was made from (Thumb::Size).
        let stamp = Array("Thumb::Size\0\(secretSize)".utf8)
        var served = 0
        let outcome = try Self.race(scene) { client in
            let answer = try client.request(["cmd": "thumbnail", "ids": [scene.photo], "data": true])
            let entry = ((answer["result"] as? [String: Any])?["thumbnails"] as? [[String: Any]])?.first
            guard let data = (entry?["data"] as? String).flatMap({ Data(base64Encoded: $0) }) else { return false }
            served += 1
            let bytes = [UInt8](data)
            return bytes.count >= stamp.count && (0...(bytes.count - stamp.count)).contains { bytes[$0..<($0 + stamp.count)].elementsEqual(stamp) }
        }
        #expect(!outcome.leaked, "a thumbnail of the root-only photo reached mallory after \(outcome.requests) requests")
        #expect(outcome.leaked || (outcome.requests > 50 && served > 0), "the race ran: \(outcome.requests) requests, \(served) thumbnails served")
    }
}
