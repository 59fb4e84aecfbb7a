// rtsan-probe MODE SERVER FRAMES
//
// Runs a LiveEngine on the already running JACK server SERVER (a private
// dummy server the caller owns) with a program of FRAMES-frame blocks: it
// waits for the first cycle, sends 50 commands and waits until the callback
// has applied them all. MODE `allocate` puts a hook that calls malloc into
// the program, so RealtimeSanitizer must kill this process on the first
// cycle; MODE `clean` puts a hook that only counts, so it must exit 0 with
// no report. Exit 2 on bad arguments, 3 on a JACK error, 4 when the engine
// did not run or apply the commands within a minute.
import CShim
import Glibc
import HostCore
import JackIO

let arguments = CommandLine.arguments
guard arguments.count == 4, ["allocate", "clean"].contains(arguments[1]), let frames = Int(arguments[3]), frames > 0 else {
    fputs("usage: rtsan-probe allocate|clean SERVER FRAMES\n", stderr)
    exit(2)
}
let allocates = arguments[1] == "allocate"
// Line-buffered even into a file: the sanitizer aborts without flushing.
setvbuf(stdout, nil, _IOLBF, 0)
print("rtsan available: \(fxhost_rtsan_available())")

// Memory the program points into; it lives until exit.
let ones = UnsafeMutablePointer<Float>.allocate(capacity: frames)
ones.initialize(repeating: 1, count: frames)
let output = UnsafeMutablePointer<Float>.allocate(capacity: frames)
output.initialize(repeating: 0, count: frames)
let gain = UnsafeMutablePointer<Float>.allocate(capacity: 1)
gain.initialize(to: 0.5)
let hookState = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: 1)
hookState.initialize(to: nil)

let countingHook: KernelHookFunction = { context in
    let count = context!.assumingMemoryBound(to: Int.self)
    count.pointee &+= 1
}
let allocatingHook: KernelHookFunction = { context in
    // The deliberate violation: an allocation on the realtime thread.
    context!.assumingMemoryBound(to: UnsafeMutableRawPointer?.self).pointee = malloc(64)
}
let ops = UnsafeMutableBufferPointer<RenderOp>.allocate(capacity: 2)
_ = ops.initialize(from: [
    .copyScaled(from: ones, to: output, gain: gain),
    .hook(KernelHook(function: allocates ? allocatingHook : countingHook, context: UnsafeMutableRawPointer(hookState))),
])
let connections = UnsafeMutableBufferPointer<PortConnection>.allocate(capacity: 0)
let program = RenderProgram(ops: UnsafeBufferPointer(ops), connections: UnsafeBufferPointer(connections),
                            maxBlockFrames: frames)

do {
    let client = try JackClient(name: "rtsan-probe", server: arguments[2])
    let engine = try LiveEngine(client: client, inputs: [], outputs: ["out"])
    try engine.publish(LiveProgram(program: program, inputs: [], outputs: [output], owner: nil))
    try engine.start()
    // Each step waits for cycles, never for a time: a cold server on a busy
    // machine may take seconds to run the callback, and a verdict taken
    // before it ran would prove nothing.
    let deadline = ContinuousClock.now + .seconds(60)
    func waitUntil(_ condition: () -> Bool) {
        while !condition() && ContinuousClock.now < deadline { usleep(10_000) }
    }
    waitUntil { engine.statistics.cycles > 0 }
    let steps = 50
    for step in 0..<steps {
        try engine.send(.setFloat(gain, step % 2 == 0 ? 0.25 : 0.5))
        usleep(10_000)
    }
    waitUntil { engine.statistics.commandsApplied == steps }
    engine.stop()
    let statistics = engine.statistics
    print("cycles: \(statistics.cycles) commands: \(statistics.commandsApplied) xruns: \(statistics.xruns)",
          "host overhead: \(Int(statistics.hostOverheadNanosecondsPerCycle)) ns per cycle")
    if statistics.cycles == 0 || statistics.commandsApplied != steps { exit(4) }
} catch {
    fputs("rtsan-probe: \(error)\n", stderr)
    exit(3)
}
