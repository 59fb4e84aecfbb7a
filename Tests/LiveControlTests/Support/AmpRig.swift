import Foundation
import HostCore
import JackIO
import LiveControl
import LV2Bridge
import TestSupport
import XCTest

/// A constant 1 from a loopback client through eg-amp and back, live on a
/// private dummy server, with a dispatcher: the level heard is the gain set,
/// by arithmetic (dB to linear), whoever asked for it.
final class AmpRig {
    let server: JackServerProcess
    let loopback: LoopbackClient
    let session: LiveSession
    let dispatcher: ControlDispatcher
    let folder: URL

    /// The clients close before the server stops (the server goes when the
    /// rig's properties do, after this): a server stopped under open clients
    /// leaves their semaphores in /dev/shm, and libjack 1.9.21 can deadlock
    /// closing a client whose server is gone.
    deinit {
        session.client.close()
        loopback.client.close()
    }

    /// The last sample the loopback client recorded.
    var level: Float? { loopback.latestFrame?.first }

    /// Starts it and waits until eg-amp at 0 dB passes the constant 1.
    init(bufferFrames: Int, folderName: String = #function) throws {
        server = try JackServerProcess(sampleRate: 48_000, bufferFrames: bufferFrames)
        loopback = try LoopbackClient(server: server.name, constant: 1, channels: 1, capacity: 48_000 * 120)
        session = try LiveSession(graph: Self.graph(), options: LiveSession.Options(server: server))
        try session.start()
        try session.connectPorts()
        dispatcher = ControlDispatcher(session: session)
        folder = try temporaryFolder(folderName)
        let loopback = self.loopback
        XCTAssertTrue(eventually(within: 60) { loopback.latestFrame?.first == 1 }, "eg-amp at 0 dB passes the constant 1")
    }
}

extension AmpRig {
    /// The loopback client's constant through eg-amp (at its default, 0 dB) and back to it.
    static func graph() throws -> AudioGraph {
        let provider = LV2UnitProvider(catalog: PluginCatalog(world: LV2World()))
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 1, ports: ["loopback:source"])
        let amp = try graph.addUnit("amp", provider.makeUnit("http://lv2plug.in/plugins/eg-amp"))
        let main = try graph.addOutput("main", channels: 1, ports: ["loopback:record_1"])
        try graph.connect(input, to: amp)
        try graph.connect(amp, to: main)
        return graph
    }
}
