import Foundation
import XCTest

/// `make install` and `make uninstall` with DESTDIR and PREFIX, into a
/// scratch folder.
///
/// `make install` builds the release binary and the man pages (the
/// generate-manual plugin builds the package in release mode: minutes),
/// then runs the copying steps install-binary, install-man and
/// install-completions. This test runs those steps only, so it never builds:
/// install-binary and install-completions with the debug binary the tests
/// already have, and install-man only when `make man` has left man pages
/// (and a release binary) behind; otherwise it says so and checks the man
/// page list against the tool's commands only.
final class InstallTests: XCTestCase {
    private let root = Tools.packageRoot
    private var releaseBinary: URL { root.appendingPathComponent(".build/release/fxhost") }
    private var manual: URL { root.appendingPathComponent(".build/plugins/GenerateManual/outputs/fxhost") }

    func testInstallPutsEachFileInPlaceAndUninstallRemovesExactlyThose() throws {
        let destination = try Tools.temporaryFolder()
        let prefix = destination.appendingPathComponent("usr")
        // Files of other packages in the same folders: uninstall leaves them.
        let others = ["bin/other", "share/man/man1/other.1", "share/bash-completion/completions/other",
                      "share/zsh/site-functions/_other", "share/fish/vendor_completions.d/other.fish"]
        for other in others {
            let file = prefix.appendingPathComponent(other)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try "another package's file\n".write(to: file, atomically: true, encoding: .utf8)
        }

        let pages = try manualPages()
        let withManPages = FileManager.default.isExecutableFile(atPath: releaseBinary.path)
            && pages.allSatisfy { FileManager.default.fileExists(atPath: manual.appendingPathComponent($0).path) }
        let binary = withManPages ? releaseBinary.path : Tools.fxhost
        if !withManPages {
            print("InstallTests: no man pages from `make man` in \(manual.path): install-man is not run")
        }
        let steps = ["install-binary", "install-completions"] + (withManPages ? ["install-man"] : [])
        try make(steps + ["DESTDIR=\(destination.path)", "PREFIX=/usr", "FXHOST=\(binary)"])

        var installed = [("bin/fxhost", try Data(contentsOf: URL(fileURLWithPath: binary)))]
        for (shell, path) in [("bash", "share/bash-completion/completions/fxhost"), ("zsh", "share/zsh/site-functions/_fxhost"),
                              ("fish", "share/fish/vendor_completions.d/fxhost.fish")] {
            let script = try Tools.run(binary, ["--generate-completion-script", shell])
            XCTAssertEqual(script.status, 0, script.stderr)
            XCTAssertTrue(script.stdout.contains("render"), "a \(shell) script that completes the subcommands")
            installed.append((path, Data(script.stdout.utf8)))
        }
        if withManPages {
            for page in pages {
                installed.append(("share/man/man1/\(page)", try Data(contentsOf: manual.appendingPathComponent(page))))
            }
            // Every page the plugin wrote is installed.
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: manual.path).filter { $0.hasSuffix(".1") }.sorted(),
                           pages.sorted())
        }
        for (path, contents) in installed {
            XCTAssertEqual(FileManager.default.contents(atPath: prefix.appendingPathComponent(path).path), contents, path)
        }
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: prefix.appendingPathComponent("bin/fxhost").path))
        let everything = Set(installed.map(\.0) + others)
        XCTAssertEqual(try files(under: prefix), everything, "install adds only its own files")

        try make(["uninstall", "DESTDIR=\(destination.path)", "PREFIX=/usr"])
        XCTAssertEqual(try files(under: prefix), Set(others), "uninstall removes exactly what install put there")
    }

    /// The man pages uninstall removes are those of the tool's commands:
    /// `fxhost.1` and `fxhost.COMMAND.1` for each command the tool itself
    /// reports (ArgumentParser's `--experimental-dump-help`, which the
    /// generate-manual plugin reads too).
    func testUninstallKnowsEveryCommandsManPage() throws {
        let dryRun = try Tools.run("make", ["-C", root.path, "--no-print-directory", "-n", "uninstall", "DESTDIR=/nonexistent", "PREFIX=/usr"],
                                   environment: ["MAKEFLAGS": "", "MFLAGS": ""])
        XCTAssertEqual(dryRun.status, 0, dryRun.stderr)
        let removed = Set(dryRun.stdout.split(whereSeparator: \.isWhitespace)
            .filter { $0.hasPrefix("/nonexistent/usr/share/man/man1/") }
            .map { String($0.dropFirst("/nonexistent/usr/share/man/man1/".count)) })
        XCTAssertEqual(removed, Set(try manualPages()))
    }

    /// `fxhost.1` and one page per command, as generate-manual names them.
    private func manualPages() throws -> [String] {
        let dump = try Tools.run(Tools.fxhost, ["--experimental-dump-help"])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        let command = try XCTUnwrap(json["command"] as? [String: Any])
        let subcommands = try XCTUnwrap(command["subcommands"] as? [[String: Any]])
        return ["fxhost.1"] + subcommands.compactMap { $0["commandName"] as? String }.map { "fxhost.\($0).1" }
    }

    private func make(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        // Nothing from a `make test` this may run under (its variables, its jobserver).
        let result = try Tools.run("make", ["-C", root.path, "--no-print-directory"] + arguments,
                                   environment: ["MAKEFLAGS": "", "MFLAGS": ""])
        XCTAssertEqual(result.status, 0, "make \(arguments.joined(separator: " ")): \(result.stdout)\(result.stderr)",
                       file: file, line: line)
    }

    /// Every file (not folder) under `folder`, as relative paths.
    private func files(under folder: URL) throws -> Set<String> {
        var found: Set<String> = []
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            if try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true {
                found.insert(String(url.resolvingSymlinksInPath().path.dropFirst(folder.resolvingSymlinksInPath().path.count + 1)))
            }
        }
        return found
    }
}
