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
/// the run loop, and, should the process exit another way (`exit()`), from
/// an `atexit` handler.
enum RawTerminalMode {
    /// The settings before `enter`, kept where an `atexit` handler (a C function) can reach them.
    nonisolated(unsafe) private static var saved: termios?
    nonisolated(unsafe) private static var restoresAtExit = false

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
        guard tcsetattr(STDIN_FILENO, TCSADRAIN, &raw) == 0 else { return false }
        if !restoresAtExit {
            restoresAtExit = true
            atexit { RawTerminalMode.restore() }
        }
        saved = original
        return true
    }

    /// Puts back the settings `enter` found; does nothing if it did not switch.
    static func restore() {
        guard var original = saved else { return }
        tcsetattr(STDIN_FILENO, TCSADRAIN, &original)
        saved = nil
    }
}
