import CLilv
import HostCore

/// Writes `patch:Set` and `patch:Get` messages with LV2's own atom forge,
/// on the control thread: the bytes of one atom (header and body), ready to
/// be appended as an event to a plugin's control input.
struct PatchMessageForge {
    let urids: URIDMap
    let map: UnsafeMutablePointer<LV2_URID_Map>

    /// `[] a patch:Set; patch:property <property>; patch:value value.`
    /// The subject is left out: the plugin itself (as jalv sends it).
    func set(property: String, to value: PropertyValue) -> [UInt8] {
        forge { forge in
            var frame = LV2_Atom_Forge_Frame()
            lv2_atom_forge_object(forge, &frame, 0, urids.map(LV2URI.patchSet))
            lv2_atom_forge_key(forge, urids.map(LV2URI.patchProperty))
            lv2_atom_forge_urid(forge, urids.map(property))
            lv2_atom_forge_key(forge, urids.map(LV2URI.patchValue))
            switch value {
            case .path(let text): writeString(forge, text, path: true)
            case .string(let text): writeString(forge, text, path: false)
            case .uri(let text):
                let bytes = Array(text.utf8CString)
                bytes.withUnsafeBufferPointer { _ = lv2_atom_forge_uri(forge, $0.baseAddress, UInt32(bytes.count - 1)) }
            case .urid(let text): lv2_atom_forge_urid(forge, urids.map(text))
            case .float(let number): lv2_atom_forge_float(forge, number)
            case .double(let number): lv2_atom_forge_double(forge, number)
            case .int(let number): lv2_atom_forge_int(forge, number)
            case .long(let number): lv2_atom_forge_long(forge, number)
            case .bool(let on): lv2_atom_forge_bool(forge, on)
            }
            lv2_atom_forge_pop(forge, &frame)
        }
    }

    /// `[] a patch:Get.`: asks the plugin to report every property on its notify output.
    func get() -> [UInt8] {
        forge { forge in
            var frame = LV2_Atom_Forge_Frame()
            lv2_atom_forge_object(forge, &frame, 0, urids.map(LV2URI.patchGet))
            lv2_atom_forge_pop(forge, &frame)
        }
    }

    private func writeString(_ forge: UnsafeMutablePointer<LV2_Atom_Forge>, _ text: String, path: Bool) {
        let bytes = Array(text.utf8CString)
        bytes.withUnsafeBufferPointer {
            if path {
                _ = lv2_atom_forge_path(forge, $0.baseAddress, UInt32(bytes.count - 1))
            } else {
                _ = lv2_atom_forge_string(forge, $0.baseAddress, UInt32(bytes.count - 1))
            }
        }
    }

    /// Runs `body` on a forge writing into a buffer big enough for any
    /// path, and returns the atom written.
    private func forge(_ body: (UnsafeMutablePointer<LV2_Atom_Forge>) -> Void) -> [UInt8] {
        let capacity = 8192
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer { buffer.deallocate() }
        buffer.initializeMemory(as: UInt8.self, repeating: 0, count: capacity)
        let forge = UnsafeMutablePointer<LV2_Atom_Forge>.allocate(capacity: 1)
        defer { forge.deallocate() }
        lv2_atom_forge_init(forge, map)
        lv2_atom_forge_set_buffer(forge, buffer.assumingMemoryBound(to: UInt8.self), capacity)
        body(forge)
        let atom = buffer.assumingMemoryBound(to: LV2_Atom.self).pointee
        let size = MemoryLayout<LV2_Atom>.size + Int(atom.size)
        return Array(UnsafeRawBufferPointer(start: buffer, count: min(size, capacity)))
    }
}
