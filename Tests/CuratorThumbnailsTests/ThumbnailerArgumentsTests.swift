// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import CuratorThumbnails
import Testing

/// `curatord-thumbnailer`'s command line as `ThumbnailerProcess` writes it and as
/// people and `curatorctl sheet` give it.
struct ThumbnailerArgumentsTests {
    struct HelpInstead: Error {}

    func parse(_ words: [String]) throws -> ParsedCommandLine {
        guard case .run(let line) = try CommandParser.parse(words, root: ThumbnailerArguments.self) else {
            throw HelpInstead()
        }
        return line
    }

    func failure(_ words: [String]) -> CommandLineError? {
        do {
            _ = try CommandParser.parse(words, root: ThumbnailerArguments.self)
            return nil
        } catch {
            return error
        }
    }

    @Test func theDaemonsLineGivesEveryBound() throws {
        let line = try parse(["--max-pixels", "1000", "--memory-mib", "0", "--cpu-seconds", "7", "--threads", "3"])
        let settings = try #require(line.command as? ThumbnailerArguments)
        #expect(settings.maxPixels == 1000 && settings.memoryMiB == 0 && settings.cpuSeconds == 7 && settings.threads == 3)
        #expect(!settings.version)
    }

    @Test func nothingGivenKeepsTheDefaults() throws {
        let settings = try #require(try parse([]).command as? ThumbnailerArguments)
        #expect(settings.maxPixels == 16384 * 16384 && settings.memoryMiB == 1024)
        #expect(settings.cpuSeconds == 30 && settings.threads == 1)
    }

    @Test func zeroCPUAndThreadsMeanOne() throws {
        let settings = try #require(try parse(["--cpu-seconds", "0", "--threads", "0"]).command as? ThumbnailerArguments)
        #expect(settings.cpuSeconds == 1 && settings.threads == 1)
    }

    @Test(arguments: [
        (["--bogus"], "--bogus"),
        (["--threads"], "--threads"),
        (["--threads", "many"], "many"),
        (["--max-pixels", "-5"], "--max-pixels must not be negative"),
        (["--memory-mib", "-1"], "--memory-mib must not be negative"),
        (["extra"], "extra"),
    ])
    func badOptionsAreUsageErrors(words: [String], named: String) throws {
        let error = try #require(failure(words))
        #expect(error.exitCode == 2)
        #expect(error.text.hasPrefix("curatord-thumbnailer: "), "\(error.text)")
        #expect(error.message.contains(named), "\(error.message)")
    }

    @Test func helpIsGeneratedFromTheDeclarations() throws {
        guard case .help(let text) = try CommandParser.parse(["--help"], root: ThumbnailerArguments.self) else {
            Issue.record("no help")
            return
        }
        for word in ["--max-pixels", "--memory-mib", "--cpu-seconds", "--threads", "sheet"] {
            #expect(text.contains(word), "\(word) in \(text)")
        }
    }

    @Test func sheetTakesItsItemsAndOptions() throws {
        let line = try parse(["sheet", "items.json", "-o", "out.png", "--columns", "4", "--cell", "128",
                              "--max-page-height", "2000", "--title", "Kyoto", "--selecting"])
        let sheet = try #require(line.command as? SheetArguments)
        #expect(sheet.items == "items.json" && sheet.output == "out.png")
        #expect(sheet.columns == 4 && sheet.cell == 128 && sheet.maxPageHeight == 2000)
        #expect(sheet.title == "Kyoto" && sheet.selecting)
        let plain = try #require(try parse(["sheet", "-o", "a.jpg", "i.json"]).command as? SheetArguments)
        #expect(plain.columns == nil && plain.title == nil && !plain.selecting)
    }

    @Test(arguments: [
        (["sheet", "items.json"], "--output"),
        (["sheet", "-o", "out.png"], "ITEMS.json"),
        (["sheet", "items.json", "-o", "out.png", "--columns", "four"], "four"),
        (["sheet", "items.json", "-o", "out.png", "--dpi", "300"], "--dpi"),
        (["sheet", "a.json", "b.json", "-o", "out.png"], "b.json"),
    ])
    func badSheetLinesAreUsageErrorsOfTheSheet(words: [String], named: String) throws {
        let error = try #require(failure(words))
        #expect(error.exitCode == 2)
        #expect(error.commandPath == "curatord-thumbnailer sheet")
        #expect(error.message.contains(named), "\(error.message)")
    }
}
