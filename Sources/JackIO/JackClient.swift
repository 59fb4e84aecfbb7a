import CJack
import CJackShim
import Glibc

/// One client on a named JACK server. It never starts a server: opening one
/// on a server that is not running fails with `JackError.noServer`.
/// Control-thread only; the realtime side is `LiveEngine`'s callback.
package final class JackClient {
    /// The name JACK gave the client (it may differ from the one asked for).
    package let name: String
    /// nil for the default server.
    package let serverName: String?
    private var client: OpaquePointer?
    private var isActive = false

    private static let audioType = "32 bit float mono audio"  // JACK_DEFAULT_AUDIO_TYPE
    private static let midiType = "8 bit raw midi"  // JACK_DEFAULT_MIDI_TYPE

    package init(name: String, server: String?) throws(JackError) {
        var status = jack_status_t(0)
        guard let opened = fxhost_jack_client_open(name, server, &status) else {
            let serverFailed = JackServerFailed.rawValue | JackServerError.rawValue
            if status.rawValue & serverFailed != 0 { throw .noServer(server: server) }
            throw .openFailed(client: name, server: server, status: status.rawValue)
        }
        client = opened
        serverName = server
        self.name = jack_get_client_name(opened).map { String(cString: $0) } ?? name
    }

    deinit { close() }

    /// The `jack_client_t *`, for calls this type does not wrap (callbacks
    /// must be set before `activate`). Throws once the client is closed.
    package func handle() throws(JackError) -> OpaquePointer {
        guard let client else { throw .clientClosed(client: name) }
        return client
    }

    package var sampleRate: Int { client.map { Int(jack_get_sample_rate($0)) } ?? 0 }
    package var bufferSize: Int { client.map { Int(jack_get_buffer_size($0)) } ?? 0 }
    /// The server's frame time now (estimated from its last cycle; JACK
    /// counts it in 32 bits); nil once closed.
    package var frameTime: Int? { client.map { Int(jack_frame_time($0)) } }

    /// Registers an audio port named `shortName` (JACK prefixes the client name).
    package func registerAudioPort(_ shortName: String, isInput: Bool) throws(JackError) -> JackPort {
        let client = try handle()
        let flags = isInput ? JackPortIsInput.rawValue : JackPortIsOutput.rawValue
        guard let port = jack_port_register(client, shortName, Self.audioType, UInt(flags), 0) else {
            throw .portRegistrationFailed(port: "\(name):\(shortName)")
        }
        return JackPort(handle: port, name: String(cString: jack_port_name(port)), isInput: isInput)
    }

    /// Registers a MIDI input (or output) port named `shortName`.
    package func registerMIDIPort(_ shortName: String, isInput: Bool = true) throws(JackError) -> JackPort {
        let client = try handle()
        let flags = isInput ? JackPortIsInput.rawValue : JackPortIsOutput.rawValue
        guard let port = jack_port_register(client, shortName, Self.midiType, UInt(flags), 0) else {
            throw .portRegistrationFailed(port: "\(name):\(shortName)")
        }
        return JackPort(handle: port, name: String(cString: jack_port_name(port)), isInput: isInput)
    }

    /// Connects the MIDI output `source` to every MIDI input port
    /// `destinationSpec` names or matches.
    @discardableResult
    package func connectMIDI(from source: String, toMatching destinationSpec: String) throws(JackError) -> [String] {
        let client = try handle()
        let destinations = try midiPorts(matching: destinationSpec, inputs: true)
        for destination in destinations {
            let code = jack_connect(client, source, destination)
            if code != 0 && code != EEXIST { throw .connectFailed(source: source, destination: destination, code: code) }
        }
        return destinations
    }

    /// Audio ports named exactly `spec`, or else matching it as a regular
    /// expression (JACK's own matching), sorted as JACK lists them.
    package func audioPorts(matching spec: String, inputs: Bool) throws(JackError) -> [String] {
        try ports(matching: spec, inputs: inputs, type: Self.audioType)
    }

    /// MIDI ports named exactly `spec`, or else matching it as a pattern.
    package func midiPorts(matching spec: String, inputs: Bool) throws(JackError) -> [String] {
        try ports(matching: spec, inputs: inputs, type: Self.midiType)
    }

    /// Connects every MIDI output port `sourceSpec` names or matches to the
    /// MIDI input `destination` (controllers merge into one input).
    @discardableResult
    package func connectMIDI(_ sourceSpec: String, to destination: String) throws(JackError) -> [String] {
        let client = try handle()
        let sources = try midiPorts(matching: sourceSpec, inputs: false)
        for source in sources {
            let code = jack_connect(client, source, destination)
            if code != 0 && code != EEXIST { throw .connectFailed(source: source, destination: destination, code: code) }
        }
        return sources
    }

    private func ports(matching spec: String, inputs: Bool, type: String) throws(JackError) -> [String] {
        let client = try handle()
        let wanted = inputs ? JackPortIsInput.rawValue : JackPortIsOutput.rawValue
        if let port = jack_port_by_name(client, spec) {
            let flags = UInt32(bitPattern: jack_port_flags(port))
            if flags & wanted != 0 { return [spec] }
        }
        var names: [String] = []
        if let list = jack_get_ports(client, spec, type, UInt(wanted)) {
            var index = 0
            while let entry = list[index] {
                names.append(String(cString: entry))
                index += 1
            }
            jack_free(list)
        }
        guard !names.isEmpty else { throw .noPortMatches(pattern: spec, wantedInputs: inputs) }
        return names
    }

    /// Connects output ports to input ports, each side named exactly or by a
    /// pattern: equal counts pair in order, a single port on either side fans
    /// out or in. Already-made connections count as made. Returns the pairs.
    @discardableResult
    package func connect(_ sourceSpec: String, to destinationSpec: String) throws(JackError) -> [(String, String)] {
        let client = try handle()
        let sources = try audioPorts(matching: sourceSpec, inputs: false)
        let destinations = try audioPorts(matching: destinationSpec, inputs: true)
        let pairs: [(String, String)]
        if sources.count == destinations.count {
            pairs = Array(zip(sources, destinations))
        } else if sources.count == 1 {
            pairs = destinations.map { (sources[0], $0) }
        } else if destinations.count == 1 {
            pairs = sources.map { ($0, destinations[0]) }
        } else {
            throw .ambiguousConnection(from: sourceSpec, sourceCount: sources.count,
                                       to: destinationSpec, destinationCount: destinations.count)
        }
        for (source, destination) in pairs {
            let code = jack_connect(client, source, destination)
            if code != 0 && code != EEXIST { throw .connectFailed(source: source, destination: destination, code: code) }
        }
        return pairs
    }

    /// Full names of the ports connected to `port`.
    package func connections(of port: JackPort) -> [String] {
        guard let list = jack_port_get_connections(port.handle) else { return [] }
        var names: [String] = []
        var index = 0
        while let entry = list[index] {
            names.append(String(cString: entry))
            index += 1
        }
        jack_free(list)
        return names
    }

    /// Every connection of this client's own ports (both directions), as
    /// the server has them now, sorted; a connection between two of its own
    /// ports is listed once.
    package func connectionsOfOwnPorts() -> JackConnections {
        guard let client, let list = jack_get_ports(client, nil, nil, 0) else { return JackConnections(client: name, connections: []) }
        defer { jack_free(list) }
        var found = Set<JackConnections.Connection>()
        var index = 0
        while let entry = list[index] {
            index += 1
            guard let port = jack_port_by_name(client, entry), jack_port_is_mine(client, port) != 0 else { continue }
            let own = String(cString: entry)
            let isOutput = UInt32(bitPattern: jack_port_flags(port)) & JackPortIsOutput.rawValue != 0
            guard let others = jack_port_get_all_connections(client, port) else { continue }
            var other = 0
            while let name = others[other] {
                other += 1
                let peer = String(cString: name)
                found.insert(isOutput ? .init(source: own, destination: peer) : .init(source: peer, destination: own))
            }
            jack_free(others)
        }
        let sorted = found.sorted { ($0.source, $0.destination) < ($1.source, $1.destination) }
        return JackConnections(client: name, connections: sorted)
    }

    /// Connects one output port to one input port, both named in full;
    /// false if the server refused (a port that no longer exists).
    package func connectExactly(_ source: String, to destination: String) -> Bool {
        guard let client else { return false }
        let code = jack_connect(client, source, destination)
        return code == 0 || code == EEXIST
    }

    /// Breaks one connection, both ports named in full.
    package func disconnectExactly(_ source: String, from destination: String) {
        guard let client else { return }
        _ = jack_disconnect(client, source, destination)
    }

    /// Starts the callbacks. Every `jack_set_*_callback` must come before.
    package func activate() throws(JackError) {
        let client = try handle()
        guard !isActive else { return }
        let code = jack_activate(client)
        guard code == 0 else { throw .activateFailed(client: name, code: code) }
        isActive = true
    }

    /// Stops the callbacks; when this returns, no callback is running.
    package func deactivate() {
        guard let client, isActive else { return }
        jack_deactivate(client)
        isActive = false
    }

    package func close() {
        guard let client else { return }
        deactivate()
        jack_client_close(client)
        self.client = nil
    }

    /// Forgets a client whose server has shut down, without calling into
    /// libjack: closing such a client can deadlock inside libjack 1.9.21
    /// (jack_client_close waits on a lock its dead server thread holds).
    /// The client's memory stays until the process ends.
    package func abandon() {
        client = nil
        isActive = false
    }
}
