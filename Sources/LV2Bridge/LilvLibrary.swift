import CLilv
import CLV2Shim
import Foundation

/// The lilv library this process runs with.
package enum LilvLibrary {
    /// The real file of the loaded lilv library, links resolved
    /// (`/usr/lib/x86_64-linux-gnu/liblilv-0.so.0.24.14`), or nil when it
    /// cannot be found.
    ///
    /// lilv has no call that returns its version, and its header's version
    /// macros would say what fxhost was compiled against, not what it runs
    /// with. So: dladdr on `lilv_world_new` names the shared object the
    /// dynamic linker loaded that function from (usually the soname link
    /// `liblilv-0.so.0`), and resolving that link gives the file itself.
    package static var file: String? {
        let function: @convention(c) () -> OpaquePointer? = lilv_world_new
        guard let loaded = fxhost_shared_object_file(unsafeBitCast(function, to: UnsafeRawPointer.self)) else { return nil }
        guard let resolved = realpath(loaded, nil) else { return String(cString: loaded) }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The version the loaded library's file name carries: lilv's build
    /// names the file after its release (`liblilv-0.so.0.24.14` is lilv
    /// 0.24.14). nil when the file cannot be found or its name carries no
    /// full version (a library built some other way).
    package static var version: String? {
        guard let file else { return nil }
        return version(fromFileName: URL(fileURLWithPath: file).lastPathComponent)
    }

    /// `liblilv-0.so.0.24.14` → `0.24.14`: the numbers after `.so.`, when
    /// there are three of them.
    package static func version(fromFileName name: String) -> String? {
        guard let range = name.range(of: ".so.", options: .backwards) else { return nil }
        let numbers = name[range.upperBound...].split(separator: ".", omittingEmptySubsequences: false)
        guard numbers.count == 3, numbers.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else {
            return nil
        }
        return numbers.joined(separator: ".")
    }
}
