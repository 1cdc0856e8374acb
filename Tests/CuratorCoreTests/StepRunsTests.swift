// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import Testing

@Suite("Journal: steps recorded alike, gathered into runs")
struct StepRunsTests {
    private func runs(_ steps: [(Int, Character)]) -> [String] {
        var runs = StepRuns<Character>()
        for (step, key) in steps { runs.add(step, key) }
        return runs.runs.map { "\($0.steps.lowerBound)-\($0.steps.upperBound)\($0.key)" }
    }

    @Test func consecutiveStepsAlikeAreOneRunAscendingOrDescending() {
        #expect(runs([(1, "t"), (2, "t"), (3, "t")]) == ["1-3t"])
        #expect(runs([(9, "r"), (8, "r"), (7, "r")]) == ["7-9r"])
        #expect(runs([]) == [])
    }

    @Test func aGapADifferentKeyOrATurnStartsANewRun() {
        #expect(runs([(1, "t"), (2, "t"), (4, "t")]) == ["1-2t", "4-4t"], "step 3 was not added: it must not be recorded")
        #expect(runs([(1, "t"), (2, "s"), (3, "t")]) == ["1-1t", "2-2s", "3-3t"])
        // 1, 2, 3 then back to 2: a range 1-3 already holds 2; a second run says it again.
        #expect(runs([(1, "t"), (2, "t"), (3, "t"), (2, "t")]) == ["1-3t", "2-2t"])
        #expect(runs([(5, "t"), (4, "t"), (6, "t")]) == ["4-5t", "6-6t"], "6 follows 4, the step added last, not 5")
    }

    /// Every step a run covers was added, whatever the order: checked against the
    /// steps themselves over random sequences.
    @Test func aRunNeverCoversAStepNotAdded() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            var steps: [(Int, Character)] = []
            var step = Int.random(in: 1...50, using: &generator)
            for _ in 0..<Int.random(in: 0...40, using: &generator) {
                steps.append((step, Bool.random(using: &generator) ? "a" : "b"))
                step += [-1, 1, 1, 2, -3].randomElement(using: &generator) ?? 1
            }
            var runs = StepRuns<Character>()
            for (s, key) in steps { runs.add(s, key) }
            var covered: [Int: Set<Character>] = [:]
            for run in runs.runs { for s in run.steps { covered[s, default: []].insert(run.key) } }
            var added: [Int: Set<Character>] = [:]
            for (s, key) in steps { added[s, default: []].insert(key) }
            #expect(covered == added, "\(steps)")
        }
    }
}
