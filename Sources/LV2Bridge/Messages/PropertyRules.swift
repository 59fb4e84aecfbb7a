import Foundation
import HostCore

/// Which values a message parameter takes, and the sentence that says why
/// when a value does not fit: the same words for a patch, `--chain` and
/// the console.
enum PropertyRules {
    /// The value to send for `value`. A relative path is taken from
    /// `folder` (the patch file's; nil: the working directory) and must name
    /// an existing regular file this process can read.
    static func check(_ value: ParameterValue, for property: PropertyDescription,
                      relativeTo folder: String?) throws(UnitError) -> PropertyValue {
        let name = "`\(property.shortName)`"
        guard property.isWritable else {
            throw UnitError("\(name) is reported by the plugin (patch:readable), not set by the host")
        }
        switch property.valueType {
        case .path:
            let path = try pathText(value, name: name)
            let resolved = absolute(path, in: folder)
            // The plugin opens the file itself (on its worker, live): a FIFO
            // there would hang it and everything that waits for it.
            do {
                try RegularFile.requireReadable(resolved)
            } catch {
                if error.isMissing { throw UnitError("\(name) takes a file path, and \(resolved) does not exist") }
                if let message = error.systemMessage { throw UnitError("\(name) takes a file, and \(resolved) cannot be read: \(message)") }
                throw UnitError("\(name) takes a file, and \(error.description)")
            }
            return .path(resolved)
        case .string:
            return .string(text(value))
        case .uri:
            return .uri(try uriText(value, name: name))
        case .urid:
            return .urid(try uriText(value, name: name))
        case .bool:
            switch value {
            case .toggle(let on): return .bool(on)
            case .number(let number) where number == 0 || number == 1: return .bool(number == 1)
            default: throw UnitError("\(name) is true or false (or 1/0), not \(value)")
            }
        case .float, .double, .int, .long:
            let number = try number(value, property: property, name: name)
            switch property.valueType {
            case .float: return .float(Float(number))
            case .double: return .double(number)
            case .int: return .int(Int32(number))
            default: return .long(Int64(number))
            }
        case .vector, .other:
            throw UnitError("\(name) takes \(property.range.map { "a value of type <\($0)>" } ?? "a value of no declared type"), which fxhost cannot send")
        }
    }

    /// A number in the property's range (whole for Int and Long).
    private static func number(_ value: ParameterValue, property: PropertyDescription,
                               name: String) throws(UnitError) -> Double {
        let whole = property.valueType == .int || property.valueType == .long
        guard case .number(let number) = value else {
            throw UnitError("\(name) takes a \(whole ? "whole number" : "number")\(rangeText(property)), not \(value)")
        }
        if whole && number != number.rounded() {
            throw UnitError("\(name) takes whole numbers, not \(NumberText.format(number))")
        }
        if property.valueType == .int && !(Double(Int32.min)...Double(Int32.max)).contains(number) {
            throw UnitError("\(name) is \(NumberText.format(number)), beyond a 32-bit whole number")
        }
        if property.valueType == .long && !(-9.2e18...9.2e18).contains(number) {
            throw UnitError("\(name) is \(NumberText.format(number)), beyond a 64-bit whole number")
        }
        if property.valueType == .float && !(-Double(Float.greatestFiniteMagnitude)...Double(Float.greatestFiniteMagnitude)).contains(number) {
            throw UnitError("\(name) is \(NumberText.format(number)), beyond a 32-bit float")
        }
        if let minimum = property.minimum, number < Double(minimum) {
            throw UnitError("\(name) is \(NumberText.format(number)), outside its range\(rangeText(property))")
        }
        if let maximum = property.maximum, number > Double(maximum) {
            throw UnitError("\(name) is \(NumberText.format(number)), outside its range\(rangeText(property))")
        }
        return number
    }

    /// ` 0…1`, or nothing when the plugin gives no range.
    static func rangeText(_ property: PropertyDescription) -> String {
        switch (property.minimum, property.maximum) {
        case (let minimum?, let maximum?): " \(NumberText.format(minimum))…\(NumberText.format(maximum))"
        case (let minimum?, nil): " from \(NumberText.format(minimum))"
        case (nil, let maximum?): " up to \(NumberText.format(maximum))"
        default: ""
        }
    }

    private static func pathText(_ value: ParameterValue, name: String) throws(UnitError) -> String {
        guard case .label(let path) = value, !path.isEmpty else {
            throw UnitError("\(name) takes a file path, not \(value)")
        }
        return path
    }

    private static func uriText(_ value: ParameterValue, name: String) throws(UnitError) -> String {
        guard case .label(let uri) = value, uri.contains(":") else {
            throw UnitError("\(name) takes a URI such as `http://example.org/thing`, not \(value)")
        }
        return uri
    }

    /// Text as written: a string property takes whatever it is given.
    private static func text(_ value: ParameterValue) -> String {
        if case .label(let text) = value { return text }
        return value.description
    }

    /// `path` made absolute against `folder` (or the working directory);
    /// `~` is not expanded, as for every other path in a patch.
    static func absolute(_ path: String, in folder: String?) -> String {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path).standardizedFileURL.path }
        let base = folder ?? FileManager.default.currentDirectoryPath
        return URL(fileURLWithPath: base).appendingPathComponent(path).standardizedFileURL.path
    }
}
