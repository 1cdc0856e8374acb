// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// How `curatorctl cull` was asked to run.
public struct CullOptions: Sendable {
    public var socketPath: String
    /// The session to work in (`default` when nil).
    public var session: String?
    /// A view to set first; nil keeps the session's.
    public var view: ViewSpec?
    /// Forced by --graphics; nil detects.
    public var graphics: GraphicsMode?
    /// Whether a mark (P, X, U, 0-9) moves the cursor to the next photo; `a` toggles it.
    public var advance: Bool

    public init(socketPath: String, session: String?, view: ViewSpec?, graphics: GraphicsMode?, advance: Bool = false) {
        self.advance = advance
        self.socketPath = socketPath
        self.session = session
        self.view = view
        self.graphics = graphics
    }
}
