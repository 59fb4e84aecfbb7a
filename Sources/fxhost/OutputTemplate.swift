import LiveControl
import Foundation

/// An `-o` path that names one output per input file of a batch:
/// `{name}` is the input's file name without its extension, `{dir}` its
/// folder (`.` when it has none), `{n}` its number in the batch (from 1, in
/// path order). Braces that hold none of these are refused, so a typo cannot
/// silently name every output the same.
struct OutputTemplate {
    static let placeholders = ["name", "dir", "n"]

    let text: String

    /// Whether `path` holds a placeholder, which makes the render a batch.
    static func isTemplate(_ path: String) -> Bool {
        placeholders.contains { path.contains("{\($0)}") }
    }

    init(_ text: String) throws {
        self.text = text
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let word = rest[rest.index(after: open)..<close]
            guard Self.placeholders.contains(String(word)) else {
                throw CommandLineError("`-o \(text)` holds `{\(word)}`, which is no placeholder: a batch output may use {name}, {dir} and {n}")
            }
            rest = rest[rest.index(after: close)...]
        }
    }

    /// The output path for `input`, the `number`th file of the batch. One
    /// pass over the template, so a file name holding braces stays as it is.
    func expand(input: String, number: Int) -> String {
        let folder = (input as NSString).deletingLastPathComponent
        let values = ["name": URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent,
                      "dir": folder.isEmpty ? "." : folder, "n": String(number)]
        var result = ""
        var rest = text[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}"),
              let value = values[String(rest[rest.index(after: open)..<close])] {
            result += rest[..<open] + value
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }
}
