// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Glibc

extension Curator {
    /// SIGTERM's first step: background work finishes the step it is in and
    /// goes no further. A batch stops between two photos, each fully journaled,
    /// and is left to the journal's recovery at the next start.
    public func beginStopping() { markStopping() }

    /// Waits until no batch is in the middle of a photo: either none runs, or the
    /// running one has parked at a step boundary. False when `seconds` pass first.
    public func waitForBatchStepBoundary(seconds: Double) -> Bool {
        guard withState({ $0.batchRunning }) else { return true }
        return batchParked.wait(seconds: seconds)
    }

    /// Called by a batch after each photo's outcome is journaled and applied:
    /// once stopping, it goes no further. The thread stays parked (it holds the
    /// runner) until the process exits; the journal says where the batch stood.
    func parkIfStopping() {
        guard isStopping else { return }
        batchParked.signal()
        while true { pause() }
    }
}
