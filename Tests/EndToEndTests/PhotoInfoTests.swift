// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// `photo.info`: the daemon reads a photo's camera and size from its file when
/// asked, with the asking user's permissions.
@Suite(.serialized)
struct PhotoInfoTests {
    @Test func answersTheCameraAndTheSizeTheFileHolds() throws {
        let d = Daemon()
        let root = d.root()
        try CameraJPEG.write(root + "/cam.jpg", make: "Canon ", model: "Canon EOS R5", orientation: 6, width: 640, height: 480)
        Files.write(root + "/plain.jpg", "not a JPEG at all")
        try d.start()
        defer { d.stop() }
        let client = try d.client()
        let ids = try client.idsByPath()
        let cam = try #require(ids["cam.jpg"]), plain = try #require(ids["plain.jpg"])

        let info = try client.result(["cmd": "photo.info", "photo": cam])
        #expect(info["camera_make"] as? String == "Canon" && info["camera_model"] as? String == "Canon EOS R5", "\(info)")
        #expect(info["width"] as? Int == 640 && info["height"] as? Int == 480 && info["orientation"] as? Int == 6, "\(info)")
        #expect(info["unreadable"] == nil && info["lens"] == nil)
        let photo = try #require(info["photo"] as? [String: Any])
        #expect(photo["id"] as? Int == cam && photo["path"] as? String == "cam.jpg" && photo["type"] as? String == "jpeg", "\(photo)")
        #expect(photo["position"] == nil)

        // Nothing to read in it: the record alone.
        let bare = try client.result(["cmd": "photo.info", "photo": plain])
        #expect(bare["camera_model"] == nil && bare["width"] == nil && bare["unreadable"] == nil, "\(bare)")

        // Read when asked, not from the index: a new camera's file answers with it.
        try CameraJPEG.write(root + "/cam.jpg", make: "NIKON CORPORATION", model: "NIKON Z 6", width: 6048, height: 4024)
        let again = try client.result(["cmd": "photo.info", "photo": cam])
        #expect(again["camera_make"] as? String == "NIKON CORPORATION" && again["camera_model"] as? String == "NIKON Z 6", "\(again)")
        #expect(again["width"] as? Int == 6048 && again["orientation"] as? Int == 1)

        // Gone behind the index's back (before the watcher has told it): said, not failed.
        try FileManager.default.removeItem(atPath: root + "/cam.jpg")
        let gone = try client.request(["cmd": "photo.info", "photo": cam])
        if gone["ok"] as? Bool == true {
            let result = gone["result"] as? [String: Any] ?? [:]
            #expect((result["unreadable"] as? String)?.hasPrefix("not_there: ") == true, "\(gone)")
        } else {
            #expect((gone["error"] as? [String: Any])?["code"] as? String == "no_such_photo", "\(gone)")
        }

        #expect(try client.errorCode(["cmd": "photo.info", "photo": 999_999]) == "no_such_photo")
        #expect(try client.errorCode(["cmd": "photo.info"]) == "invalid_argument")
        #expect(try client.errorCode(["cmd": "photo.info", "photo": "x"]) == "invalid_argument")
    }

    /// The exposure (shutter, aperture, ISO, focal length, lens) exiftool wrote is
    /// what `photo.info` answers: each value equal to what exiftool reads back.
    @Test func answersTheExposureAsExiftoolReadsIt() throws {
        let d = Daemon()
        let root = d.root()
        try ThumbnailTests.sample(["marker", root + "/shot.jpg", "--width", "64", "--height", "48"])
        let written = try Tool.run(ExifTool.path, ["-q", "-overwrite_original", "-ExposureTime=1/3200", "-FNumber=5.6", "-ISO=6400",
                                                   "-FocalLength=105", "-LensModel=RF24-105mm F4 L IS USM", root + "/shot.jpg"], timeout: 60)
        try #require(written.status == 0, "exiftool: \(written.output)")
        try ThumbnailTests.sample(["marker", root + "/bare.jpg", "--width", "64", "--height", "48"])
        let reference = try ExifTool.tags(["ExposureTime", "FNumber", "ISO", "FocalLength", "LensModel"], of: root + "/shot.jpg",
                                          numeric: true)
        try #require(reference.count == 5, "exiftool reads \(reference)")
        try d.start()
        defer { d.stop() }
        let client = try d.client()
        let ids = try client.idsByPath()
        let info = try client.result(["cmd": "photo.info", "photo": try #require(ids["shot.jpg"])])
        for (key, tag) in [("exposure_time", "ExposureTime"), ("f_number", "FNumber"), ("iso", "ISO"), ("focal_length", "FocalLength")] {
            let expected = try #require(reference[tag].flatMap(Double.init), "\(tag): \(reference)")
            let answered = try #require((info[key] as? NSNumber)?.doubleValue, "\(key) missing: \(info)")
            #expect(abs(answered - expected) <= 1e-9 * max(1, abs(expected)), "\(key) \(answered), exiftool \(tag) \(expected)")
        }
        #expect(info["iso"] as? Int == 6400, "\(info)")
        #expect(info["lens"] as? String == reference["LensModel"], "\(info)")
        // A file that records none of them: the keys are absent, not 0.
        let bare = try client.result(["cmd": "photo.info", "photo": try #require(ids["bare.jpg"])])
        #expect(["exposure_time", "f_number", "iso", "focal_length"].allSatisfy { bare[$0] == nil }, "\(bare)")
    }

    /// A group is asked by its id (issue 15), also once the file that stood for it
    /// has gone and another member shows it.
    @Test func answersForAGroupWhoseShownFileWentElsewhere() throws {
        let d = Daemon()
        let root = d.root()
        try CameraJPEG.write(root + "/IMG_1.JPG", make: "Canon ", model: "Canon EOS R5", width: 640, height: 480)
        Files.write(root + "/IMG_1.CR2", "raw bytes")
        try d.start()
        defer { d.stop() }
        let client = try d.client()
        let group = try #require(try client.idsByPath()["IMG_1.JPG"])
        let info = try client.result(["cmd": "photo.info", "photo": group])
        #expect(info["camera_model"] as? String == "Canon EOS R5", "\(info)")

        // Another program takes the JPEG away: the group stays, shown by its RAW.
        try FileManager.default.removeItem(atPath: root + "/IMG_1.JPG")
        _ = try client.result(["cmd": "sync"])
        #expect(try client.idsByPath()["IMG_1.CR2"] == group)
        let after = try client.result(["cmd": "photo.info", "photo": group])
        let photo = try #require(after["photo"] as? [String: Any], "\(after)")
        #expect(photo["id"] as? Int == group && photo["path"] as? String == "IMG_1.CR2", "\(photo)")
    }

    /// One request line sent as the user `name` (setpriv, the user's groups), the answer line back.
    static func request(_ d: Daemon, _ line: String, asUser name: String) throws -> [String: Any] {
        guard let entry = getpwnam(name) else { throw HarnessError("no user \(name)") }
        let script = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(sys.argv[2].encode() + b"\\n")
            data = b""
            while not data.endswith(b"\\n"):
                chunk = s.recv(65536)
                if not chunk: break
                data += chunk
            sys.stdout.write(data.decode())
            """
        let out = try Tool.run("/usr/bin/setpriv", ["--reuid=\(name)", "--regid=\(entry.pointee.pw_gid)", "--init-groups",
                                                     "/usr/bin/python3", "-c", script, d.socket, line])
        guard out.status == 0, let object = try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any] else {
            throw HarnessError("python3 as \(name): \(out.status) \(out.stdout) \(out.stderr)")
        }
        return object
    }

    /// Under the system service (the daemon as root), a user gets the facts of a
    /// file they could read themselves; one they could not is permission_denied; a
    /// photo of a folder they may not list does not exist for them.
    @Test func followsTheAskingUsersPermissions() throws {
        guard SystemUsers.available else {
            print("skipped: needs root, useradd and setpriv to act as another user")
            return
        }
        let users = SystemUsers()
        defer { users.remove() }
        let reader = try users.user("infoer")
        let d = Daemon(roots: ["share"])
        let share = d.root("share")
        for folder in ["public", "private"] {
            try FileManager.default.createDirectory(atPath: share + "/" + folder, withIntermediateDirectories: true)
        }
        for name in ["public/open.jpg", "public/closed.jpg", "private/hidden.jpg"] {
            try CameraJPEG.write(share + "/" + name, make: "FUJIFILM", model: "X-T5", width: 7728, height: 5152)
        }
        chmod(share + "/public/closed.jpg", 0o600)
        chmod(share + "/private", 0o700)
        try d.start()
        defer { d.stop() }
        d.letOtherUsersConnect()
        let ids = try d.client().idsByPath()
        let open = try #require(ids["public/open.jpg"]), closed = try #require(ids["public/closed.jpg"])
        let hidden = try #require(ids["private/hidden.jpg"])

        let granted = try Self.request(d, #"{"id":1,"cmd":"photo.info","photo":\#(open)}"#, asUser: reader.name)
        let result = granted["result"] as? [String: Any] ?? [:]
        #expect(result["camera_model"] as? String == "X-T5" && result["width"] as? Int == 7728, "\(granted)")

        let refused = try Self.request(d, #"{"id":2,"cmd":"photo.info","photo":\#(closed)}"#, asUser: reader.name)
        let refusal = refused["error"] as? [String: Any] ?? [:]
        #expect(refusal["code"] as? String == "permission_denied" && refusal["photos"] as? [Int] == [closed], "\(refused)")
        #expect(!"\(refused)".contains("X-T5"))

        let unseen = try Self.request(d, #"{"id":3,"cmd":"photo.info","photo":\#(hidden)}"#, asUser: reader.name)
        let unknown = try Self.request(d, #"{"id":3,"cmd":"photo.info","photo":999999}"#, asUser: reader.name)
        #expect((unseen["error"] as? [String: Any])?["code"] as? String == "no_such_photo", "\(unseen)")
        #expect((unseen["error"] as? [String: Any])?["message"] as? String
                == ((unknown["error"] as? [String: Any])?["message"] as? String)?.replacingOccurrences(of: "999999", with: "\(hidden)"))
        // Root reads them all.
        #expect(try d.client().result(["cmd": "photo.info", "photo": closed])["camera_model"] as? String == "X-T5")
    }
}
