import HostCore
import JackIO

/// One change a command made to a live session, as `ControlDispatcher`
/// announces it to every listener: what changed, and which front end asked.
/// Values are the ones the session holds (a parameter's number as stored,
/// a tap's time as written), so every listener shows the same thing.
package struct ControlChange: Equatable, Sendable, Codable {
    package enum Kind: Equatable, Sendable, Codable {
        /// `value` as stored, after the parameter's range check.
        case parameter(node: String, parameter: String, value: Float)
        /// A message parameter (a file, a sample) set to `value`, as sent (a path made absolute).
        case property(node: String, property: String, value: String)
        case bypass(node: String, on: Bool)
        case presetApplied(node: String, name: String)
        /// `bundle`: the folder written.
        case presetSaved(node: String, name: String, bundle: String)
        case tapStarted(PortReference, file: String)
        case tapPaused(Take)
        case tapResumed(Take)
        /// The tap's file is finalised.
        case tapStopped(Take)
        /// The tap's file could not be written (`reason`: a few words, "disk
        /// full"): it is closed at its last whole frame and the tap records
        /// no more; the other taps and the sound go on. Announced as soon as
        /// the tap's writer meets the error, from `.host`.
        case tapFailed(Take, reason: String)
        case connected(from: PortReference, to: PortReference, gainDecibels: Double)
        case disconnected(from: PortReference, to: PortReference)
        /// The live outputs are silent until the bounce ends.
        case bounceStarted(files: [String])
        /// The bounce ended and live playing has resumed.
        case bounceFinished(Bounced)
        /// The bounce failed or was cancelled (`reason`: one sentence) and
        /// live playing has resumed; no file is kept.
        case bounceFailed(reason: String)
        /// `learn`: the next controller that moves will be mapped to `parameter` (or `bypass`).
        case learning(node: String, parameter: String)
        /// A mapping `learn` made when a controller moved, and the mappings
        /// it replaced (of the same controller, or to the same parameter).
        case mapped(MIDIMapping, replacing: [MIDIMapping] = [])
        /// `unlearn`: no controller moves `parameter` (or `bypass`) any more.
        case unmapped(node: String, parameter: String)
        /// A scene was switched to; its values and bypasses follow as changes of their own.
        case sceneApplied(String)
        /// The running state was written to `file` (`save`).
        case saved(file: String)
        /// A reload of the patch file (`--watch`) swapped in a new graph:
        /// nodes added and removed (a node whose plugin changed is both),
        /// and whether the connections changed. Its value changes are
        /// announced as `.parameter`, `.presetApplied` and `.bypass`.
        case patchReloaded(added: [String], removed: [String], rewired: Bool)
        /// A reload refused (`reason`: one sentence with `file:line:column`);
        /// the running graph plays on unchanged.
        case patchRefused(reason: String)
        /// A setlist run switched to its patch `name` (at `index`, from 0);
        /// what the switch changed follows as changes of their own.
        case patchSwitched(name: String, index: Int)
        /// The host's own transport plays at this tempo (beats per minute).
        case tempo(Double)
        /// `tempo tap` counted a tap that gives no tempo yet (the first of a
        /// count): `taps` in the count so far; tap again.
        case tempoTapped(taps: Int)
        /// The transport was started (true) or stopped.
        case transport(rolling: Bool)
        /// The engine crashed (or hung) and its supervisor restarted it,
        /// the culprit left out; or could not, and the run ends. From `.host`.
        case engineCrashed(LiveStatus.Crash)
        /// `restore`: a node a crash left out plays again.
        case restored(node: String)
    }

    /// A tap at the moment of the change.
    package struct Take: Equatable, Sendable, Codable {
        package var node: String
        package var file: String
        /// Seconds in the file (a paused stretch is not in it).
        package var seconds: Double
        package var droppedFrames: Int

        package init(node: String, file: String, seconds: Double, droppedFrames: Int) {
            self.node = node
            self.file = file
            self.seconds = seconds
            self.droppedFrames = droppedFrames
        }

        init(_ tap: LiveStatus.Tap) {
            self.init(node: tap.node, file: tap.file, seconds: tap.seconds, droppedFrames: tap.droppedFrames)
        }
    }

    /// A finished bounce: its files and how long it took.
    package struct Bounced: Equatable, Sendable, Codable {
        package var files: [String]
        /// Seconds of audio in the files.
        package var seconds: Double
        package var elapsedSeconds: Double
        /// Times faster than realtime.
        package var speed: Double
    }

    package var kind: Kind
    package var source: ControlSource

    package init(_ kind: Kind, from source: ControlSource) {
        self.kind = kind
        self.source = source
    }
}

extension ControlChange.Kind {
    /// A change the session made by itself (MIDI) or in a scene, in the protocol's terms.
    package init(_ change: LiveSessionChange) {
        switch change {
        case .parameter(let node, let parameter, let value): self = .parameter(node: node, parameter: parameter, value: value)
        case .bypass(let node, let on): self = .bypass(node: node, on: on)
        case .sceneApplied(let name): self = .sceneApplied(name)
        case .mapped(let mapping, let replaced): self = .mapped(mapping, replacing: replaced)
        case .tempo(let beatsPerMinute): self = .tempo(beatsPerMinute)
        }
    }
}
