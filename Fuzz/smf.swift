// libFuzzer target: the Standard MIDI File reader, then the playback that
// places its events on a 48 kHz timeline (times become frames there).
import HostCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let file = try? StandardMIDIFile(bytes: bytes, path: "fuzz.mid") else { return 0 }
    let playback = MIDIFilePlayback(file: file, startFrame: 0, sampleRate: 48_000)
    playback.deallocate()
    return 0
}
