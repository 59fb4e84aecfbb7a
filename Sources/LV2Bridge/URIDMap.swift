import CLilv
import Foundation
import Synchronization

/// The host's URID table, shared by every plugin of one world.
///
/// Thread-safe through a mutex: well-behaved plugins map URIs in
/// instantiate() or on the worker thread, never in run(), so the lock is
/// never taken on the realtime thread. The C features hold an unretained
/// pointer to this object; the owning `LV2World` outlives every instance.
final class URIDMap: Sendable {
    private struct Table {
        var ids: [String: LV2_URID] = [:]
        /// `uris[id - 1]` is the URI of `id`, as a C string that lives as long as the map.
        var uris: [UnsafeMutablePointer<CChar>] = []
    }

    private let table = Mutex(Table())

    deinit {
        table.withLock { table in
            for uri in table.uris { free(uri) }
        }
    }

    /// The URID of `uri`, assigning the next one on first use (never 0).
    func map(_ uri: String) -> LV2_URID {
        table.withLock { table in
            if let id = table.ids[uri] { return id }
            table.uris.append(strdup(uri))
            let id = LV2_URID(table.uris.count)
            table.ids[uri] = id
            return id
        }
    }

    /// The URI of `id` as a C string owned by the map, or nil for an unknown id.
    func unmap(_ id: LV2_URID) -> UnsafePointer<CChar>? {
        table.withLock { table in
            guard id >= 1, Int(id) <= table.uris.count else { return nil }
            return UnsafePointer(table.uris[Int(id) - 1])
        }
    }

    /// C feature structs whose handle points at this map (unretained).
    func makeFeatureData(in arena: CArena)
        -> (map: UnsafeMutablePointer<LV2_URID_Map>, unmap: UnsafeMutablePointer<LV2_URID_Unmap>) {
        let handle = Unmanaged.passUnretained(self).toOpaque()
        let map = arena.store(LV2_URID_Map(handle: handle, map: { handle, uri in
            guard let handle, let uri else { return 0 }
            return Unmanaged<URIDMap>.fromOpaque(handle).takeUnretainedValue().map(String(cString: uri))
        }))
        let unmap = arena.store(LV2_URID_Unmap(handle: handle, unmap: { handle, id in
            guard let handle else { return nil }
            return Unmanaged<URIDMap>.fromOpaque(handle).takeUnretainedValue().unmap(id)
        }))
        return (map, unmap)
    }
}
