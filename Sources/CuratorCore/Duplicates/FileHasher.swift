// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import CuratorSystem
import Glibc

/// Which hash of a file a read makes (`DuplicateStages`).
enum HashStage: Sendable, Hashable {
    /// The first and last `DuplicateStages.blockSize` bytes (the whole file when
    /// that covers it).
    case head
    /// Every byte.
    case full
}

/// Reads a file for one of its hashes, through one buffer the caller owns (reads
/// are bounded by it, whatever the file's size). The file must still be the one
/// the index knows: its size and mtime are checked before and after the read, and
/// a file that changed meanwhile gives no hash (nil): it is hashed again once the
/// index has its new size and mtime. Errors are thrown, never trapped on.
enum FileHasher {
    /// The read buffer of a hashing thread.
    static let bufferSize = 1 << 20

    static func hash(path: ByteString, stage: HashStage, size: Int64, mtimeNs: Int64,
                     buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> ContentHash? {
        // O_NONBLOCK: a FIFO put where a photo was must not hang the hasher in open(2).
        let descriptor = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK | curator_O_NOFOLLOW)
        return try descriptor.closeAfter(path: path.lossyString) { (descriptor) throws(SystemError) -> ContentHash? in
            do throws(SystemError) {
                guard try isUnchanged(descriptor, size: size, mtimeNs: mtimeNs) else { return nil }
                guard let hasher = ContentHasher() else { throw SystemError("XXH3_createState", errno: Errno(ENOMEM)) }
                let block = Int64(DuplicateStages.blockSize)
                if stage == .head && size > DuplicateStages.wholeInHead {
                    try feed(hasher, descriptor, from: 0, count: block, buffer)
                    try feed(hasher, descriptor, from: size - block, count: block, buffer)
                } else {
                    try feed(hasher, descriptor, from: 0, count: size, buffer)
                }
                guard try isUnchanged(descriptor, size: size, mtimeNs: mtimeNs) else { return nil }
                return hasher.digest()
            } catch {
                throw SystemError(error.call, path: path.lossyString, errno: error.errno)
            }
        }
    }

    /// What a batch's reads may ask the kernel to read ahead, in all.
    static let prefetchBudget: Int64 = 64 << 20

    /// Asks the kernel to start the reads of a batch of files all at once, before
    /// they are hashed one by one: on a cold cache the disk then has many requests
    /// in flight, not one at a time. A hint only: a file that cannot be opened is
    /// skipped (its hash says why), and what is not read ahead is read when hashed.
    static func prefetch(_ reads: [(path: ByteString, stage: HashStage, size: Int64)]) {
        var budget = prefetchBudget
        for read in reads where budget > 0 && read.size > 0 {
            guard let descriptor = try? FileDescriptor.open(read.path, O_RDONLY | O_NONBLOCK | curator_O_NOFOLLOW) else { continue }
            defer { try? descriptor.close() }  // read only
            // A device put where a photo was is not read ahead (nor hashed).
            guard (try? FileStatus.of(descriptor: descriptor))?.isRegularFile == true else { continue }
            let block = Int64(DuplicateStages.blockSize)
            if read.stage == .head && read.size > DuplicateStages.wholeInHead {
                descriptor.willNeed(at: 0, count: block)
                descriptor.willNeed(at: read.size - block, count: block)
                budget -= 2 * block
            } else {
                let count = min(read.size, budget)
                descriptor.willNeed(at: 0, count: count)
                budget -= count
            }
        }
    }

    private static func isUnchanged(_ descriptor: FileDescriptor, size: Int64, mtimeNs: Int64) throws(SystemError) -> Bool {
        let status = try FileStatus.of(descriptor: descriptor)
        guard status.isRegularFile else { throw SystemError("read", errno: .invalid) }
        return status.size == size && status.mtimeNanoseconds == mtimeNs
    }

    /// Hashes `count` bytes from `offset`, a buffer at a time. A file shorter than
    /// the index says ends the read early: the check after it catches the change.
    private static func feed(_ hasher: borrowing ContentHasher, _ descriptor: FileDescriptor, from offset: Int64, count: Int64,
                             _ buffer: UnsafeMutableRawBufferPointer) throws(SystemError) {
        var done: Int64 = 0
        while done < count {
            let want = Int(min(Int64(buffer.count), count - done))
            let piece = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want])
            let got = try descriptor.read(at: offset + done, into: piece)
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<got]))
            if got < want { return }
            done += Int64(got)
        }
    }
}
