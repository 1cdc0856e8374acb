// SPDX-License-Identifier: GPL-2.0-or-later

/// What `delete.cancel` may do: forget waiting delete plans, and nothing else.
protocol PlanCancelScope: AnyObject {
    var plans: DeletePlans { get set }
}

extension CuratorState: PlanCancelScope {}

extension StateCommand where View == any PlanCancelScope {
    static func view(of state: CuratorState) -> any PlanCancelScope { state }
}
