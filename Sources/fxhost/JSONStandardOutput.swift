import LiveControl

/// Standard output kept for a command's JSON: from `init`, what a plugin
/// prints on stdout while it is loaded or run goes to stderr
/// (`Terminal.separateResultsFromPluginOutput`), and stdout carries the
/// JSON alone, for a script to parse.
struct JSONStandardOutput {
    /// Before anything loads a plugin.
    init() {
        Terminal.separateResultsFromPluginOutput()
    }

    /// `value`, as `Terminal.json` writes it, on the real stdout.
    func print<T: Encodable>(_ value: T) throws {
        try Terminal.printJSON(value)
    }
}
