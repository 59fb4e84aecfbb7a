import Foundation
import LV2Bridge
import XCTest

/// `fxhost --version` names fxhost's version and the lilv, JACK and
/// libsndfile it runs with; the libraries' versions are checked against
/// what the system's own tools say about the installed libraries.
final class VersionTests: XCTestCase {
    func testVersionNamesTheLibrariesItRunsWith() throws {
        let result = try Tools.fxhost(["--version"])
        XCTAssertEqual(result.stderr, "")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 4, result.stdout)
        guard lines.count == 4 else { return }

        XCTAssertNotNil(lines[0].range(of: #"^fxhost [0-9]+\.[0-9]+\.[0-9]+$"#, options: .regularExpression), lines[0])
        XCTAssertEqual(lines[1], "lilv \(try modversion("lilv-0"))")
        XCTAssertEqual(lines[2], "JACK \(try modversion("jack"))")
        XCTAssertEqual(lines[2], "JACK \(try jackdVersion())")
        XCTAssertEqual(lines[3], "libsndfile \(try modversion("sndfile"))")
    }

    /// Every subcommand answers `--version` the same way.
    func testSubcommandsAnswerVersionToo() throws {
        let root = try Tools.fxhost(["--version"])
        XCTAssertEqual(try Tools.fxhost(["render", "--version"]).stdout, root.stdout)
    }

    /// The lilv version comes from the loaded library's file name.
    func testLilvVersionFromALibraryFileName() {
        XCTAssertEqual(LilvLibrary.version(fromFileName: "liblilv-0.so.0.24.14"), "0.24.14")
        XCTAssertEqual(LilvLibrary.version(fromFileName: "liblilv-0.so.0.26.0"), "0.26.0")
        XCTAssertNil(LilvLibrary.version(fromFileName: "liblilv-0.so.0"))
        XCTAssertNil(LilvLibrary.version(fromFileName: "liblilv-0.so"))
        XCTAssertNil(LilvLibrary.version(fromFileName: "liblilv-0.so.0.24.x"))
        XCTAssertNil(LilvLibrary.version(fromFileName: "liblilv-0.so.0..14"))
    }

    /// The loaded library is the file the dynamic linker finds for the
    /// soname fxhost was linked with (`ldconfig -p` says where that is).
    func testLilvFileIsTheOneTheLinkerFinds() throws {
        let cache = try Tools.run("/sbin/ldconfig", ["-p"])
        XCTAssertEqual(cache.status, 0, cache.stderr)
        let line = try XCTUnwrap(cache.stdout.split(separator: "\n").first { $0.contains("liblilv-0.so.0 ") && $0.contains("x86-64") },
                                 cache.stdout)
        let link = try XCTUnwrap(line.components(separatedBy: " => ").last)
        XCTAssertEqual(LilvLibrary.file, URL(fileURLWithPath: link).resolvingSymlinksInPath().path)
    }

    private func modversion(_ package: String) throws -> String {
        let result = try Tools.run("pkg-config", ["--modversion", package])
        XCTAssertEqual(result.status, 0, "pkg-config --modversion \(package): \(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `jackdmp version 1.9.21 tmpdir /dev/shm protocol 9` → `1.9.21`.
    private func jackdVersion() throws -> String {
        let result = try Tools.run("/usr/bin/jackd", ["--version"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let words = result.stdout.split(separator: " ")
        let index = try XCTUnwrap(words.firstIndex(of: "version"), result.stdout)
        return String(words[words.index(after: index)])
    }
}
