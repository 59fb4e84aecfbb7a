import HostCore
import JackIO

/// One command of the protocol, declared once: its JSON name and fields,
/// its console syntax and help line, its OSC address and arguments, what
/// Tab completes for each argument, and how each front end's form reads
/// into the one `ControlCommand` (and back to JSON). `CommandTable.all`
/// lists them; the console, OSC and JSON readers, the console's `help`,
/// Tab completion and docs/control.md all derive from that list.
package struct CommandSpec: Sendable {
    /// The JSON form's `cmd` (`set`, `tap.pause`).
    package let name: String
    /// The console's words that choose it (`["tap", "pause"]`); the
    /// longest match wins, so `tap pause X` is never a tap on node `pause`.
    package let words: [String]
    /// Other first words the console takes for it (`exit` for `quit`).
    package let aliases: [String]
    /// The console syntax, as `help` shows it.
    package let syntax: String
    /// One line of what it does.
    package let help: String
    /// Its OSC address and the arguments it takes, as an error names them.
    package let oscAddress: String
    package let oscArguments: String
    /// The JSON fields besides `v` and `cmd`, as docs/control.md shows them.
    package let jsonFields: String
    /// What Tab offers for each argument after `words`.
    package let completion: [CompletionKind]
    /// A question that changes nothing (`status`, `state`, `map`): its reply is
    /// data, which the console prints as text, or as JSON after `--json`.
    package let isQuery: Bool
    /// One use of it in each form, which must read as the same command:
    /// the test that walks the table runs them, and docs/control.md shows them.
    package let example: Example

    let console: @Sendable (ConsoleArguments) throws(FrontEndError) -> ControlCommand
    let osc: @Sendable (OSCArguments) throws(OSCRequestError) -> ControlCommand
    let decode: @Sendable (inout JSONFields) throws(ProtocolError) -> ControlCommand
    /// The JSON fields of `command` when it is this command, else nil.
    let encode: @Sendable (ControlCommand) -> [String: JSONValue]?

    package struct Example: Sendable {
        package var console: String
        package var osc: OSCMessage
        package var json: String
    }

    /// What an argument is, for Tab: names from the session, fixed words, or a file.
    package enum CompletionKind: Equatable, Sendable {
        /// A plugin node.
        case plugin
        /// Any node.
        case node
        /// A parameter of the node named by the argument before.
        case parameter
        /// A value of the parameter named by the argument before (toggles, labels).
        case value
        /// A preset label of the node before: the rest of the line, spaces included.
        case presetLabel
        case scene
        /// A setlist run's patch name.
        case patch
        /// A file path, completed from the folder typed.
        case file
        case words([String])
        /// Options that may come in any order after the others (`--from`, `--to`),
        /// each followed by a value that is not completed.
        case options([String])
        /// Nothing to complete (a free name, a number).
        case none
    }

    package init(name: String, words: [String], aliases: [String] = [], syntax: String, help: String,
                 osc oscAddress: String, _ oscArguments: String, json jsonFields: String,
                 completion: [CompletionKind] = [], isQuery: Bool = false, example: Example,
                 console: @escaping @Sendable (ConsoleArguments) throws(FrontEndError) -> ControlCommand,
                 osc: @escaping @Sendable (OSCArguments) throws(OSCRequestError) -> ControlCommand,
                 decode: @escaping @Sendable (inout JSONFields) throws(ProtocolError) -> ControlCommand,
                 encode: @escaping @Sendable (ControlCommand) -> [String: JSONValue]?) {
        self.name = name
        self.words = words
        self.aliases = aliases
        self.syntax = syntax
        self.help = help
        self.oscAddress = oscAddress
        self.oscArguments = oscArguments
        self.jsonFields = jsonFields
        self.completion = completion
        self.isQuery = isQuery
        self.example = example
        self.console = console
        self.osc = osc
        self.decode = decode
        self.encode = encode
    }
}
