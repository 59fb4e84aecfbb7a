/// One key the console prompt understands, decoded from the terminal's
/// bytes by `ConsoleKeyDecoder`. Control keys keep their letter
/// (`.control("a")` is Ctrl-A); Alt-X arrives as Escape then X and is `.alt("x")`.
enum ConsoleKey: Equatable {
    case character(Character)
    case enter, tab, backspace, delete
    case left, right, up, down, home, end
    /// Ctrl-Left and Alt-Left (xterm's modified arrows), and their right-hand twins.
    case wordLeft, wordRight
    case control(Character)
    case alt(Character)
    /// Alt-Backspace: delete the word before the cursor.
    case altBackspace
}
