import HostCore
import JackIO
import Foundation

/// The terminal switched to what a line editor needs, and back. Keys
/// arrive one by one without echo (ICANON, ECHO and IEXTEN off), Ctrl-S no
/// longer freezes output (IXON off: a frozen terminal would stall the run
/// loop's writes), and Ctrl-Z does nothing (stopped, the process would stop
/// the audio too). Ctrl-C still sends SIGINT (ISIG stays on), which the run
/// loop takes to finalise the taps and exit; output processing stays on, so
/// a newline written by anyone still starts a new line.
///
/// `restore()` puts the saved settings back; it runs on every way out of
/// the run loop. Should the process end another way, an `atexit` handler
/// restores them on `exit()`, and a handler for the fatal signals (a
/// crash, a failed precondition) restores them and hands the signal on to
/// whatever handled it before (Swift's backtracer, or the default).
enum RawTerminalMode {
    /// Switches stdin's terminal; false (and nothing changed) when it is not one.
    static func enter() -> Bool {
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return false }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON)
        withUnsafeMutableBytes(of: &raw.c_cc) { characters in
            characters[Int(VMIN)] = 1
            characters[Int(VTIME)] = 0
            characters[Int(VSUSP)] = 0  // _POSIX_VDISABLE on Linux
        }
        savedSettings.pointee = original
        isRaw.pointee = 0  // made before a handler can read it
        installHandlersOnce()
        guard tcsetattr(STDIN_FILENO, TCSADRAIN, &raw) == 0 else { return false }
        isRaw.pointee = 1
        return true
    }

    /// Puts back the settings `enter` found; does nothing if it did not switch.
    static func restore() {
        guard isRaw.pointee != 0 else { return }
        isRaw.pointee = 0
        tcsetattr(STDIN_FILENO, TCSADRAIN, savedSettings)
    }

    private static func installHandlersOnce() {
        guard !handlersInstalled.pointee else { return }
        handlersInstalled.pointee = true
        atexit { RawTerminalMode.restore() }
        for (index, signal) in fatalSignals.enumerated() {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                // Only what is safe in a signal handler: tcsetattr, sigaction, raise.
                if isRaw.pointee != 0 { tcsetattr(STDIN_FILENO, TCSANOW, savedSettings) }
                guard let index = fatalSignalIndex(signal) else { return }
                sigaction(signal, previousActions + index, nil)
                // Blocked until this handler returns, then delivered to the previous one.
                raise(signal)
            }
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, previousActions + index)
        }
    }
}

/// What the handlers read: plain memory allocated once, so the signal
/// handler makes no Swift runtime call but a load.
private let savedSettings = UnsafeMutablePointer<termios>.allocate(capacity: 1)
private let isRaw: UnsafeMutablePointer<Int32> = {
    let pointer = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    pointer.initialize(to: 0)
    return pointer
}()
private let handlersInstalled: UnsafeMutablePointer<Bool> = {
    let pointer = UnsafeMutablePointer<Bool>.allocate(capacity: 1)
    pointer.initialize(to: false)
    return pointer
}()
private let fatalSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT]
private let previousActions = UnsafeMutablePointer<sigaction>.allocate(capacity: 6)

private func fatalSignalIndex(_ signal: Int32) -> Int? {
    switch signal {
    case SIGSEGV: 0
    case SIGBUS: 1
    case SIGILL: 2
    case SIGTRAP: 3
    case SIGFPE: 4
    case SIGABRT: 5
    default: nil
    }
}
