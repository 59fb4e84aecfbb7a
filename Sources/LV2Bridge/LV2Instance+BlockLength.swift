import CLilv
import Foundation
import HostCore

/// A port an instance connects to its format's memory rather than to the
/// plan's buffers or the unit's controls: reconnected when the instance
/// moves to another block size.
struct FormatPort {
    enum Role { case silence, scratch, freeWheeling }

    let index: UInt32
    let role: Role
}

/// Where the maxBlockLength and nominalBlockLength values of an instance's
/// options array live, so they can follow the block size.
struct BlockLengthOptions {
    let maximum: UnsafeMutablePointer<Int32>
    let nominal: UnsafeMutablePointer<Int32>
}

/// A new block size for an instance that stays (LV2 options:interface).
/// Neither may overlap `run()`: `set` and `connect_port` are not realtime
/// calls beside it. The caller makes sure no plan runs the instance.
extension LV2Instance {
    /// Whether the plugin provides options:interface with a `set`.
    var hasOptionsInterface: Bool { optionsSet != nil }

    private var optionsSet: (@convention(c) (LV2_Handle?, UnsafePointer<LV2_Options_Option>?) -> UInt32)? {
        lilv_instance_get_extension_data(instance, LV2URI.optionsInterface)?
            .assumingMemoryBound(to: LV2_Options_Interface.self).pointee.set
    }

    /// Tells the plugin the new maximum and nominal block length through its
    /// options interface's `set`, as jalv does, and on success keeps the
    /// options array it was made with in step. False: it has no such
    /// interface, or it refused (any status but success).
    func setBlockLength(_ frames: Int, urids: URIDMap) -> Bool {
        guard let set = optionsSet else { return false }
        let value = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        value.initialize(to: Int32(frames))
        defer { value.deallocate() }
        let intType = urids.map(LV2URI.atomInt)
        func option(_ key: String) -> LV2_Options_Option {
            LV2_Options_Option(context: LV2_OPTIONS_INSTANCE, subject: 0, key: urids.map(key),
                               size: UInt32(MemoryLayout<Int32>.size), type: intType, value: UnsafeRawPointer(value))
        }
        let options = [option(LV2URI.maxBlockLength), option(LV2URI.nominalBlockLength),
                       LV2_Options_Option(context: LV2_OPTIONS_INSTANCE, subject: 0, key: 0, size: 0, type: 0, value: nil)]
        let status = options.withUnsafeBufferPointer { set(lilv_instance_get_handle(instance), $0.baseAddress) }
        guard status == LV2_OPTIONS_SUCCESS.rawValue else { return false }
        blockLengthOptions.maximum.pointee = Int32(frames)
        blockLengthOptions.nominal.pointee = Int32(frames)
        return true
    }

    /// Connects every port that pointed into the old format's memory to
    /// `format`'s (main audio ports too: until a plan connects them, they
    /// must reach memory as long as the new block), and holds it instead.
    func adopt(_ format: FormatMemory) {
        let connect = lilv_instance_get_descriptor(instance)!.pointee.connect_port!
        let handle = lilv_instance_get_handle(instance)
        for port in formatPorts {
            let data = switch port.role {
            case .silence: format.silence
            case .scratch: format.scratch
            case .freeWheeling: format.freeWheeling
            }
            connect(handle, port.index, UnsafeMutableRawPointer(data))
        }
        memory = SharedPortMemory(unit: memory.unit, format: format)
    }
}
