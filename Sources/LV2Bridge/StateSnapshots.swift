import CLilv
import Foundation
import Glibc
import HostCore

/// Called by: the control thread (it owns the lilv world).
///
/// Each plugin node's own LV2 state as of its last snapshot, kept in a
/// private folder that a supervisor hands every engine it starts, so that a
/// restarted engine gives each plugin back what no parameter shows (a held
/// peak, a learnt profile). A node's snapshot is a bundle,
/// `KEY.ENGINE-N.lv2`, reached through the symbolic link `KEY.lv2`, which
/// one rename swaps: an engine that dies while writing leaves the snapshot
/// before whole. A snapshot is written only when the state differs from
/// the last one (`lilv_state_equals`, which compares the files it names
/// too); one too big, or a save that fails, is skipped with a note and
/// tried again only after `retrySeconds`.
package final class StateSnapshots {
    /// What `take` did for one node.
    package enum Outcome: Equatable {
        /// A new snapshot replaced the last one.
        case written
        /// The state is the last snapshot's: nothing was written.
        case unchanged
        /// Nothing to take: not a plugin with state of its own, not playing
        /// live, or skipped a while after a failure.
        case nothing
        /// Not snapshotted, in one sentence.
        case skipped(String)
    }

    package let folder: String
    /// The last state written (or restored) per node, to compare with.
    private var last: [String: OpaquePointer] = [:]
    /// When a node skipped for a failure may be tried again (`LiveHost.now()`-style seconds).
    private var retryAt: [String: Double] = [:]
    private var written = 0
    /// A snapshot bigger than this (its state and the files it copied) is skipped.
    package let largestBytes: Int
    package static let defaultLargestBytes = 16 << 20
    package static let retrySeconds = 30.0

    /// Snapshots in `folder`, which exists and is this user's alone.
    package init(folder: String, largestBytes: Int = StateSnapshots.defaultLargestBytes) {
        self.folder = folder
        self.largestBytes = largestBytes
    }

    deinit {
        for state in last.values { lilv_state_free(state) }
    }

    /// Takes `unit`'s own state for `node`, and writes it when it differs
    /// from the last snapshot. `now`: seconds on any steady clock.
    package func take(node: String, unit: any ProcessingUnit, now: Double) -> Outcome {
        guard let unit = unit as? LV2Unit, unit.keepsState, retryAt[node].map({ now >= $0 }) ?? true else { return .nothing }
        let key = Self.key(node)
        // A new name: one an engine before this (a reused pid) left is passed over.
        var bundle = ""
        var made = false
        for _ in 0..<100 {
            written += 1
            bundle = folder + "/\(key).\(getpid())-\(written).lv2"
            made = mkdir(bundle, 0o700) == 0
            if made || errno != EEXIST { break }
        }
        guard made else { return skip(node, now, "its bundle could not be made (\(Self.errorText()))") }
        CrashReport.settingUp(node: node, plugin: unit.displayName)  // a crash in save() names the node
        let taken = unit.snapshotState(into: bundle)
        CrashReport.leave()
        guard let state = taken, lilv_state_get_num_properties(state) > 0 else {
            if let taken { lilv_state_free(taken) }
            Self.remove(bundle)
            return .nothing
        }
        lilv_state_set_label(state, node)
        if let previous = last[node], lilv_state_equals(previous, state) {
            lilv_state_free(state)
            Self.remove(bundle)
            return .unchanged
        }
        let (map, unmap) = unit.world.uridFeatures
        guard lilv_state_save(unit.world.world, map, unmap, state, nil, bundle, "state.ttl") == 0 else {
            lilv_state_free(state)
            Self.remove(bundle)
            return skip(node, now, "lilv could not write it")
        }
        let bytes = Self.bytes(in: bundle)
        guard bytes <= largestBytes else {
            lilv_state_free(state)
            Self.remove(bundle)
            return skip(node, now, "it is \(Self.sizeText(bytes)), more than the \(Self.sizeText(largestBytes)) a snapshot may take")
        }
        // The new bundle goes in with one rename of the link; the old one goes after.
        let link = folder + "/\(key).lv2"
        let before = Self.target(of: link)
        let newLink = link + ".new"
        unlink(newLink)
        guard symlink(URL(fileURLWithPath: bundle).lastPathComponent, newLink) == 0, rename(newLink, link) == 0 else {
            let reason = Self.errorText()
            unlink(newLink)
            lilv_state_free(state)
            Self.remove(bundle)
            return skip(node, now, "it could not be put in place (\(reason))")
        }
        if let previous = last.updateValue(state, forKey: node) { lilv_state_free(previous) }
        if let before, before != bundle { Self.remove(before) }
        retryAt[node] = nil
        return .written
    }

    /// Removes the snapshots of nodes this engine snapshotted that are not
    /// in `nodes` (taken out of the graph): a node of that name added later
    /// starts afresh.
    package func keepOnly(_ nodes: Set<String>) {
        for node in last.keys where !nodes.contains(node) {
            lilv_state_free(last.removeValue(forKey: node)!)
            retryAt[node] = nil
            let link = folder + "/\(Self.key(node)).lv2"
            if let bundle = Self.target(of: link) { Self.remove(bundle) }
            unlink(link)
        }
    }

    /// Gives `node`'s snapshot to `unit`, before its instances are made, as
    /// a preset's state (`LV2Unit.restoreSnapshot`); returns how many
    /// seconds old the snapshot is. nil: none to restore (none taken, or it
    /// is another plugin's or another node's).
    package func restore(node: String, into unit: any ProcessingUnit) -> Double? {
        guard let unit = unit as? LV2Unit, unit.keepsState else { return nil }
        let file = folder + "/\(Self.key(node)).lv2/state.ttl"
        var info = stat()
        guard stat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        func load() -> OpaquePointer? {
            guard let state = lilv_state_new_from_file(unit.world.world, unit.world.uridFeatures.map, nil, file) else { return nil }
            let label = lilv_state_get_label(state).map { String(cString: $0) }
            let plugin = lilv_state_get_plugin_uri(state).flatMap { lilv_node_as_uri($0) }.map { String(cString: $0) }
            guard label == node, plugin == unit.plugin.uri else {
                lilv_state_free(state)
                return nil
            }
            return state
        }
        guard let state = load() else { return nil }
        unit.restoreSnapshot(state)
        // A copy to compare with: an unchanged state is not written again.
        if let copy = load(), let previous = last.updateValue(copy, forKey: node) { lilv_state_free(previous) }
        let written = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        return max(0, Date().timeIntervalSince1970 - written)
    }

    private func skip(_ node: String, _ now: Double, _ reason: String) -> Outcome {
        retryAt[node] = now + Self.retrySeconds
        return .skipped("the state of `\(node)` was not snapshotted: \(reason); it is tried again in \(Int(Self.retrySeconds)) s")
    }

    /// A file name for `node`: its letters, digits, `-` and `_` (at most
    /// 32), then a hash of the whole name, so any name (`/`, `..`, control
    /// characters, a long one) stays one safe component.
    static func key(_ node: String) -> String {
        let safe = String(node.unicodeScalars.filter { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") }
            .prefix(32).map(Character.init))
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        for byte in node.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "node-" + safe + "-" + String(hash, radix: 16)
    }

    /// The bundle a link points to, as a path in the folder.
    private static func target(of link: String) -> String? {
        guard let name = try? FileManager.default.destinationOfSymbolicLink(atPath: link), !name.contains("/") else { return nil }
        return URL(fileURLWithPath: link).deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// The bytes of the regular files in `bundle` (links not followed: a file the state links to is not copied).
    private static func bytes(in bundle: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: bundle)) ?? []
        var total = 0
        for name in names {
            var info = stat()
            guard lstat(bundle + "/" + name, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFREG {
                total += Int(info.st_size)
            } else if info.st_mode & S_IFMT == S_IFDIR {
                total += bytes(in: bundle + "/" + name)
            }
        }
        return total
    }

    /// "16 MiB", "0.5 MiB", "120 bytes".
    private static func sizeText(_ bytes: Int) -> String {
        bytes < 1 << 20 ? "\(bytes) bytes" : NumberText.format(Double(bytes) / Double(1 << 20)) + " MiB"
    }

    private static func remove(_ path: String) { try? FileManager.default.removeItem(atPath: path) }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
