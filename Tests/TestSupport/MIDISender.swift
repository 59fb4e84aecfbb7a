import Foundation

/// MIDI sent from a separate JACK client no one here wrote: a Python
/// program using PyPI's JACK-Client (`scripts/install-deps.sh` installs it)
/// registers a MIDI output, connects it to `port`, writes the messages (a
/// few per cycle), and exits once JACK has taken them all.
public enum MIDISender {
    public enum Message: CustomStringConvertible {
        /// Channel 1...16.
        case controller(Int, value: Int, channel: Int = 1)
        case program(Int, channel: Int = 1)
        /// Any bytes as they are (a clock's 0xF8, 0xFA, 0xFC).
        case raw([UInt8])

        public var description: String {
            switch self {
            case .raw(let bytes): return "raw:" + bytes.map { String($0) }.joined(separator: ":")
            case .controller(let number, let value, let channel): return "cc:\(number):\(value):\(channel)"
            case .program(let number, let channel): return "pc:\(number):\(channel)"
            }
        }
    }

    /// Sends `messages` to the MIDI input `port` of a client on `server`,
    /// `perCycle` in each JACK cycle, and waits for the sender to exit.
    /// Throws with its output when it fails (JACK-Client missing, no such port).
    public static func send(_ messages: [Message], server: String, to port: String, perCycle: Int = 1) throws {
        try PythonJackClient.run(script, arguments: [server, port, "\(perCycle)"] + messages.map(\.description),
                                 what: "the JACK-Client MIDI sender")
    }

    private static let script = """
        import sys, time, jack
        server, destination, per_cycle = sys.argv[1], sys.argv[2], int(sys.argv[3])
        pending = []
        for word in sys.argv[4:]:
            kind, *numbers = word.split(':')
            numbers = [int(n) for n in numbers]
            if kind == 'raw':
                pending.append(bytes(numbers))
            elif kind == 'cc':
                pending.append(bytes([0xB0 | (numbers[2] - 1), numbers[0], numbers[1]]))
            else:
                pending.append(bytes([0xC0 | (numbers[1] - 1), numbers[0]]))
        state = {'connected': False, 'cycles_before': 0, 'cycles_after': 0}
        client = jack.Client('fxhost-test-midi', servername=server, no_start_server=True)
        port = client.midi_outports.register('out')

        @client.set_process_callback
        def process(frames):
            port.clear_buffer()
            # A few cycles after connecting, so JACK has the new connection in its graph.
            if not state['connected'] or state['cycles_before'] < 8:
                if state['connected']:
                    state['cycles_before'] += 1
                return
            if not pending:
                state['cycles_after'] += 1
                return
            for offset in range(min(per_cycle, len(pending), frames)):
                port.write_midi_event(offset, pending.pop(0))

        with client:
            client.connect(port, destination)
            state['connected'] = True
            # Until JACK has run the cycles that carry every message, and two more.
            deadline = time.time() + 60
            while state['cycles_after'] < 3 and time.time() < deadline:
                time.sleep(0.005)
        sys.exit(0 if state['cycles_after'] >= 3 else 1)
        """
}

public struct MIDISenderError: Error, CustomStringConvertible {
    public var description: String
    /// The python client's exit status, when it exited with one.
    public var status: Int32? = nil
}
