import CLilv
import Foundation

/// LV2 state's file features, given to every instance: `state:makePath`
/// (a plugin asks where to create a file: under the unit's scratch folder),
/// `state:mapPath` (absolute paths stand for themselves: fxhost keeps no
/// session folder of its own; `lilv_state_save` and restore bring their
/// own mapping, relative to a preset bundle) and `state:freePath` (frees
/// what the other two returned). Plugins call them off the realtime
/// thread (instantiate, work, save, restore).
enum StatePathFeatures {
    /// The three features' URIs and data, their memory in `arena`.
    static func make(in arena: CArena, scratchFolder: String) -> [(String, UnsafeMutableRawPointer?)] {
        let mapPath = arena.store(LV2_State_Map_Path(
            handle: nil,
            abstract_path: { _, path in path.map { strdup($0) } ?? nil },
            absolute_path: { _, path in path.map { strdup($0) } ?? nil }))
        let makePath = arena.store(LV2_State_Make_Path(
            handle: UnsafeMutableRawPointer(mutating: arena.cString(scratchFolder)),
            path: { handle, path in
                guard let handle, let path else { return nil }
                let folder = String(cString: handle.assumingMemoryBound(to: CChar.self))
                let full = URL(fileURLWithPath: folder).appendingPathComponent(String(cString: path))
                // The plugin creates the file; the folders on the way are the host's to make.
                try? FileManager.default.createDirectory(at: full.deletingLastPathComponent(),
                                                         withIntermediateDirectories: true)
                return strdup(full.path)
            }))
        let freePath = arena.store(LV2_State_Free_Path(handle: nil, free_path: { _, path in free(path) }))
        return [(LV2URI.stateMapPath, UnsafeMutableRawPointer(mapPath)),
                (LV2URI.stateMakePath, UnsafeMutableRawPointer(makePath)),
                (LV2URI.stateFreePath, UnsafeMutableRawPointer(freePath))]
    }
}
