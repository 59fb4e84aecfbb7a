import ArgumentParser
import CCoreShim
import Foundation
import Glibc
import HostCore
import JackIO
import LiveControl

extension RenderCommand {
    /// `--engine jack`: the render runs in a child process (this command
    /// again, with `--freewheel-worker`) while this one holds a client of
    /// its own on the server (`FreewheelKeeper`). jackd2 cannot drop a
    /// client that dies while the server freewheels: it stops playing for
    /// good. So a crash in the child stops it (`CrashReport`, told to stop)
    /// instead of ending it; this process then switches freewheel off, which
    /// the server does once its timeouts pass, and only then kills the
    /// child, which the server, back in realtime, drops cleanly. The child
    /// prints what happened; its exit status is this command's.
    func runFreewheelInChild() throws {
        JackMessages.silenceUnlessVerbose()
        let keeper: FreewheelKeeper
        do {
            keeper = try FreewheelKeeper(server: server)
        } catch {
            throw FreewheelError.jack(error)
        }
        let child: pid_t
        do throws(ChildProcessError) {
            child = try ChildProcess.start(ChildProcess.thisExecutable,
                                           arguments: ChildProcess.thisCommand(adding: ["--freewheel-worker"]))
        } catch {
            throw CommandLineError("cannot start the process that renders through JACK: \(error.reason)")
        }
        let signals = StopSignals()
        defer { signals.restore() }
        var lastForwarded = 0.0
        var ending: ChildProcess.Ending
        while true {
            var status: Int32 = 0
            let result = waitpid(child, &status, WNOHANG | WUNTRACED)
            if result == child {
                ending = ChildProcess.Ending(waitStatus: status)
                // Only the crash handler's own SIGSTOP means a crash: a stop
                // from a terminal or from anyone else is undone.
                if case .stopped(let signal) = ending, signal != SIGSTOP {
                    kill(child, SIGCONT)
                    continue
                }
                break
            }
            if result < 0 && errno != EINTR { throw CommandLineError("lost the process that renders through JACK") }
            // A stop signal is passed on, again every half second until the
            // child ends: it ignores SIGINT and SIGTERM but while its render
            // catches them, so a signal that came while it was setting up
            // reaches the render once it starts, and a second one (a
            // terminal's Ctrl-C reaches both processes) can never kill it.
            if let signal = signals.caught, Double(MonotonicClock.nanoseconds()) / 1e9 - lastForwarded >= 0.5 {
                kill(child, signal)
                lastForwarded = Double(MonotonicClock.nanoseconds()) / 1e9
            }
            usleep(20_000)
        }
        switch ending {
        case .exited(let code):  // it said why, if anything went wrong
            if code != 0 { throw ExitCode(code) }
            return
        case .stopped:  // crashed, said so, and waits
            let server = keeper.serverName ?? "default"
            if !quiet && !json {
                Terminal.status("switching JACK server `\(server)` back to realtime mode (it takes the server some seconds)…")
            }
            // Its answer says nothing here: it refuses when freewheel was off already (a crash while setting up).
            _ = keeper.leaveFreewheel()
            kill(child, SIGKILL)
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
            if !quiet && !json { Terminal.status("JACK server `\(server)` is back in realtime mode") }
            throw ExitCode(1)
        case .signalled(let signal) where signal == SIGINT || signal == SIGTERM:
            // Before it began to ignore them: nothing was open yet.
            throw CommandLineError("interrupted by \(signalName(signal)) before the render began; nothing was written")
        case .signalled(let signal):  // killed outright (SIGKILL, the OOM killer): it said nothing
            _ = keeper.leaveFreewheel()
            // The child could not remove what it had begun to write.
            for output in outputs.map(FileAssignment.init) {
                unlink(AudioFileWriter.partialPath(for: output.path))
            }
            throw CommandLineError("the process rendering through JACK was killed by \(signalName(signal)); nothing was written; freewheel is off again, but a JACK server whose freewheeling client was killed may need a restart before it bounces again")
        }
    }
}
