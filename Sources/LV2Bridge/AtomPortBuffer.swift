import CLilv

/// One atom port of an instance and the buffer it is connected to (8-byte
/// aligned, at least the port's `rsz:minimumSize` and 8 KiB, owned by the
/// instance's arena). For an input, `capacity` is what
/// `lv2_atom_sequence_append_event` takes: the bytes the sequence's body may
/// grow to.
struct AtomPortBuffer {
    let port: PortDescription
    let sequence: UnsafeMutablePointer<LV2_Atom_Sequence>
    let capacity: UInt32
}
