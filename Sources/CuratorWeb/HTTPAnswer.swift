// SPDX-License-Identifier: GPL-2.0-or-later

/// A whole answer, built before anything is sent: status, body and the headers of
/// this answer alone (the security headers every answer carries are `HTTPServer`'s).
struct HTTPAnswer: Sendable {
    var status: UInt32
    var contentType: String
    var body: [UInt8]
    var headers: [(name: String, value: String)] = []

    init(status: UInt32, contentType: String, body: [UInt8], headers: [(name: String, value: String)] = []) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.headers = headers
    }

    init(status: UInt32, json: [UInt8]) {
        self.init(status: status, contentType: "application/json", body: json)
    }

    init(status: UInt32, html: String, headers: [(name: String, value: String)] = []) {
        self.init(status: status, contentType: "text/html; charset=utf-8", body: Array(html.utf8), headers: headers)
    }

    /// 303 See Other to `location`: a browser follows it with a GET, and the address
    /// it shows is `location`'s.
    static func seeOther(_ location: String, headers: [(name: String, value: String)] = []) -> HTTPAnswer {
        HTTPAnswer(status: 303, contentType: "text/plain; charset=utf-8", body: [],
                   headers: [("Location", location)] + headers)
    }
}
