// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "fxhost",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "HostCore", targets: ["HostCore"]),
        .library(name: "LV2Bridge", targets: ["LV2Bridge"]),
        .library(name: "JackIO", targets: ["JackIO"]),
        .executable(name: "fxhost", targets: ["fxhost"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.0.0"),
    ],
    targets: [
        // System libraries, found through pkg-config.
        .systemLibrary(name: "CLilv", pkgConfig: "lilv-0", providers: [.apt(["liblilv-dev", "lv2-dev"])]),
        .systemLibrary(name: "CJack", pkgConfig: "jack", providers: [.apt(["libjack-jackd2-dev"])]),
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        // The few things Swift cannot do itself: variadic C calls and callbacks, weak RTSan hooks.
        .target(name: "CShim", dependencies: ["CJack"]),

        .target(name: "HostCore", dependencies: ["CSndFile", "CShim", .product(name: "Yams", package: "Yams")]),
        .target(name: "LV2Bridge", dependencies: ["HostCore", "CLilv", "CShim"]),
        .target(name: "JackIO", dependencies: ["HostCore", "CJack", "CShim"]),
        .executableTarget(name: "fxhost", dependencies: [
            "HostCore", "LV2Bridge", "JackIO",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        .testTarget(name: "HostCoreTests", dependencies: ["HostCore"]),
        .testTarget(name: "LV2BridgeTests", dependencies: ["LV2Bridge", "HostCore"]),
        .testTarget(name: "JackIOTests", dependencies: ["JackIO", "HostCore"]),
        .testTarget(name: "IntegrationTests", dependencies: ["HostCore", "LV2Bridge", "fxhost"]),
    ],
    swiftLanguageModes: [.v5]
)
