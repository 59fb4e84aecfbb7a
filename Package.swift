// swift-tools-version:6.1
import Foundation
import PackageDescription

/// RealtimeSanitizer's runtime ships inside the Swift toolchain; find it next to
/// the swiftc on PATH (or /opt/swift) so realtime tests can link it. Empty when
/// absent, and then the tests asserting `fxhost_rtsan_available()` fail loudly.
func realtimeSanitizerLinkerFlags() -> [String] {
    let fileManager = FileManager.default
    var toolchains: [URL] = []
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
        let swiftc = URL(fileURLWithPath: String(directory)).appendingPathComponent("swiftc")
        if fileManager.isExecutableFile(atPath: swiftc.path) {
            toolchains.append(swiftc.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent())
        }
    }
    toolchains.append(URL(fileURLWithPath: "/opt/swift/usr"))
    for toolchain in toolchains {
        let clang = toolchain.appendingPathComponent("lib/clang")
        let versions = (try? fileManager.contentsOfDirectory(atPath: clang.path)) ?? []
        for version in versions.sorted(by: { $0.compare($1, options: .numeric) == .orderedDescending }) {  // newest first
            let archive = clang.appendingPathComponent("\(version)/lib/linux/libclang_rt.rtsan-x86_64.a")
            if fileManager.fileExists(atPath: archive.path) {
                return ["-Xlinker", "--whole-archive", "-Xlinker", archive.path, "-Xlinker", "--no-whole-archive", "-lstdc++"]
            }
        }
    }
    return []
}
let realtimeSanitizer: [LinkerSetting] = [.unsafeFlags(realtimeSanitizerLinkerFlags())]

let package = Package(
    name: "fxhost",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "HostCore", targets: ["HostCore"]),
        .library(name: "LV2Bridge", targets: ["LV2Bridge"]),
        .library(name: "JackIO", targets: ["JackIO"]),
        .library(name: "LiveControl", targets: ["LiveControl"]),
        .executable(name: "fxhost", targets: ["fxhost"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.0.0"),
        // The browser front end's HTTP and WebSocket server; no optional traits
        // (configuration files, full Foundation), which fxhost does not use.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        // Hummingbird's own dependency, named for the graceful stop of the web server.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
        // Hummingbird's own too: a refused WebSocket handshake is answered below its HTTP encoder.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
    ],
    targets: [
        // System libraries, found through pkg-config.
        .systemLibrary(name: "CLilv", pkgConfig: "lilv-0", providers: [.apt(["liblilv-dev", "lv2-dev"])]),
        .systemLibrary(name: "CJack", pkgConfig: "jack", providers: [.apt(["libjack-jackd2-dev"])]),
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        // The few things Swift cannot do itself, split by who needs them so the core
        // has no JACK or LV2 header: thread naming, weak RTSan hooks and spin-waits
        // (core), the variadic jack_client_open (JACK), the LV2 log feature's printf.
        .target(name: "CCoreShim"),
        .target(name: "CJackShim", dependencies: ["CJack"]),
        .target(name: "CLV2Shim", dependencies: ["CCoreShim"]),

        .target(name: "HostCore", dependencies: ["CSndFile", "CCoreShim", .product(name: "Yams", package: "Yams")]),
        .target(name: "LV2Bridge", dependencies: ["HostCore", "CLilv", "CLV2Shim"]),
        .target(name: "JackIO", dependencies: ["HostCore", "CJack", "CJackShim", "CCoreShim"]),
        // The command protocol and everything that steers a live session: the
        // dispatcher, the patch file as a live document, LiveHost's run loop
        // and the front ends (console, OSC, MIDI announcements, file watcher).
        .target(name: "LiveControl", dependencies: ["HostCore", "JackIO"]),
        // The browser front end: an HTTP and WebSocket server (Hummingbird, on
        // NIO's threads) that posts to LiveControl's inbox. A target of its own so
        // LiveControl and its tests never wait for or link the server stack.
        .target(name: "WebControl", dependencies: [
            "HostCore", "JackIO", "LiveControl",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            // Its frame errors, for counting a connection closed by them.
            .product(name: "NIOWebSocket", package: "swift-nio"),
        ]),
        .executableTarget(name: "fxhost", dependencies: [
            "HostCore", "LV2Bridge", "JackIO", "LiveControl", "WebControl", "CCoreShim",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        // Helpers several test targets share: sound in memory and on disk, scratch folders,
        // private JACK servers, the probe plugin (Tests/TestPlugin, which the tests compile
        // themselves: SwiftPM makes a shared library only for a product, and fxhost's
        // products are its library API and tool, not test fixtures).
        .target(name: "TestSupport", dependencies: ["HostCore", "JackIO", "CJack", "CJackShim"], path: "Tests/TestSupport"),
        .testTarget(name: "HostCoreTests", dependencies: ["HostCore", "TestSupport"]),
        .testTarget(name: "LV2BridgeTests", dependencies: ["LV2Bridge", "HostCore", "TestSupport"]),
        // Runs a LiveEngine with a deliberate allocation in its callback, so a
        // test can see RealtimeSanitizer kill it (halt_on_error aborts the process).
        // Not a dependency of JackIOTests (both would link the runtime twice):
        // `swift test` builds it anyway, and the tests find it next to themselves.
        .executableTarget(name: "rtsan-probe", dependencies: ["JackIO", "HostCore", "CCoreShim", "CJack"],
                          linkerSettings: realtimeSanitizer),
        // LV2Bridge: live sessions with real plugins run under the sanitizer in-process.
        // LiveControl: the supervisor's take writer, for sessions whose takes it writes.
        .testTarget(name: "JackIOTests", dependencies: ["JackIO", "HostCore", "LV2Bridge", "LiveControl", "CCoreShim", "CJack",
                                                        "TestSupport"],
                    linkerSettings: realtimeSanitizer),
        // The dispatcher, the protocol, the patch file as a live document and the
        // front ends (console parsing, prompt, OSC), on live sessions of their own.
        .testTarget(name: "LiveControlTests", dependencies: ["LiveControl", "JackIO", "HostCore", "LV2Bridge", "TestSupport"]),
        // The web front end's pure parts (who may use it, where it listens), by table;
        // no server, no JACK, and not the sanitizer's runtime.
        .testTarget(name: "WebControlTests", dependencies: ["WebControl", "LiveControl", "HostCore"]),
        // JackIO and CJack: freewheel tests run a private server and watch it with a client of their own.
        .testTarget(name: "IntegrationTests", dependencies: ["HostCore", "LV2Bridge", "JackIO", "LiveControl", "CJack", "CCoreShim",
                                                             "CLV2Shim", "fxhost", "WebControl", "TestSupport"]),
    ],
    swiftLanguageModes: [.v5]
)
