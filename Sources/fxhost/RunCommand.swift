import ArgumentParser
import Foundation
import HostCore
import JackIO
import LiveControl
import WebControl

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Play a patch live on a running JACK server, controlled from the console while it plays.",
        discussion: """
            fxhost becomes a JACK client with one input port per channel of each live input node \
            (named NODE, or NODE_1, NODE_2… for several channels) and one output port per output \
            channel, connected to the ports the patch names (exact names or patterns) unless \
            --no-connect. File sources play in realtime from their start offsets. The server is \
            --server, else $JACK_DEFAULT_SERVER, else the default one; fxhost never starts one.

            Taps (from the patch, --tap or the console) record while it plays; their files stay \
            readable even if fxhost is killed. A tap whose disk fills stops at once, its file \
            closed and readable, and says so (console, OSC, status); the rest plays on and the \
            summary names it. Ctrl-C (SIGINT) or SIGTERM finalises every tap and \
            exits 0; if the server shuts down, the taps are finalised and fxhost exits 1 (with \
            --reconnect it waits for the server instead, and carries on where it was).

            While it plays, type commands on stdin (a terminal or a pipe); `help` lists them. On a \
            terminal they are typed at a prompt under the status line, with line editing, history \
            (Up, Down; kept across runs) and Tab completion of commands, nodes, parameters, presets \
            and files; Ctrl-D quits:
              set drive drive 0.8      bypass room on       preset eq "Bass boost"
              tap drive take.flac      untap drive          connect vox verb -12dB
              disconnect vox verb      status --json        quit
              bounce mix.wav           bounce cancel        bounce a.flac --from 30 --to 45
              tap pause drive          tap resume drive     save       save copy.yaml
              learn amp gain           unlearn amp gain     map        scene lead
              tempo 140                transport stop       preset save amp Quiet

            A patch's midi-control: section adds a JACK MIDI input, fxhost:midi_control, connected \
            to its input: ports: mapped controllers move parameters in the block they arrive in, \
            program changes switch scenes: whole in one block, and `learn NODE PARAM` maps the next \
            controller that moves (docs/live.md).

            --osc PORT takes the same commands as OSC over UDP on 127.0.0.1 (--osc HOST:PORT \
            elsewhere), such as `oscsend localhost 9000 /fxhost/set ssf amp gain -6`; errors come \
            back as /fxhost/error, /fxhost/status replies with the status JSON (docs/live.md). \
            --web PORT serves a control page and the same commands over HTTP and WebSocket \
            (docs/control.md); off loopback every request needs the token printed with the URL.

            `save` writes the running state (values, bypass, wiring, taps) over the patch file, \
            keeping its comments where values changed in place; `save FILE` writes it elsewhere. \
            --watch applies edits saved to the patch file while it plays (docs/live.md).

            Under systemd (Type=notify, contrib/fxhost.service) it sends READY=1 once the patch \
            plays and its ports are connected, WATCHDOG=1 every half of WatchdogSec, STOPPING=1 \
            as it stops, and warnings as STATUS=; without $NOTIFY_SOCKET it sends nothing \
            (docs/live.md, "Running as a service").

            `bounce FILE` exports as a DAW does: the live outputs go silent, the server freewheels \
            while the patch's file sources are rendered to FILE (the same samples as `fxhost render \
            --block <buffer size>`; live inputs play silence, taps are not written), then the server \
            returns to realtime and playing resumes where it was. The bounce uses new plugin \
            instances, so the live ones keep their state. Other edits wait until it ends.

            Examples:
              fxhost run Presets/guitar-crunch.yaml
              fxhost run live.yaml --server studio --tap main=take1.wav
              fxhost run --chain "mda/Overdrive drive=0.6 ! mda/Ambience" --no-connect
              echo "set amp gain -6" | fxhost run amp.yaml --duration 10s --quiet
              fxhost run amp.yaml --osc 9000
              fxhost run amp.yaml --web 8080
              fxhost run amp.yaml --watch
              fxhost run show.yaml          # a setlist: next, prev, load NAME (docs/live.md)
            """)

    @OptionGroup var source: PatchOptions

    @Option(help: ArgumentHelp("The JACK server to join (default: $JACK_DEFAULT_SERVER, else the default server).",
                               valueName: "NAME"))
    var server: String?

    @Option(name: .customLong("name"), help: ArgumentHelp("The JACK client name.", valueName: "CLIENT"))
    var clientName = "fxhost"

    @Option(help: ArgumentHelp("Stop by itself after this long (e.g. 30s, 500ms).", valueName: "DURATION"))
    var duration: String?

    @Option(name: .customLong("tap"), help: ArgumentHelp(
        "Record a node's output (NODE or NODE:N) to FILE while it plays; repeatable.", valueName: "NODE=FILE"))
    var taps: [String] = []

    @Flag(help: "If the server shuts down, wait for it to return and resume the same patch (taps keep recording).")
    var reconnect = false

    @Option(help: ArgumentHelp("Threads that render each cycle, the JACK callback's included: independent branches of the graph run at once on realtime threads at the callback's priority; the sound is the same for any N, and 1 renders in the callback only. Default and most: the number of cores.",
                               valueName: "N"))
    var threads: Int?

    @Option(help: ArgumentHelp("Listen for OSC over UDP on PORT of 127.0.0.1, or on HOST:PORT (0.0.0.0:PORT: every interface); the addresses are in docs/live.md.",
                               valueName: "PORT|HOST:PORT"))
    var osc: String?

    @Option(help: ArgumentHelp("Serve the control page and its API (HTTP and WebSocket) on PORT of 127.0.0.1, or on HOST:PORT (0.0.0.0:PORT: every interface, which needs a token); the URL is printed on stderr; the API is in docs/control.md.",
                               valueName: "PORT|HOST:PORT"))
    var web: String?

    @Option(help: ArgumentHelp("The token every web request must carry (?token=, X-Fxhost-Token or Authorization: Bearer); default off loopback: one generated and printed with the URL.",
                               valueName: "TOKEN"))
    var webToken: String?

    @Option(help: ArgumentHelp("The folder OSC and web clients may name files in (taps, bounces, saved patches, files for plugins); default: the patch's folder. Their paths are relative, without `..`, and stay inside it.",
                               valueName: "DIR"))
    var files: String?

    @Flag(help: "Follow the patch file: edits saved to it are applied while it plays (values as parameter changes, new or rewired nodes as one graph edit that keeps every other plugin's state); a file that does not read is refused with file:line:column and the old patch plays on.")
    var watch = false

    @Flag(help: "Register the ports but connect nothing.")
    var noConnect = false

    @Flag(help: "No status line and no summary on stderr.")
    var quiet = false

    @Flag(help: "Print the closing status as JSON on stdout.")
    var json = false

    /// The engine process a supervised run starts (`RunCommand+Engine`): started by fxhost, not by people.
    @Flag(name: .customLong("engine-child"), help: .private)
    var engineChild = false

    /// An engine restarted after a crash plays this snapshot of the running state instead of the patch.
    @Option(name: .customLong("engine-restart"), help: .private)
    var engineRestart: String?

    /// Nodes a crash left out, bypassed in the restarted engine.
    @Option(name: .customLong("engine-bypass"), help: .private)
    var engineBypass: [String] = []

    /// The connections of the crashed engine's ports (JSON: `JackConnections`), remade instead of the patch's.
    @Option(name: .customLong("engine-connections"), help: .private)
    var engineConnections: String?

    /// The scene the crashed engine had last switched to: its status says so again (its values are in the snapshot).
    @Option(name: .customLong("engine-scene"), help: .private)
    var engineScene: String?

    /// Nodes that crashed in instantiate(), left out and never made: a stand-in plays their part (`StandInUnit`).
    @Option(name: .customLong("engine-stand-in"), help: .private)
    var engineStandIn: [String] = []

    /// The setlist's patch the crashed engine had switched to: the restarted one plays it.
    @Option(name: .customLong("engine-setlist-patch"), help: .private)
    var engineSetlistPatch: String?

    /// Takes the restarted engine goes on with (JSON: `[TakeContinuation]`).
    @Option(name: .customLong("engine-continue"), help: .private)
    var engineContinue: String?

    /// File sources the restarted engine plays on, by node: each one's origin (JSON: `{"node": frame}`).
    @Option(name: .customLong("engine-resume"), help: .private)
    var engineResume: String?

    /// The supervisor's private folder of plugin state snapshots: written while
    /// the engine plays, restored from when it is a restart (`StateSnapshots`).
    @Option(name: .customLong("engine-state"), help: .private)
    var engineState: String?

    /// `duration` in seconds, parsed once by `validate`.
    private var durationSeconds: Double?
    /// `osc` parsed once by `validate`.
    private var oscEndpoint: OSCEndpoint?
    /// `web` parsed once by `validate`.
    private var webEndpoint: WebEndpoint?

    mutating func validate() throws {
        if let osc { oscEndpoint = try OSCEndpoint(parsing: osc) }
        if let web { webEndpoint = try WebEndpoint(parsing: web) }
        if let webToken {
            guard web != nil else { throw ValidationError("--web-token goes with --web") }
            guard (8...256).contains(webToken.count), webToken.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.~".contains($0)) }) else {
                throw ValidationError("--web-token takes 8 to 256 letters, digits and - _ . ~")
            }
        }
        if let files {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: files, isDirectory: &isFolder), isFolder.boolValue else {
                throw ValidationError("--files takes a folder that exists, not `\(files)`")
            }
        }
        durationSeconds = try duration.map { try TimeOption.seconds($0, option: "--duration", atMost: .greatestFiniteMagnitude) }
        if let threads, threads < 1 { throw ValidationError("--threads must be 1 or more") }
        if watch && source.chain != nil { throw ValidationError("--watch follows a patch file; a --chain has none") }
        for tap in taps where !tap.contains("=") {
            throw ValidationError("--tap takes NODE=FILE, such as --tap drive=take.wav, not `\(tap)`")
        }
    }

    /// The supervisor: front ends, the run loop and the crash record here,
    /// the session in an engine process it restarts when a plugin crashes
    /// (`SupervisedEngine`; the engine's side is `runEngine`).
    func run() throws {
        if engineChild { return try runEngine() }
        // Before any thread exists, so every thread inherits the mask and
        // the signals wait for the host's loop.
        let signals = BlockedStopSignals()
        JackMessages.silenceUnlessVerbose()  // the client held while a bounce freewheels
        // Read here too, so --watch compares with what the engine loaded
        // and a file that cannot be read stops the run before any process starts.
        let text = try source.patch.map { try PatchFileReader.read(path: $0) }
        if watch, let text, SetlistParser.isSetlist(text: text) {
            throw CommandLineError("--watch follows one patch file; a setlist switches between several, so it is not watched")
        }
        var hostOptions = LiveHost.Options()
        hostOptions.duration = durationSeconds
        hostOptions.connectPorts = !noConnect
        // Bound before the engine starts, so a port in use stops the run before any sound.
        let osc = try oscEndpoint.map { try OSCFrontEnd(endpoint: $0) }
        let web = try webEndpoint.map { try WebFrontEnd(endpoint: $0, token: webToken) }
        if let web { Terminal.status("web: \(web.url)") }
        // Watching before the engine starts: no edit made after start-up is missed.
        let watcher = try watch ? PatchFileWatcher(path: LivePatchFile.realPath(source.patch!), loadedText: text) : nil
        let serverName = server ?? ProcessInfo.processInfo.environment["JACK_DEFAULT_SERVER"]
        let engine = SupervisedEngine(launch: .init(executable: ChildProcess.thisExecutable,
                                                     arguments: CommandLine.arguments, server: serverName))
        let host = LiveHost(engine: engine, notifier: EventNotifier(), signals: signals, options: hostOptions)
        host.attach(ConsoleFrontEnd(showsStatus: !quiet && Terminal.standardErrorIsTerminal))
        if let osc { host.attach(osc) }
        if let web { host.attach(web) }
        if let watcher { host.attach(watcher) }
        // Last: front ends start in the order attached, after the engine
        // plays and its ports are connected, so READY=1 comes when all is up.
        let server = serverName.map { "the JACK server \($0)" } ?? "the default JACK server"
        let patchName = source.patch.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "a --chain"
        host.attach(SystemdNotifier(playing: "\(patchName) on \(server)"))

        let reason: LiveHost.StopReason
        let closing: LiveStatus
        do {
            (reason, closing) = try host.run()
        } catch SupervisorError.engineExited(let status) {
            throw ExitCode(status)  // the engine said why, on stderr
        }
        var status = closing
        status.oscIgnored = osc?.ignored
        status.webRefused = web?.refused
        if json { try Terminal.printJSON(status) }
        if !quiet { LiveStatusLine.printSummary(status) }
        if reason == .serverShutDown { throw LiveRunError.serverShutDown(taps: status.taps.count) }
        if reason == .engineFailed { throw ExitCode(1) }  // every front end was told why
    }

    /// `NODE=FILE` or `NODE:N=FILE`.
    static func tapArgument(_ text: String) throws -> (PortReference, String) {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[1].isEmpty else {
            throw CommandLineError("--tap takes NODE=FILE, such as --tap drive=take.wav, not `\(text)`")
        }
        return (try ConsoleArguments.port(parts[0]), parts[1])
    }
}
