// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Foundation

/// How many photos a batch or an undo handles between two syncs and commits.
/// Bigger chunks mean fewer syncs; smaller ones mean earlier progress reports and
/// fewer directory descriptors held. 512 photos sync 10 000 in 20 rounds.
struct ChunkPolicy: Sendable {
    var maxPhotos: Int
    /// Distinct photo directories per chunk: each stays open until the chunk ends.
    var maxDirectories: Int

    static let standard = ChunkPolicy(maxPhotos: 512, maxDirectories: 128)

    /// `CURATORD_BATCH_CHUNK=<n>` (crash tests: several chunks in a small batch).
    static let environmentVariable = "CURATORD_BATCH_CHUNK"

    static let configured: ChunkPolicy = {
        guard let text = ProcessInfo.processInfo.environment[environmentVariable] else { return .standard }
        guard let size = Int(text), size >= 1 else {
            log.error("\(environmentVariable)=\(text) is not a positive number; ignored")
            return .standard
        }
        return ChunkPolicy(maxPhotos: size, maxDirectories: standard.maxDirectories)
    }()

    /// Splits `indices` (in order) into chunks; `directory(i)` names the folder of photo i.
    func chunks<Key: Hashable>(_ indices: [Int], directory: (Int) -> Key) -> [[Int]] {
        var result: [[Int]] = []
        var current: [Int] = []
        var folders: Set<Key> = []
        for index in indices {
            let folder = directory(index)
            if current.count >= maxPhotos || (!folders.contains(folder) && folders.count >= maxDirectories) {
                result.append(current)
                current = []
                folders = []
            }
            current.append(index)
            folders.insert(folder)
        }
        if !current.isEmpty { result.append(current) }
        return result
    }
}
