// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorWeb
import Testing

@Suite struct HostPolicyTests {
    let policy = HostPolicy(port: 8123)

    @Test func onlyTheGatewaysOwnNamesAndPortAreHosts() {
        #expect(policy.allowsHost("127.0.0.1:8123"))
        #expect(policy.allowsHost("LOCALHOST:8123"))
        #expect(!policy.allowsHost("127.0.0.1"))
        #expect(!policy.allowsHost("127.0.0.1:8124"))
        #expect(!policy.allowsHost("evil.example:8123"))
        #expect(!policy.allowsHost(nil))
    }

    @Test func aChangeNeedsTheHeaderAndNoForeignOrigin() {
        #expect(policy.allowsChange(marker: "1", origin: nil))
        #expect(policy.allowsChange(marker: "1", origin: "http://127.0.0.1:8123"))
        #expect(policy.allowsChange(marker: "1", origin: "http://localhost:8123"))
        #expect(!policy.allowsChange(marker: nil, origin: "http://127.0.0.1:8123"))
        #expect(!policy.allowsChange(marker: "0", origin: nil))
        #expect(!policy.allowsChange(marker: "1", origin: "http://evil.example:8123"))
        #expect(!policy.allowsChange(marker: "1", origin: "https://127.0.0.1:8123"))
        #expect(!policy.allowsChange(marker: "1", origin: "null"))
    }
}
