// SPDX-License-Identifier: GPL-2.0-or-later

/// What the gateway looks at before a request's body: the server parsed it (method,
/// path, headers, cookies, query), this holds the values it found.
struct RequestHead: Sendable {
    var method: String
    var path: String
    var host: String?
    var origin: String?
    /// The `X-Curator` header.
    var marker: String?
    /// The session cookie's value.
    var session: String?
    /// The `token` query argument of `/login`.
    var token: String?
    var contentLength: String?
    /// The `thumbnails` query argument of the event stream.
    var thumbnails: String?
    /// What a photo's answer depends on (`GET /photo/…`).
    var photo = PhotoFetcher.Conditions()
    /// The client's address (a trusted proxy's `X-Forwarded-For`, else the TCP peer).
    var client: String?
    /// `Last-Event-ID` of a reconnecting event stream.
    var lastEventID: String?
    /// Whether the browser uses HTTPS (TLS here, or a trusted proxy's `X-Forwarded-Proto`).
    var secure = false
}
