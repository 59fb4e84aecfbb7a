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
//
// MODE `allocate-on-worker` and `clean-on-worker` run the engine with a
// render worker thread and a program of two parallel tasks: the first
// holds its thread until the second has started (so another thread runs
// the second), and the second, when it runs on a thread other than JACK's
// process thread, calls malloc (`allocate-on-worker`) or only counts. The
// worker must be inside the sanitizer's realtime section, so the first must
// die on the worker's first task, and the second prints how many tasks the
// worker ran (and exits 5 if it ran none).
import CCoreShim
import Glibc
import HostCore
import JackIO
import Synchronization
import CJack

let arguments = CommandLine.arguments
let modes = ["allocate", "clean", "allocate-on-worker", "clean-on-worker"]
guard arguments.count == 4, modes.contains(arguments[1]), let frames = Int(arguments[3]), frames > 0 else {
    fputs("usage: rtsan-probe allocate|clean|allocate-on-worker|clean-on-worker SERVER FRAMES\n", stderr)
    exit(2)
}
let allocates = arguments[1].hasPrefix("allocate")
let onWorker = arguments[1].hasSuffix("on-worker")
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

/// The two-task program's shared words: JACK's process thread, and whether
/// the second task has started this block.
struct WorkerProbe: ~Copyable {
    var processThread: pthread_t? = nil
    let secondStarted = Atomic<Bool>(false)
    let tasksOffTheProcessThread = Atomic<Int>(0)
    var allocations: UnsafeMutableRawPointer? = nil
}
let probe = UnsafeMutablePointer<WorkerProbe>.allocate(capacity: 1)
probe.initialize(to: WorkerProbe())
// Task 1: waits (up to about 2 ms) for task 2 to start elsewhere.
let holdingHook: KernelHookFunction = { context in
    let probe = context!.assumingMemoryBound(to: WorkerProbe.self)
    var spins = 0
    while !probe.pointee.secondStarted.load(ordering: .acquiring) && spins < 200_000 { spins += 1 }
    probe.pointee.secondStarted.store(false, ordering: .relaxed)
}
// Task 2: off JACK's process thread, counts (and allocates if asked).
let workerHook: KernelHookFunction = { context in
    let probe = context!.assumingMemoryBound(to: WorkerProbe.self)
    probe.pointee.secondStarted.store(true, ordering: .releasing)
    guard let processThread = probe.pointee.processThread, pthread_equal(pthread_self(), processThread) == 0 else { return }
    probe.pointee.tasksOffTheProcessThread.wrappingAdd(1, ordering: .relaxed)
}
let allocatingWorkerHook: KernelHookFunction = { context in
    let probe = context!.assumingMemoryBound(to: WorkerProbe.self)
    probe.pointee.secondStarted.store(true, ordering: .releasing)
    guard let processThread = probe.pointee.processThread, pthread_equal(pthread_self(), processThread) == 0 else { return }
    // The deliberate violation, on the worker.
    probe.pointee.allocations = malloc(64)
}

let opList: [RenderOp] = onWorker
    ? [.copyScaled(from: ones, to: output, gain: gain),
       .hook(KernelHook(function: holdingHook, context: UnsafeMutableRawPointer(probe))),
       .hook(KernelHook(function: allocates ? allocatingWorkerHook : workerHook, context: UnsafeMutableRawPointer(probe)))]
    : [.copyScaled(from: ones, to: output, gain: gain),
       .hook(KernelHook(function: allocates ? allocatingHook : countingHook, context: UnsafeMutableRawPointer(hookState)))]
let ops = UnsafeMutableBufferPointer<RenderOp>.allocate(capacity: opList.count)
_ = ops.initialize(from: opList)
let connections = UnsafeMutableBufferPointer<PortConnection>.allocate(capacity: 0)
// Two tasks with no edge between them: ops 0–1 and op 2.
let tasks = onWorker ? RenderTaskLayout.allocate(
    tasks: [RenderTask(firstRange: 0, rangeCount: 1, firstSuccessor: 0, successorCount: 0, predecessorCount: 0),
            RenderTask(firstRange: 1, rangeCount: 1, firstSuccessor: 0, successorCount: 0, predecessorCount: 0)],
    ranges: [OpRange(start: 0, end: 2), OpRange(start: 2, end: 3)], successors: [], parallelWidth: 2) : nil
let program = RenderProgram(ops: UnsafeBufferPointer(ops), connections: UnsafeBufferPointer(connections),
                            maxBlockFrames: frames, tasks: tasks)

do {
    let client = try JackClient(name: "rtsan-probe", server: arguments[2])
    let engine = try LiveEngine(client: client, inputs: [], outputs: ["out"], threads: onWorker ? 2 : 1)
    try engine.publish(LiveProgram(program: program, inputs: [], outputs: [output], owner: nil))
    try engine.start()
    probe.pointee.processThread = jack_client_thread_id(try client.handle())
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
    // A worker starved by a loaded machine may take no task in those cycles: more cycles, not a verdict.
    if onWorker { waitUntil { probe.pointee.tasksOffTheProcessThread.load(ordering: .relaxed) > 0 } }
    engine.stop()
    let statistics = engine.statistics
    print("cycles: \(statistics.cycles) commands: \(statistics.commandsApplied) xruns: \(statistics.xruns)",
          "host overhead: \(Int(statistics.hostOverheadNanosecondsPerCycle)) ns per cycle")
    if statistics.cycles == 0 || statistics.commandsApplied != steps { exit(4) }
    if onWorker {
        print("worker tasks: \(engine.tasksRunByWorkers) off the process thread: \(probe.pointee.tasksOffTheProcessThread.load(ordering: .relaxed))")
        if probe.pointee.tasksOffTheProcessThread.load(ordering: .relaxed) == 0 { exit(5) }
    }
} catch {
    fputs("rtsan-probe: \(error)\n", stderr)
    exit(3)
}
