// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// What a user may see of the index: the photos of folders that user could `ls`
/// (`FolderAccess`). Every read goes through here: views (and so listings,
/// positions, selection by folder, glob or date), ids named by a client, the
/// selections, events, and status counts. A photo a user may not see does not
/// exist for them: an id is `no_such_photo`, a folder `no_such_folder`, never
/// `permission_denied`, so that its existence does not leak either.
extension CuratorState {
    /// Whether `uid` may list the folder `folderID`. One the index dropped already
    /// (its photos removed) keeps the verdict it had, which tells a user who saw
    /// its photos that they went even when the directory itself is gone.
    func mayList(folderID: Int32, root: Int32, uid: UInt32) -> Bool {
        if uid == 0 { return true }
        guard let path = library.folderPath(folderID), let rootPath = roots.absolutePath(root: root, relative: .empty) else {
            return false
        }
        return access.mayList(folder: folderID, root: root, path: path, uid: uid, rootPath: rootPath)
    }

    /// Whether `uid` may see `photo`; for a group's shown photo, the whole group (a
    /// group's files are in one folder).
    func maySee(_ photo: Photo, uid: UInt32) -> Bool {
        uid == 0 || mayList(folderID: photo.folderID, root: photo.rootID, uid: uid)
    }

    /// Whether `uid` may list every folder of `root` (of every root when nil): then
    /// what it is shown is what root is shown, computed once for both. Costs the
    /// folders once per folder epoch (a folder dropped or moved, a rollback) or
    /// change of permissions; in between only the folders added since the last
    /// answer are checked (a scan adds a few per step: `status` during a scan
    /// walked every folder per request when any change dropped the answer).
    func listsEverything(uid: UInt32, root: Int32? = nil) -> Bool {
        if uid == 0 { return true }
        let log = library.linkedFolders
        let known = access.knownToListEverything(uid: uid, root: root, folderEpoch: library.folderEpoch)
        if let known, !known.answer || known.checked >= log.count { return known.answer }
        let folders: [Int32]
        if let known {
            folders = Array(log[known.checked...])
        } else {
            folders = Array(root.map { library.folderIDs(inRoot: $0) } ?? Set(library.folders.keys))
        }
        var answer = true
        for id in folders {
            guard let folder = library.folders[id], root == nil || folder.rootID == root else { continue }
            if !mayList(folderID: id, root: folder.rootID, uid: uid) {
                answer = false
                break
            }
        }
        access.recordListsEverything(answer, checked: log.count, uid: uid, root: root)
        return answer
    }

    /// A root's photos (a group once), files (every file of a group), bytes and
    /// photos awaiting their capture time, as `uid` may see them.
    func rootCounts(_ root: Int32, uid: UInt32) -> (photos: Int, files: Int, bytes: Int64, capturePending: Int) {
        if listsEverything(uid: uid, root: root) {
            return (library.listedByRoot[root] ?? 0, library.countByRoot[root] ?? 0, library.bytesByRoot[root] ?? 0,
                    library.pendingCaptureByRoot[root] ?? 0)
        }
        var counts = (photos: 0, files: 0, bytes: Int64(0), capturePending: 0)
        for folder in library.folderIDs(inRoot: root) where mayList(folderID: folder, root: root, uid: uid) {
            for id in library.photoIDs(inFolder: folder) {
                guard let photo = library.photo(id) else { continue }
                // A group counts once (its shown photo), its files' bytes all.
                if photo.role == .shown { counts.photos += 1 }
                counts.files += 1
                counts.bytes += photo.size
                if photo.capture == .pending { counts.capturePending += 1 }
            }
        }
        return counts
    }

    /// The session's photos that its owner may no longer see (a folder made
    /// unreadable to them since they were selected) leave its selection, as photos
    /// gone from disk do; the session's followers are told. A photo of a share
    /// folder whose permissions were not read yet (`FolderAccess`: after a start,
    /// or while the share hangs) is hidden but stays selected: it is not known to be unseen.
    func withoutUnseen(_ state: SessionState, _ key: SessionKey) -> SessionState {
        guard key.uid != 0, !state.selection.isEmpty, !listsEverything(uid: key.uid) else { return state }
        let unseen = state.selection.items.filter { id in
            guard let photo = library.listed(id), !maySee(photo, uid: key.uid),
                  let path = library.folderPath(photo.folderID) else { return false }
            return !access.unread(root: photo.rootID, path: path)
        }
        guard !unseen.isEmpty, let updated = sessions.remove(unseen, from: key) else { return state }
        sendSelectionEvent(key, updated)
        return updated
    }
}
