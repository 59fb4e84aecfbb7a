import CLilv
import Foundation

/// One property given to a plugin through its state interface's
/// `restore()`, for plugins whose installed build ignores the `patch:Set`
/// a host sends for it (`LV2Unit.takesThroughState`). Call it only while
/// nothing runs the instance, as for any state restore.
struct StatePropertyRestore {
    let key: LV2_URID
    let type: LV2_URID
    let bytes: [UInt8]

    /// What `retrieve` hands the plugin: the one key's value.
    private struct Context {
        var key: LV2_URID
        var type: LV2_URID
        var value: UnsafeMutableRawPointer
        var size: Int
    }

    init?(property: LV2_URID, value: PropertyValue, urids: URIDMap) {
        key = property
        switch value {
        case .path(let text):
            type = urids.map(LV2URI.atomPath)
            bytes = Array(text.utf8) + [0]
        case .string(let text):
            type = urids.map(LV2URI.atomString)
            bytes = Array(text.utf8) + [0]
        default:
            return nil
        }
    }

    /// Calls the plugin's `restore()` with this one property and the
    /// instance's features; false when the plugin has no state interface
    /// or refuses.
    func restore(into instance: LV2Instance) -> Bool {
        guard let data = lilv_instance_get_extension_data(instance.instance, LV2URI.stateInterface),
              let restore = data.assumingMemoryBound(to: LV2_State_Interface.self).pointee.restore else { return false }
        let value = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 8)
        defer { value.deallocate() }
        bytes.withUnsafeBytes { value.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        var context = Context(key: key, type: type, value: value, size: bytes.count)

        // The instance's features hold the host's state:mapPath (absolute
        // paths as they are) and its worker, through which the plugin loads.
        return withUnsafeMutablePointer(to: &context) { context in
            let status = restore(lilv_instance_get_handle(instance.instance), { handle, key, size, type, flags in
                guard let context = handle?.assumingMemoryBound(to: Context.self),
                      key == context.pointee.key else { return nil }
                size?.pointee = context.pointee.size
                type?.pointee = context.pointee.type
                flags?.pointee = UInt32(LV2_STATE_IS_POD.rawValue | LV2_STATE_IS_PORTABLE.rawValue)
                return UnsafeRawPointer(context.pointee.value)
            }, UnsafeMutableRawPointer(context), UInt32(LV2_STATE_IS_POD.rawValue | LV2_STATE_IS_PORTABLE.rawValue),
                                 instance.features)
            return status == LV2_STATE_SUCCESS
        }
    }
}
