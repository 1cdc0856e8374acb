// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// HTTPS and reverse proxies (issue 51): the gateway with a certificate the test makes
/// with openssl, spoken to by Python's ssl; plain HTTP refused off loopback; the
/// forwarded headers believed from trusted proxies alone.
@Suite(.serialized)
struct WebTLSTests {
    /// A self-signed certificate for 127.0.0.1 and its key, PEM.
    static func certificate(in dir: TestDirectory) throws -> (certificate: String, key: String) {
        let certificate = dir.sub("cert.pem"), key = dir.sub("key.pem")
        let out = try Tool.run("/usr/bin/openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                                                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-days", "2",
                                                    "-keyout", key, "-out", certificate])
        guard out.status == 0 else { throw HarnessError("openssl: \(out.stderr)") }
        return (certificate, key)
    }

    @Test func anAddressOffLoopbackWithoutTLSIsRefusedSayingWhatToGive() throws {
        let dir = TestDirectory("web-tls")
        for address in ["0.0.0.0", "192.0.2.1"] {
            let out = try Command.run(WebGatewayProcess.binary, ["--socket", dir.sub("none.sock"), "--listen", address], timeout: 20)
            #expect(out.status == 2, "\(address): \(out.status) \(out.stderr)")
            #expect(out.stdout.isEmpty)
            #expect(out.stderr.contains("--tls-cert") && out.stderr.contains("--tls-key") && out.stderr.contains(address), "\(out.stderr)")
        }
        let half = try Command.run(WebGatewayProcess.binary, ["--socket", dir.sub("none.sock"), "--tls-cert", dir.sub("c.pem")], timeout: 20)
        #expect(half.status == 2 && half.stderr.contains("--tls-key"), "\(half.stderr)")
    }

    @Test func withACertificateTheGatewaySpeaksTLSOnly() throws {
        let d = try WebGatewayTests.daemon()
        let (certificate, key) = try Self.certificate(in: d.home)
        // Every address, so also off loopback: allowed because of TLS.
        let web = try WebGatewayProcess(d, arguments: ["--listen", "0.0.0.0", "--tls-cert", certificate, "--tls-key", key])
        #expect(web.printed.hasPrefix("https://127.0.0.1:\(web.port)/login?token="), "\(web.printed)")
        web.tls = ["ca": certificate]
        let raw = try WebGatewayProcess.client("request", ["port": web.port, "method": "GET", "path": "/login?token=" + web.token,
                                                           "tls": ["ca": certificate]])
        let login = WebGatewayProcess.answer(raw)
        #expect(login.status == 303, "\(raw)")
        let version = raw["tls_version"] as? String
        #expect(version == "TLSv1.3" || version == "TLSv1.2", "\(raw)")
        #expect(raw["compression"] is NSNull, "no TLS compression: \(raw)")
        let cookie = try #require(login.header("Set-Cookie"))
        let attributes = cookie.split(separator: ";").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(Set(attributes).isSuperset(of: ["Secure", "HttpOnly", "SameSite=Strict", "Path=/"]), "\(cookie)")
        #expect(!attributes.contains { $0.lowercased().hasPrefix("domain") }, "a __Host- cookie has no Domain: \(cookie)")
        #expect(cookie.hasPrefix("__Host-curator_session="), "over HTTPS the cookie is __Host- prefixed: \(cookie)")
        let session = try #require(cookie.split(separator: ";").first?.split(separator: "=").last.map(String.init))

        let status = try web.api("status", cookie: session, headers: ["Origin": "https://127.0.0.1:\(web.port)"])
        #expect(status.status == 200, "\(status)")
        // The same token under the bare name (a cookie a plain-HTTP page or a sibling
        // host could have planted) is no session over HTTPS.
        let bare = try web.api("status", cookie: session, cookieName: "curator_session", headers: ["Origin": "https://127.0.0.1:\(web.port)"])
        #expect(bare.status == 401, "\(bare)")
        // A page over plain HTTP is not this gateway's origin.
        #expect(try web.api("status", cookie: session, headers: ["Origin": "http://127.0.0.1:\(web.port)"]).status == 403)

        // TLS 1.2 is served; older is not, and neither is plain HTTP on the port.
        let twelve = try WebGatewayProcess.client("request", ["port": web.port, "method": "GET", "path": "/",
                                                              "tls": ["ca": certificate, "max_version": "1.2"]])
        #expect(twelve["tls_version"] as? String == "TLSv1.2", "\(twelve)")
        let eleven = try WebGatewayProcess.client("request", ["port": web.port, "method": "GET", "path": "/",
                                                              "tls": ["ca": certificate, "max_version": "1.1"]])
        #expect(eleven["error"] != nil && eleven["status"] == nil, "\(eleven)")
        let plain = try WebGatewayProcess.client("request", ["port": web.port, "method": "GET", "path": "/"])
        #expect(plain["status"] as? Int != 200 && plain["status"] as? Int != 401, "\(plain)")
    }

    @Test func forwardedHeadersAreBelievedFromTrustedProxiesAlone() throws {
        let d = try WebGatewayTests.daemon()
        for (proxy, trusted) in [("127.0.0.1", true), ("192.0.2.1", false)] {
            let web = try WebGatewayProcess(d, arguments: ["--trusted-proxy", proxy])
            let forwarded = ["X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"]
            let login = try web.request("GET", "/login?token=" + web.token, headers: forwarded)
            #expect(login.status == 303)
            let cookie = try #require(login.header("Set-Cookie"))
            let secure = cookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.contains("Secure")
            #expect(secure == trusted, "\(proxy): \(cookie)")
            #expect(cookie.hasPrefix("__Host-curator_session=") == trusted, "\(proxy): \(cookie)")
            let session = try #require(cookie.split(separator: ";").first?.split(separator: "=").last.map(String.init))
            let name = trusted ? "__Host-curator_session" : "curator_session"
            let https = try web.api("status", cookie: session, cookieName: name,
                                    headers: forwarded.merging(["Origin": "https://127.0.0.1:\(web.port)"]) { $1 })
            #expect((https.status == 200) == trusted, "\(proxy): \(https.status)")
            let http = try web.api("status", cookie: session, cookieName: name,
                                   headers: forwarded.merging(["Origin": "http://127.0.0.1:\(web.port)"]) { $1 })
            #expect((http.status == 200) == !trusted, "\(proxy): \(http.status)")
            web.stop()
        }
    }
}
