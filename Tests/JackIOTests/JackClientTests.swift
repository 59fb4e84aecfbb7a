import JackIO
import TestSupport
import XCTest

final class JackClientTests: XCTestCase {
    func testNoServerIsAClearError() {
        let name = JackServerProcess.uniqueName(prefix: "absent")
        XCTAssertThrowsError(try JackClient(name: "lonely", server: name)) { error in
            XCTAssertEqual(error as? JackError, .noServer(server: name))
            XCTAssertEqual("\(error)", "no JACK server named `\(name)` is running (fxhost never starts one by itself)")
        }
    }

    func testPortsAreNamedAfterTheClient() throws {
        let server = try JackServerProcess()
        let client = try JackClient(name: "alpha", server: server.name)
        XCTAssertEqual(client.name, "alpha")
        let port = try client.registerAudioPort("out_1", isInput: false)
        XCTAssertEqual(port.name, "alpha:out_1")
        XCTAssertFalse(port.isInput)
        XCTAssertThrowsError(try client.registerAudioPort("out_1", isInput: false)) { error in
            XCTAssertEqual(error as? JackError, .portRegistrationFailed(port: "alpha:out_1"))
        }
    }

    func testConnectsByExactNameAndByPattern() throws {
        let server = try JackServerProcess()
        let alpha = try JackClient(name: "alpha", server: server.name)
        let beta = try JackClient(name: "beta", server: server.name)
        _ = try alpha.registerAudioPort("out_1", isInput: false)
        _ = try alpha.registerAudioPort("out_2", isInput: false)
        let in1 = try beta.registerAudioPort("in_1", isInput: true)
        let in2 = try beta.registerAudioPort("in_2", isInput: true)
        try alpha.activate()
        try beta.activate()

        let pairs = try alpha.connect("alpha:out_.*", to: "beta:in_.*")
        XCTAssertEqual(pairs.map { "\($0.0)>\($0.1)" }, ["alpha:out_1>beta:in_1", "alpha:out_2>beta:in_2"])
        XCTAssertEqual(beta.connections(of: in1), ["alpha:out_1"])
        XCTAssertEqual(beta.connections(of: in2), ["alpha:out_2"])

        // One source fans out; connecting again is not an error.
        let fan = try alpha.connect("alpha:out_1", to: "beta:in_.*")
        XCTAssertEqual(fan.count, 2)
        XCTAssertEqual(Set(beta.connections(of: in2)), ["alpha:out_1", "alpha:out_2"])
    }

    func testConnectionErrorsNameWhatWasWrong() throws {
        let server = try JackServerProcess()
        let alpha = try JackClient(name: "alpha", server: server.name)
        _ = try alpha.registerAudioPort("out_1", isInput: false)
        _ = try alpha.registerAudioPort("out_2", isInput: false)
        for index in 1...3 { _ = try alpha.registerAudioPort("in_\(index)", isInput: true) }
        try alpha.activate()

        XCTAssertThrowsError(try alpha.connect("nobody:.*", to: "alpha:in_1")) { error in
            XCTAssertEqual(error as? JackError, .noPortMatches(pattern: "nobody:.*", wantedInputs: false))
        }
        // An input named as a source does not count as a source.
        XCTAssertThrowsError(try alpha.connect("alpha:in_1", to: "alpha:in_2")) { error in
            XCTAssertEqual(error as? JackError, .noPortMatches(pattern: "alpha:in_1", wantedInputs: false))
        }
        XCTAssertThrowsError(try alpha.connect("alpha:out_.*", to: "alpha:in_.*")) { error in
            XCTAssertEqual(error as? JackError, .ambiguousConnection(from: "alpha:out_.*", sourceCount: 2,
                                                                     to: "alpha:in_.*", destinationCount: 3))
        }
    }

    func testClosedClientRefusesWork() throws {
        let server = try JackServerProcess()
        let client = try JackClient(name: "short-lived", server: server.name)
        client.close()
        XCTAssertThrowsError(try client.registerAudioPort("x", isInput: true)) { error in
            XCTAssertEqual(error as? JackError, .clientClosed(client: "short-lived"))
        }
    }
}
