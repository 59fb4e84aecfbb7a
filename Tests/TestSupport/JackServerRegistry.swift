import Foundation

/// JACK's server registry as jack2 (1.9.21) keeps it: the POSIX shared
/// memory segment `/dev/shm/jack-shm-registry`, whose header holds eight
/// server slots. A slot is a process id and a name `jack-UID:SERVER:`.
/// jackd claims a slot when it starts and clears it when it exits cleanly;
/// a server killed the hard way keeps it, and since jack2 reclaims a dead
/// server's slot only for a new server of the same name, test servers
/// (each with a unique name) that are killed fill the registry until no
/// server starts ("Too many servers already active").
///
/// This reads the slots, to count what tests leave behind. It never writes.
public struct JackServerRegistry {
    public struct Entry: Equatable, CustomStringConvertible {
        public var pid: Int32
        /// The user id and server name of the slot's `jack-UID:SERVER:` name.
        public var uid: UInt32?
        public var server: String

        /// Whether the process that claimed the slot still exists.
        public var isAlive: Bool { kill(pid, 0) == 0 || errno == EPERM }

        public var description: String { "\(server) (pid \(pid), \(isAlive ? "running" : "gone"))" }
    }

    public static let path = "/dev/shm/jack-shm-registry"

    /// The slots in use (pid not 0); none when no registry exists yet.
    public let entries: [Entry]

    public enum ReadError: Error, CustomStringConvertible {
        case unreadable(String)
        case unknownLayout(String)

        public var description: String {
            switch self {
            case .unreadable(let reason): return "cannot read JACK's server registry \(JackServerRegistry.path): \(reason)"
            case .unknownLayout(let reason): return "JACK's server registry \(JackServerRegistry.path) is not laid out as jack2 1.9.21's: \(reason)"
            }
        }
    }

    /// jack2's shm.h: `jack_shm_header_t` is magic (u32, "JACK"), protocol
    /// (u16, padded), type, size, hdr_len, entry_len (u32 each), then
    /// `server[MAX_SERVERS]`, each `{ pid_t pid; char name[JACK_SERVER_NAME_SIZE + 1]; }`
    /// with JACK_SERVER_NAME_SIZE 256, so 261 bytes padded to 264.
    static let magic: UInt32 = 0x4a41_434b
    static let slots = 8
    static let serversOffset = 24
    static let slotSize = 264
    static let nameSize = 257

    public static func read() throws(ReadError) -> JackServerRegistry {
        guard FileManager.default.fileExists(atPath: path) else { return JackServerRegistry(entries: []) }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadable("\(error)")
        }
        return try parse(data)
    }

    static func parse(_ data: Data) throws(ReadError) -> JackServerRegistry {
        let bytes = [UInt8](data)
        func u32(_ offset: Int) -> UInt32 {
            (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
        }
        let headerLength = serversOffset + slots * slotSize
        guard bytes.count >= headerLength else { throw .unknownLayout("\(bytes.count) bytes, shorter than its header") }
        guard u32(0) == magic else { throw .unknownLayout(String(format: "magic 0x%08x", u32(0))) }
        guard u32(16) == UInt32(headerLength) else { throw .unknownLayout("header length \(u32(16)), expected \(headerLength)") }
        var entries: [Entry] = []
        for slot in 0..<slots {
            let offset = serversOffset + slot * slotSize
            let pid = Int32(bitPattern: u32(offset))
            guard pid != 0 else { continue }
            let nameBytes = bytes[(offset + 4)..<(offset + 4 + nameSize)].prefix { $0 != 0 }
            let name = String(decoding: nameBytes, as: UTF8.self)
            // `jack-UID:SERVER:`
            var uid: UInt32?
            var server = name
            if name.hasPrefix("jack-"), let colon = name.firstIndex(of: ":") {
                uid = UInt32(name[name.index(name.startIndex, offsetBy: 5)..<colon])
                server = String(name[name.index(after: colon)...])
                if server.hasSuffix(":") { server.removeLast() }
            }
            entries.append(Entry(pid: pid, uid: uid, server: server))
        }
        return JackServerRegistry(entries: entries)
    }

    /// This user's slots whose server name starts with `prefix`.
    public func entries(namedWithPrefix prefix: String) -> [Entry] {
        entries.filter { $0.uid == getuid() && $0.server.hasPrefix(prefix) }
    }

    /// This user's slot for the server `name`, if any.
    public func entry(for name: String) -> Entry? {
        entries.first { $0.uid == getuid() && $0.server == name }
    }

    /// The files in /dev/shm that carry the name of server `name`: its
    /// socket `jack_NAME_0_0` and its clients' semaphores `jack_sem.UID_NAME_CLIENT`.
    public static func files(of name: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/shm")) ?? []
        return names.filter { $0.hasPrefix("jack_\(name)_") || $0.hasPrefix("jack_sem.\(getuid())_\(name)_") }.sorted()
    }
}
