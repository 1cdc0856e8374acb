// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import Testing

/// Parses `words` with `Tool` and returns the last command as `C`.
func parse<C: ParsableCommand>(_ words: [String], as _: C.Type = C.self) throws -> C {
    guard case .run(let line) = try CommandParser.parse(words, root: Tool.self) else {
        throw Unexpected("help for \(words)")
    }
    guard let command = line.command as? C else { throw Unexpected("\(type(of: line.command)) for \(words)") }
    return command
}

/// The error `words` make.
func failure(_ words: [String], root: any ParsableCommand.Type = Tool.self) -> CommandLineError? {
    do {
        _ = try CommandParser.parse(words, root: root)
        return nil
    } catch {
        return error
    }
}

/// The help `words` ask for, or nil when they ask for none.
func helpText(_ words: [String], root: any ParsableCommand.Type = Tool.self) throws -> String? {
    if case .help(let text) = try CommandParser.parse(words, root: root) { return text }
    return nil
}

struct Unexpected: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

@Suite struct OptionValueTests {
    @Test func longOptionTakesTheNextWordOrWhatFollowsEquals() throws {
        #expect(try parse(["sync", "--timeout", "50"], as: Sync.self).timeout == 50)
        #expect(try parse(["sync", "--timeout=50"], as: Sync.self).timeout == 50)
        #expect(try parse(["sync"], as: Sync.self).timeout == nil)
    }

    @Test func shortOptionTakesTheNextWordOrTheRestOfItsWord() throws {
        for words in [["-S", "/s"], ["-S/s"], ["-S=/s"], ["--socket", "/s"], ["--socket=/s"]] {
            guard case .run(let line) = try CommandParser.parse(words + ["sync"], root: Tool.self) else {
                Issue.record("no command for \(words)")
                continue
            }
            #expect(line.command(Tool.self)?.socket == "/s", "\(words)")
        }
    }

    @Test func flagsClusterAndTheLastShortOptionTakesTheRest() throws {
        let pick = try parse(["pick", "-yn5", "1"], as: Pick.self)
        #expect(pick.yes)
        #expect(pick.limit == 5)
        let spaced = try parse(["pick", "-yn", "7", "1"], as: Pick.self)
        #expect(spaced.limit == 7)
        #expect(failure(["pick", "-yx", "1"])?.message == "unknown option -x (in -yx)")
    }

    /// The one rule of both programs: a value is the next word whatever it starts with.
    @Test func aValueMayStartWithADash() throws {
        #expect(try parse(["pick", "--glob", "-x.jpg"], as: Pick.self).filters.glob == "-x.jpg")
        #expect(try parse(["pick", "--glob", "--yes"], as: Pick.self).filters.glob == "--yes")
        #expect(try parse(["pick", "--glob=-x.jpg"], as: Pick.self).filters.glob == "-x.jpg")
        #expect(try parse(["sync", "--timeout", "-5"], as: Sync.self).timeout == -5)
        #expect(try parse(["pick", "-n", "-3", "1"], as: Pick.self).limit == -3)
    }

    @Test func aValueMayContainEqualsSigns() throws {
        #expect(try parse(["pick", "--glob=a=b"], as: Pick.self).filters.glob == "a=b")
        #expect(try parse(["pick", "1", "--glob=x="], as: Pick.self).filters.glob == "x=")
    }

    @Test func theLastValueOfAnOptionGivenTwiceCounts() throws {
        #expect(try parse(["pick", "1", "-n", "2", "--limit", "3"], as: Pick.self).limit == 3)
    }

    @Test func aRepeatableOptionKeepsEveryValueInOrder() throws {
        #expect(try parse(["pick", "1", "-t", "a", "--tag", "b", "--tag=c", "-td"], as: Pick.self).tags == ["a", "b", "c", "d"])
        #expect(try parse(["pick", "1"], as: Pick.self).tags == [])
    }

    @Test func aDefaultHoldsUntilGiven() throws {
        #expect(try parse(["pick", "1"], as: Pick.self).cap == 8)
        #expect(try parse(["pick", "1", "--cap", "3"], as: Pick.self).cap == 3)
    }

    @Test func aValueThatIsNotOfItsTypeIsNamedWithWhatWasExpected() {
        #expect(failure(["sync", "--timeout", "soon"])?.message == "--timeout needs a whole number, not \"soon\"")
        #expect(failure(["pick", "--sort", "date", "1"])?.message == "--sort needs one of name, size, not \"date\"")
        #expect(failure(["pick", "--type", "", "1"])?.message == "--type needs types like jpeg,nef, not \"\"")
        #expect(failure(["move", "x", "--to", "1"])?.message == "POS needs a whole number, not \"x\"")
        // Every occurrence is checked, not only the last.
        #expect(failure(["sync", "--timeout", "x", "--timeout", "5"])?.message == "--timeout needs a whole number, not \"x\"")
    }

    @Test func aTransformMakesTheValue() throws {
        #expect(try parse(["pick", "--type", "jpeg,nef", "1"], as: Pick.self).filters.types == ["jpeg", "nef"])
        #expect(try parse(["pick", "--sort", "size", "1"], as: Pick.self).filters.sort == .size)
    }

    @Test func anOptionWithoutItsValueIsAnError() {
        let error = failure(["sync", "--timeout"])
        #expect(error?.message == "--timeout needs a value (MS)")
        #expect(error?.exitCode == 2)
        #expect(failure(["-S"])?.message == "-S needs a value (PATH)")
    }

    @Test func aFlagTakesNoValue() {
        #expect(failure(["--json=yes", "sync"])?.message == "--json takes no value")
    }

    @Test func aRequiredOptionOrArgumentIsNamedWhenMissing() throws {
        #expect(failure(["move", "3"])?.message == "missing --to POS")
        #expect(failure(["move", "--to", "3"])?.message == "missing POS")
        let move = try parse(["move", "--to", "1", "3"], as: Move.self)
        #expect((move.position, move.to) == (3, 1))
    }
}

@Suite struct PositionalTests {
    /// `sync a b` ignored `b` before: a word too many is an error that names it.
    @Test func anArgumentTooManyIsAnError() {
        let error = failure(["sync", "a", "b"])
        #expect(error?.message == "unexpected argument \"b\"")
        #expect(error?.exitCode == 2)
        #expect(error?.usage == "tool sync [ROOT] [--timeout MS]")
        #expect(error?.text == """
            tool: unexpected argument "b"
            Usage: tool sync [ROOT] [--timeout MS]
            See tool sync --help.
            """)
        #expect(failure(["trash", "empty", "now"])?.message == "unexpected argument \"now\"")
        #expect(failure(["sync", "a", "b", "c"])?.message == "unexpected argument \"b\" (and 1 more)")
    }

    @Test func optionsAndArgumentsMix() throws {
        let pick = try parse(["pick", "3", "--glob", "*.jpg", "5", "-y", "9-12"], as: Pick.self)
        #expect(pick.positions == ["3", "5", "9-12"])
        #expect(pick.filters.glob == "*.jpg")
        #expect(pick.yes)
    }

    @Test func doubleDashEndsTheOptions() throws {
        #expect(try parse(["sync", "--", "-x"], as: Sync.self).root == "-x")
        #expect(try parse(["sync", "--timeout", "5", "--", "--timeout"], as: Sync.self).root == "--timeout")
        let pick = try parse(["pick", "-y", "--", "-1", "--glob", "--"], as: Pick.self)
        #expect(pick.positions == ["-1", "--glob", "--"])
        #expect(pick.filters.glob == nil)
        // A double dash as an option's value is that value.
        #expect(try parse(["pick", "--glob", "--", "1"], as: Pick.self).filters.glob == "--")
        // Before the command, it ends the options of the program: the command's name follows.
        #expect(try parse(["--", "sync", "-x"], as: Sync.self).root == "-x")
    }

    @Test func aWordStartingWithADashIsAnOptionBeforeDoubleDash() {
        #expect(failure(["sync", "-x"])?.message == "unknown option -x")
        #expect(failure(["sync", "--x"])?.message == "unknown option --x")
    }

    @Test func aLoneDashIsAnArgument() throws {
        #expect(try parse(["sync", "-"], as: Sync.self).root == "-")
    }
}

@Suite struct CommandTests {
    @Test func nestedSubcommandsAreFound() throws {
        guard case .run(let line) = try CommandParser.parse(["--json", "trash", "--all-users", "list", "a", "b"], root: Tool.self) else {
            Issue.record("no command")
            return
        }
        #expect(line.commands.count == 3)
        #expect(line.command(Tool.self)?.json == true)
        #expect(line.command(Trash.self)?.allUsers == true)
        #expect(line.command(TrashList.self)?.roots == ["a", "b"])
    }

    @Test func aGroupGivenNoSubcommandIsReturnedWithItsHelp() throws {
        guard case .run(let line) = try CommandParser.parse(["--json"], root: Tool.self) else {
            Issue.record("no command")
            return
        }
        #expect(line.command is Tool)
        #expect(line.help.hasPrefix("Usage: tool [--socket PATH] [--json] COMMAND [ARGS]"))
        guard case .run(let trash) = try CommandParser.parse(["trash"], root: Tool.self) else { return }
        #expect(trash.command is Trash)
        #expect(trash.help.contains("  list "))
    }

    @Test func anUnknownCommandIsAnError() {
        let error = failure(["sink"])
        #expect(error?.message == "unknown command \"sink\"")
        #expect(error?.commandPath == "tool")
        #expect(failure(["trash", "lst"])?.message == "unknown command \"lst\"")
    }

    /// Options of a command may come after its subcommand's name too (issue 48, 15:
    /// `curatorctl ls --json`), and go to the command they belong to.
    @Test func anOptionOfAnEarlierCommandMayComeAfterTheSubcommand() throws {
        #expect(failure(["sync", "--json"]) == nil)
        #expect(failure(["sync", "-S", "/s"]) == nil)
        #expect(failure(["trash", "list", "--all-users"]) == nil)
        #expect(failure(["trash", "list", "--json"]) == nil)
        guard case .run(let parsed) = try CommandParser.parse(["sync", "-S", "/s", "--json"], root: Tool.self) else {
            Issue.record("not parsed")
            return
        }
        #expect(parsed.command is Sync)
        let tool = try #require(parsed.command(Tool.self))
        #expect(tool.json && tool.socket == "/s", "the options went to the command they belong to")
        #expect(failure(["sync", "--nonsense"])?.message == "unknown option --nonsense")
    }

    @Test func validationErrorsCarryTheUsage() {
        let error = failure(["pick"])
        #expect(error?.message == "name the photos: positions or --glob")
        #expect(error?.commandPath == "tool pick")
        #expect(error?.exitCode == 2)
        // An option group's own check runs too.
        #expect(failure(["pick", "--glob="])?.message == "--glob needs a pattern")
    }

    @Test func aProgramWithoutSubcommandsParsesToItsType() throws {
        guard case .run(let server) = try Server.parse(["-c", "f.json5", "--root", "/a", "-r/b", "--log-level", "debug"]) else {
            Issue.record("no command")
            return
        }
        #expect(server.config == "f.json5")
        #expect(server.roots == ["/a", "/b"])
        #expect(server.level == .debug)
        #expect(!server.checkConfig)
        #expect(failure(["stray"], root: Server.self)?.message == "unexpected argument \"stray\"")
        #expect(failure(["--bogus"], root: Server.self)?.text == """
            server: unknown option --bogus
            Usage: server [--config FILE] [--root DIR ...] [--log-level LEVEL]
                          [--check-config] [--version]
            See server --help.
            """)
    }
}
