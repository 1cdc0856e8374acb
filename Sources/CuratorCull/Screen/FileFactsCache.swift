// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// `photo.info`'s answer for one photo, as the detail view shows it.
enum FileFacts {
    case asked
    case known(PhotoInfoResult)
    /// The daemon said no (`permission_denied`, `no_such_photo`): its message.
    case refused(String)
}

/// What the daemon read from the files of photos shown large, by id: asked once per
/// photo, forgotten when the photo changes.
struct FileFactsCache {
    private var facts: [Int64: FileFacts] = [:]

    /// What is known of the photo's file; the first time, `ask` is true and the
    /// caller asks the daemon (the answer goes to `answer`).
    mutating func lookup(_ id: Int64) -> (facts: FileFacts, ask: Bool) {
        if let known = facts[id] { return (known, false) }
        facts[id] = .asked
        return (.asked, true)
    }

    /// The daemon's answer; true when it is kept. An answer to a question dropped
    /// meanwhile (the photo changed) is not.
    mutating func answer(_ id: Int64, _ outcome: Result<PhotoInfoResult, ProtocolError>) -> Bool {
        guard case .asked? = facts[id] else { return false }
        switch outcome {
        case .success(let info): facts[id] = .known(info)
        case .failure(let error): facts[id] = .refused(error.message)
        }
        return true
    }

    /// The photo changed, moved or left: asked again when next shown large.
    mutating func forget(_ id: Int64) { facts[id] = nil }
}
