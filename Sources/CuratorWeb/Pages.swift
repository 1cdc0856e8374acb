// SPDX-License-Identifier: GPL-2.0-or-later

/// The two pages the gateway itself writes, without script or style. The page that
/// culls comes from `web/` when it exists; until then `/` says what is here.
enum Pages {
    static func login(reason: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>curatord</title></head>
        <body>
        <h1>curatord</h1>
        <p>\(reason)</p>
        <p>Open the address that <code>curatorctl web</code> printed, in this browser. It can be used once; \
        run <code>curatorctl web</code> again for a new one.</p>
        </body></html>

        """
    }

    /// The system gateway's: sign-in is `POST /api/v1/login` (the culling page, the
    /// next issue's, has the form; it needs a script to send the custom header).
    static func systemLogin(reason: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>curatord</title></head>
        <body>
        <h1>curatord</h1>
        <p>\(reason)</p>
        <p>Sign in with your user name and the web password you set with <code>curatorctl web passwd</code>: \
        <code>POST /api/v1/login</code> with <code>{"user": ..., "password": ...}</code> and the header \
        <code>X-Curator: 1</code> (docs/PROTOCOL.md, "Over HTTP").</p>
        </body></html>

        """
    }

    static let signedIn = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>curatord</title></head>
        <body>
        <h1>curatord</h1>
        <p>You are signed in to your curatord. Its API is <code>POST /api/v1/&lt;command&gt;</code> and \
        <code>GET /api/v1/events</code> (docs/PROTOCOL.md, "Over HTTP").</p>
        </body></html>

        """
}
