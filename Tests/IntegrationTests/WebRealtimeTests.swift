import CCoreShim
import Foundation
import HostCore
import JackIO
import LiveControl
import LV2Bridge
import TestSupport
import WebControl
import XCTest

/// The web front end costs the process callback nothing. A live host plays
/// in this process, which links RealtimeSanitizer with halt_on_error (the
/// whole test binary does; RealtimeSanitizerTests prove a violation kills
/// it), with `--web`'s front end attached, ten pages' event streams taking
/// meters at 30 Hz and a client posting `set`s meanwhile. Reaching the end
/// means the callback made no allocation, lock or blocking call while they
/// ran; the pages' meters are judged by arithmetic.
final class WebRealtimeTests: XCTestCase {
    /// A constant 0.5 through eg-amp: at -6 dB the output's peak is
    /// 20·log10(0.5 × 0.501187) = -12.04 dBFS; each of the ten clients
    /// (Python's websocket-client) reads it in its last meters, after twenty
    /// sets over HTTP ending at -6 dB, and receives at least 2 s worth of
    /// meters at 30 Hz in its 4 s.
    func testTenPagesTakingMetersAndSetsOverHTTPLeaveTheCallbackRealtimeSafe() throws {
        XCTAssertEqual(fxhost_rtsan_available(), 1, "the check needs RealtimeSanitizer linked into the test binary")
        let options = ProcessInfo.processInfo.environment["RTSAN_OPTIONS"] ?? ""
        XCTAssertFalse(options.contains("halt_on_error=false") || options.contains("halt_on_error=0"))

        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let loopback = try LoopbackClient(server: server.name, constant: 0.5, channels: 1, capacity: 48_000 * 60)
        let folder = try Tools.temporaryFolder(#function)
        let units = LV2UnitProvider(catalog: PluginCatalog(world: LV2World()))
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 1, ports: ["loopback:source"])
        let amp = try graph.addUnit("amp", units.makeUnit("http://lv2plug.in/plugins/eg-amp"))
        let output = try graph.addOutput("main", channels: 1, ports: ["loopback:record_1"])
        try graph.connect(input, to: amp)
        try graph.connect(amp, to: output)
        try graph.installTap(on: amp, file: folder.appendingPathComponent("amp.wav").path)

        var hostOptions = LiveHost.Options()
        hostOptions.duration = 120  // A bound only: the client ends the run with `quit`.
        let host = try LiveHost(graph: graph, session: LiveSession.Options(server: server), signals: nil, options: hostOptions)
        let web = try WebFrontEnd(endpoint: WebEndpoint(host: "127.0.0.1", port: 0), token: nil)
        host.attach(web)

        let client = Process()
        client.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        client.arguments = ["python3", "-c", Self.pages, web.url]
        let results = Pipe(), errors = Pipe()
        client.standardOutput = results
        client.standardError = errors
        try client.run()
        let (reason, status) = try host.run()
        client.waitUntilExit()
        let said = String(decoding: results.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(client.terminationStatus, 0, complaint)
        XCTAssertEqual(reason, .quit, complaint)
        XCTAssertEqual(status.taps.map(\.state), [.finished])

        let pages = (try? JSONSerialization.jsonObject(with: Data(said.utf8))) as? [[String: Any]] ?? []
        XCTAssertEqual(pages.count, 10, said + complaint)
        let expected = 20 * log10(0.5 * pow(10, -6.0 / 20))
        for page in pages {
            XCTAssertGreaterThanOrEqual(page["meters"] as? Int ?? 0, 60, "\(page)")
            let last = page["main"] as? [Double] ?? []
            XCTAssertEqual(last.count, 1, "\(page)")
            XCTAssertEqual(last.first ?? 0, expected, accuracy: 0.01, "\(page)")
        }
        withExtendedLifetime(loopback) {}
    }

    /// Python: waits for the server, opens ten event streams asking for
    /// meters at 30 Hz, posts twenty sets (-12 and -6 dB by turns, 100 ms
    /// apart, the last -6) while they read for 4 s, then `quit`; prints each
    /// stream's count of meters and its last peaks of `main`.
    static let pages = """
        import json, sys, threading, time, urllib.request, websocket
        base = sys.argv[1].rstrip('/')
        def post(command):
            request = urllib.request.Request(base + '/api/v1/commands', data=json.dumps(command).encode(),
                                             headers={'Content-Type': 'application/json'})
            with urllib.request.urlopen(request, timeout=30) as reply:
                assert reply.status == 200, reply.status
        deadline = time.time() + 60
        while True:
            try:
                with urllib.request.urlopen(base + '/api/v1/status', timeout=5) as reply:
                    if reply.status == 200:
                        break
            except Exception:
                if time.time() > deadline:
                    raise
            time.sleep(0.05)
        results = [None] * 10
        def page(index):
            stream = websocket.create_connection(base.replace('http:', 'ws:') + '/api/v1/events', timeout=30)
            stream.send(json.dumps({'meters': 30}))
            count, last, end = 0, None, time.time() + 4
            while time.time() < end:
                message = json.loads(stream.recv())
                if message.get('event') == 'meters':
                    count, last = count + 1, message['outputs'].get('main')
            stream.close()
            results[index] = {'meters': count, 'main': last}
        threads = [threading.Thread(target=page, args=(index,)) for index in range(10)]
        for thread in threads:
            thread.start()
        for turn in range(20):
            post({'v': 1, 'cmd': 'set', 'node': 'amp', 'param': 'gain', 'value': -6 if turn % 2 else -12})
            time.sleep(0.1)
        for thread in threads:
            thread.join()
        post({'v': 1, 'cmd': 'quit'})
        print(json.dumps(results))
        """
}
