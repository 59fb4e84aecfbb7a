import CJack
import Foundation
import HostCore
import JackIO
import LV2Bridge
import TestSupport
import XCTest

/// A unit that refuses some formats, as a plugin with a fixed-block
/// requirement or one that plays live only would; otherwise the wrapped unit.
/// Remembers the format it was last prepared for.
final class RefusingUnit: ProcessingUnit {
    let inner: any ProcessingUnit
    /// Why a format is refused, or nil when it is not.
    let refusal: (RenderFormat) -> String?
    private(set) var lastFormat: RenderFormat?

    init(_ inner: any ProcessingUnit, refusing refusal: @escaping (RenderFormat) -> String? = { _ in nil }) {
        self.inner = inner
        self.refusal = refusal
    }

    var displayName: String { inner.displayName }
    var inputPorts: [AudioPortInfo] { inner.inputPorts }
    var outputPorts: [AudioPortInfo] { inner.outputPorts }
    var parameters: [ParameterInfo] { inner.parameters }
    func setParameter(_ symbol: String, to value: ParameterValue) throws(UnitError) { try inner.setParameter(symbol, to: value) }
    func parameterValue(_ symbol: String) -> Float? { inner.parameterValue(symbol) }
    func applyPreset(_ name: String) throws(UnitError) { try inner.applyPreset(name) }
    func prepareInstances(count: Int, format: RenderFormat) throws(UnitError) -> PreparedUnit {
        if let reason = refusal(format) { throw UnitError(reason) }
        lastFormat = format
        return try inner.prepareInstances(count: count, format: format)
    }
}

final class LiveSessionRebuildFailureTests: XCTestCase {
    /// A bounce whose offline plan cannot be compiled leaves every unit on
    /// its live instances: a unit prepared for the bounce before the one that
    /// refused goes back to the live format, so a later preset reaches what plays.
    func testABounceThatCannotCompileLeavesUnitsOnTheirLiveInstances() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try temporaryFolder()
        let units = LV2UnitProvider(catalog: PluginCatalog())
        let first = RefusingUnit(try units.makeUnit("eg-amp"))
        let second = RefusingUnit(try units.makeUnit("eg-amp")) { $0.mode == .offline ? "this unit plays live only" : nil }
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 1)
        let firstNode = try graph.addUnit("first", first)
        let secondNode = try graph.addUnit("second", second)
        let main = try graph.addOutput("main", channels: 1)
        try graph.connect(input, to: firstNode)
        try graph.connect(firstNode, to: secondNode)
        try graph.connect(secondNode, to: main)
        let session = try LiveSession(graph: graph, options: LiveSession.Options(server: server))
        try session.start()
        defer { _ = try? session.finish() }

        XCTAssertThrowsError(try session.startBounce(to: folder.appendingPathComponent("bounce.wav").path)) { error in
            XCTAssertTrue("\(error)".contains("this unit plays live only"), "\(error)")
        }
        XCTAssertEqual(first.lastFormat?.mode, .live, "the first unit was left on the bounce's offline instances")
        XCTAssertEqual(second.lastFormat?.mode, .live)
    }

    /// When the plan cannot be rebuilt for JACK's new buffer size, the old
    /// plan goes on playing (in the new, smaller blocks) instead of silence.
    func testAFailedRebuildKeepsTheOldPlanPlaying() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try temporaryFolder()
        let clip = folder.appendingPathComponent("dc.wav").path
        try Audio(channels: [[Float](repeating: 0.5, count: 48_000 * 6)]).write(clip)
        let tapFile = folder.appendingPathComponent("tap.wav").path
        let amp = try LV2UnitProvider(catalog: PluginCatalog()).makeUnit("eg-amp")
        try amp.setParameter("gain", to: .number(-6))
        let graph = AudioGraph()
        let player = try graph.addFilePlayer("dc", file: FilePlayerSource(path: clip, channels: 1, sampleRate: 48_000,
                                                                          frames: 48_000 * 6))
        let ampNode = try graph.addUnit("amp", RefusingUnit(amp) { $0.maxBlockFrames == 128 ? "blocks of 128 frames are not supported" : nil })
        let main = try graph.addOutput("main", channels: 1)
        try graph.connect(player, to: ampNode)
        try graph.connect(ampNode, to: main)
        try graph.installTap(on: main, file: tapFile)
        let session = try LiveSession(graph: graph, options: LiveSession.Options(server: server))
        try session.start()
        XCTAssertTrue(eventually(within: 60) { session.taps.first!.seconds >= 0.3 })

        let other = try JackClient(name: "resizer", server: server.name)
        XCTAssertEqual(jack_set_buffer_size(try other.handle(), 128), 0)
        var failure: Error?
        XCTAssertTrue(eventually(within: 60) {
            do { try session.poll() } catch { failure = error }
            return failure != nil
        }, "the rebuild at 128 frames should fail")
        XCTAssertTrue("\(failure!)".contains("blocks of 128 frames are not supported"), "\(failure!)")
        XCTAssertEqual(session.plan.format.maxBlockFrames, 256, "the old plan is kept")
        let secondsAtFailure = session.taps.first!.seconds
        XCTAssertTrue(eventually(within: 60) { session.taps.first!.seconds >= secondsAtFailure + 0.3 })
        try session.finish()

        let recorded = try Audio.read(tapFile).channels[0]
        let expected = Float(0.5 * Decibels.toLinear(-6))
        XCTAssertEqual(Double(recorded.last!), Double(expected), accuracy: 1e-6, "still playing through the amp after the failure")
    }
}

final class LiveSessionChainEditTests: XCTestCase {
    /// A command-line chain's output is as wide as what feeds it; once its
    /// JACK ports exist, edits keep that width (an output with nothing
    /// connected would otherwise shrink to one channel).
    func testEditsKeepTheWidthOfAChainsOutput() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let provider = LV2UnitProvider(catalog: PluginCatalog())
        let patch = try ChainSpec.patch(from: "mda/Overdrive", inputChannels: 2, units: provider)
        let graph = try PatchLoader(units: provider).graph(for: patch)
        let session = try LiveSession(graph: graph, options: LiveSession.Options(server: server))
        try session.start()
        XCTAssertEqual(session.plan.outputs[0].channels.count, 2)
        try session.disconnect(PortReference(node: "overdrive"), to: PortReference(node: "out"))
        XCTAssertEqual(session.plan.outputs[0].channels.count, 2)
        try session.connect(PortReference(node: "overdrive"), to: PortReference(node: "out"))
        XCTAssertEqual(session.plan.outputs[0].channels.count, 2)
        try session.finish()
    }
}
