// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import CuratorCull
import CuratorProtocol

/// `cull`: the full-screen grid (CuratorCull does the terminal; this is its command line).
struct CullCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "cull",
        abstract: "Cull in the terminal: a full-screen grid of the photos to pick and trash, live as others change them.",
        discussion: """
            Keys: arrows or hjkl move, PgUp/PgDn page, Enter shows the photo large; v switches between view and select \
            mode (leaving select mode clears the selection); Space selects, numbered in the order picked; d moves the \
            selection to the trash after asking; Ctrl+Z puts the last batch back; p picks, x rejects, u unflags the \
            photo under the cursor, 0-5 give it stars (0: none), 6-9 a colour label (red, yellow, green, blue; the same \
            key again takes it off), all written into its XMP sidecar; a toggles moving to the next photo after each; \
            / filters (a glob, or dates like \
            2024-05..2024-06), s sorts, r reverses; o opens the cursor's folder as a page ([ and ] the folders beside \
            it, Backspace back): another page clears the selection; ? lists the keys; q quits. Pictures are drawn \
            with sixel, kitty or iTerm2 images when the terminal has them, else with coloured Unicode blocks.
            """)

    @Argument("ROOT[/FOLDER]", help: "The root or folder to look at (default: the session's view).")
    var location: String?

    @OptionGroup var view: ViewOptions

    @Option("--graphics", value: "MODE", help: """
        How pictures are drawn: symbols (coloured Unicode blocks, any terminal), sixel, kitty or iterm2. \
        Default: what the terminal supports (symbols inside tmux or screen).
        """)
    var graphics: GraphicsMode?

    @Flag("--advance", help: "Move to the next photo after each mark (p, x, u, 0-9); the a key toggles it.")
    var advance: Bool

    func run(_ context: CLIContext) throws(CLIError) {
        try context.requireSameProtocol()
        let spec = try view.spec(at: location, context)
        let options = CullOptions(socketPath: context.options.socket, session: context.options.session,
                                  view: spec == ViewSpec() ? nil : spec, graphics: graphics,
                                  advance: advance)
        do {
            let app = try CullApp(options: options)
            try app.run()
        } catch {
            throw CLIError.cull(error.message, exitCode: error.exitCode)
        }
    }
}

extension GraphicsMode: ExpressibleByArgument {}
