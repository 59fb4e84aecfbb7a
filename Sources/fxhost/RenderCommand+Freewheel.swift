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
            child = try ChildProcess.start(ChildProcess.thisExecutable, arguments: CommandLine.arguments + ["--freewheel-worker"])
        } catch {
            throw CommandLineError("cannot start the process that renders through JACK: \(error.reason)")
        }
        let signals = StopSignals()
        defer { signals.restore() }
        var forwarded = false
        var status: Int32 = 0
        while true {
            let ended = waitpid(child, &status, WNOHANG | WUNTRACED)
            if ended == child { break }
            if ended < 0 && errno != EINTR { throw CommandLineError("lost the process that renders through JACK") }
            // SIGINT from a terminal reaches the child too; SIGTERM sent to
            // this process alone is passed on. The child stops as a render does.
            if let signal = signals.caught, !forwarded {
                kill(child, signal)
                forwarded = true
            }
            usleep(20_000)
        }
        let stopped = status & 0xff == 0x7f  // WIFSTOPPED: the child crashed and waits
        guard stopped || status & 0x7f != 0 else {  // else it exited, having said why
            let code = (status >> 8) & 0xff
            if code == 0 { return }
            throw ExitCode(code)
        }
        let server = keeper.serverName ?? "default"
        if !quiet && !json {
            Terminal.status("switching JACK server `\(server)` back to realtime mode (it takes the server some seconds)…")
        }
        _ = keeper.leaveFreewheel()
        if stopped {
            kill(child, SIGKILL)
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        }
        // The child could not remove what it had begun to write.
        for output in outputs.map(FileAssignment.init) {
            unlink(AudioFileWriter.partialPath(for: output.path))
        }
        guard stopped else {  // killed outright: it said nothing
            throw CommandLineError("the process rendering through JACK was killed by \(signalName(status & 0x7f)); nothing was written, and the server is back in realtime mode")
        }
        if !quiet && !json { Terminal.status("JACK server `\(server)` is back in realtime mode") }
        throw ExitCode(1)
    }
}
