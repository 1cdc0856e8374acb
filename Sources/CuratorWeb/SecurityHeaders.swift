// SPDX-License-Identifier: GPL-2.0-or-later

/// Headers on every answer the gateway makes. No inline script or style may run (a
/// name of a photo shown by a page cannot become code), no other site may frame a
/// page (clickjacking a delete), a browser may not guess a type, no address with a
/// secret leaves in a Referer, and no answer, which is one user's, is kept by a cache.
enum SecurityHeaders {
    static let all: [(name: String, value: String)] = [
        ("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-store"),
    ]

    /// `all`, with the answer's own headers in place of those it sets itself (a
    /// photo's bytes, the same for as long as the photo is, may be cached).
    static func merged(with own: [(name: String, value: String)]) -> [(name: String, value: String)] {
        let replaced = Set(own.map { $0.name.lowercased() })
        return all.filter { !replaced.contains($0.name.lowercased()) } + own
    }
}
