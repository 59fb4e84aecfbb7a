import Foundation

/// MIDI placed at exact JACK frames by a separate client no one here wrote
/// (python's JACK-Client, as `MIDISender`): each message is written at its
/// frame offset from a start the script chooses (the first frame of a cycle
/// after its connection has settled), at that frame's place in its cycle's
/// buffer. The script fails, naming the message, when a cycle that should
/// have carried one did not run (the frame had passed): an interval measured
/// from such a run would not be the one asked for.
public enum TimedMIDISender {
    /// Sends each `(frame, message)` at `frame` frames after the start to the
    /// MIDI input `port` of a client on `server`, and waits for the sender to
    /// exit once JACK has taken them all.
    /// `triesWhenLate`: tries in all while the sender's own cycle carrying a
    /// message did not run in time (a loaded machine; exit status 2), for
    /// messages that begin anew, as a clock's start does: a late try has
    /// delivered some of them.
    public static func send(_ messages: [(frame: Int, message: MIDISender.Message)], server: String, to port: String,
                            triesWhenLate: Int = 1) throws {
        for attempt in 1... {
            do {
                return try PythonJackClient.run(script, arguments: [server, port] + messages.map { "\($0.frame)@\($0.message)" },
                                                what: "the JACK-Client timed MIDI sender")
            } catch let error as MIDISenderError where error.status == 2 && attempt < triesWhenLate {
                continue
            }
        }
        fatalError("unreachable: the loop returns or throws")
    }

    private static let script = """
        import sys, time, jack
        server, destination = sys.argv[1], sys.argv[2]
        pending = []
        for word in sys.argv[3:]:
            frame, message = word.split('@')
            kind, *numbers = message.split(':')
            numbers = [int(n) for n in numbers]
            if kind == 'raw':
                data = bytes(numbers)
            elif kind == 'cc':
                data = bytes([0xB0 | (numbers[2] - 1), numbers[0], numbers[1]])
            else:
                data = bytes([0xC0 | (numbers[1] - 1), numbers[0]])
            pending.append((int(frame), data))
        pending.sort(key=lambda item: item[0])
        state = {'connected': False, 'cycles_before': 0, 'cycles_after': 0, 'start': None, 'late': None}
        client = jack.Client('fxhost-test-timed-midi', servername=server, no_start_server=True)
        port = client.midi_outports.register('out')

        @client.set_process_callback
        def process(frames):
            port.clear_buffer()
            if not state['connected'] or state['cycles_before'] < 8:
                if state['connected']:
                    state['cycles_before'] += 1
                return
            now = client.last_frame_time
            if state['start'] is None:
                state['start'] = now
            while pending:
                # JACK's frame time counts in 32 bits.
                offset = (state['start'] + pending[0][0] - now) & 0xFFFFFFFF
                if offset >= frames:
                    if offset > 0x80000000 and state['late'] is None:
                        state['late'] = pending[0][0]
                    break
                port.write_midi_event(offset, pending.pop(0)[1])
            if not pending:
                state['cycles_after'] += 1

        with client:
            client.connect(port, destination)
            state['connected'] = True
            deadline = time.time() + 60
            while state['cycles_after'] < 3 and state['late'] is None and time.time() < deadline:
                time.sleep(0.005)
        if state['late'] is not None:
            print(f"the cycle carrying the message at frame {state['late']} did not run in time")
            sys.exit(2)
        sys.exit(0 if state['cycles_after'] >= 3 else 1)
        """
}
