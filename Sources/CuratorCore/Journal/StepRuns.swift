// SPDX-License-Identifier: GPL-2.0-or-later

/// Journal steps to be recorded alike, gathered into runs of consecutive steps so
/// that each run is one `UPDATE ... WHERE step BETWEEN` rather than one statement a
/// photo: a chunk of 4 096 photos that all ended alike is one statement. A batch
/// adds its steps ascending, an undo descending; a run grows from the step added
/// last by one in either direction, so every step inside a run was added (none is
/// recorded that was not).
struct StepRuns<Key: Equatable> {
    private(set) var runs: [(steps: ClosedRange<Int>, key: Key)] = []
    /// The step added last, an end of the last run.
    private var last: Int?

    mutating func add(_ step: Int, _ key: Key) {
        if let previous = last, let run = runs.last, run.key == key,
           (step == previous + 1 && previous == run.steps.upperBound) || (step == previous - 1 && previous == run.steps.lowerBound) {
            runs[runs.count - 1].steps = min(step, run.steps.lowerBound)...max(step, run.steps.upperBound)
        } else {
            runs.append((step...step, key))
        }
        last = step
    }

    var isEmpty: Bool { runs.isEmpty }
}
