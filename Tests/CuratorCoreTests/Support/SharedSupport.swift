// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorTestSupport

// What every test target shares (Tests/CuratorTestSupport), under the names this one's tests use.
typealias ScratchDirectory = CuratorTestSupport.ScratchDirectory
typealias Tool = CuratorTestSupport.Tool
typealias SplitMix64 = CuratorTestSupport.SplitMix64
