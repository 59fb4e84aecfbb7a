import Foundation
import Synchronization

/// A JACK MIDI input no one here wrote (python's JACK-Client): client
/// `fxhost-test-feedback`, port `in`, which prints each message it receives
/// as `status data1 data2 @frame` (the JACK frame time it arrived at: the
/// cycle's first frame plus its offset); this collects them. For what fxhost
/// sends out (MIDI feedback, MIDI clock).
public final class MIDIReceiver {
    /// A controller message as received: channel 1...16.
    public struct Controller: Equatable, Sendable, CustomStringConvertible {
        public var channel: Int
        public var controller: Int
        public var value: Int

        public init(channel: Int, controller: Int, value: Int) {
            self.channel = channel
            self.controller = controller
            self.value = value
        }

        public var description: String { "cc \(controller) = \(value) on channel \(channel)" }
    }

    /// The port to connect to: `fxhost-test-feedback:in`.
    public static let port = "fxhost-test-feedback:in"
    private let process: Process
    private let lines = Lines()

    /// What the receiver printed, written by the pipe's handler thread.
    private final class Lines: Sendable {
        /// Whole lines, and the start of one a read cut.
        private let lines = Mutex<(whole: [String], partial: String)>(([], ""))
        func append(_ text: String) {
            lines.withLock { lines in
                var parts = (lines.partial + text).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                lines.partial = parts.removeLast()
                lines.whole += parts.filter { !$0.isEmpty }
            }
        }
        var all: [String] { lines.withLock { $0.whole } }
    }

    /// Starts the receiver on `server` and waits (up to 30 s) until its port exists.
    public init(server: String) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", "-c", Self.script, server]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let lines = self.lines
        // At the end of the output (the receiver stopped) the handler is
        // taken off: left on, it is called again and again with nothing,
        // and its dispatch source outlived the pipe's descriptor, which
        // crashed the test process now and then (in libdispatch's event loop).
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            guard !data.isEmpty else {
                handle.readabilityHandler = nil
                return
            }
            lines.append(String(decoding: data, as: UTF8.self))
        }
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while !lines.all.contains("ready") {
            guard process.isRunning, Date() < deadline else {
                throw MIDISenderError(description: "the JACK-Client MIDI receiver (scripts/install-deps.sh installs JACK-Client) did not start: \(self.output)")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    deinit { stop() }

    /// Every controller message received so far, in order.
    public var controllers: [Controller] {
        messages.compactMap { message in
            let numbers = message.bytes
            guard numbers.count == 3, numbers[0] & 0xF0 == 0xB0 else { return nil }
            return Controller(channel: numbers[0] & 0x0F + 1, controller: numbers[1], value: numbers[2])
        }
    }

    /// Every message received so far, in order, with the JACK frame time it arrived at.
    public var messages: [(frame: Int, bytes: [Int])] {
        lines.all.compactMap { line in
            let parts = line.split(separator: "@")
            guard parts.count == 2, let frame = Int(parts[1]) else { return nil }
            return (frame, parts[0].split(separator: " ").compactMap { Int($0) })
        }
    }

    /// Everything it printed (for a failure's message).
    public var output: String { lines.all.joined(separator: "\n") }

    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    private static let script = """
        import sys, queue, signal, jack
        received = queue.Queue()
        client = jack.Client('fxhost-test-feedback', servername=sys.argv[1], no_start_server=True)
        port = client.midi_inports.register('in')

        @client.set_process_callback
        def process(frames):
            start = client.last_frame_time
            for offset, data in port.incoming_midi_events():
                received.put(' '.join(str(byte) for byte in bytes(data)) + f' @{start + offset}')

        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        with client:
            print('ready', flush=True)
            while True:
                try:
                    print(received.get(timeout=0.1), flush=True)
                except queue.Empty:
                    pass
        """
}
