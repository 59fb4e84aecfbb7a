import JackIO
import Foundation
import Glibc
import HostCore

/// `save [FILE]`: the running state as a patch, written over the loaded
/// file's own text (values edited where they are written) or as a new file.
extension LivePatchFile {
    /// Writes the running state to `file` (nil: the file the run loaded),
    /// atomically: a temporary file in the same folder, synced, renamed
    /// over the target. Returns the path written. Without `replacing`
    /// (`save FILE` unforced) a file that appears at `file` meanwhile is
    /// left alone and the save refused.
    package func save(_ session: LiveSession, to file: String?, replacing: Bool = true) throws(LivePatchFileError) -> String {
        let draft = try draft(session, to: file, replacing: replacing)
        try draft.write()
        remember(draft)
        return draft.target
    }

    /// What `save` writes, and where, without writing it: a supervisor
    /// writes it from its own process (`PatchSaveDraft.write`), then hands
    /// it back to `remember`.
    package func draft(_ session: LiveSession, to file: String?, replacing: Bool) throws(LivePatchFileError) -> PatchSaveDraft {
        guard let target = file.map(Self.absolute) ?? path else { throw .saveNeedsFile }
        return PatchSaveDraft(target: target, text: runningText(session, writingInto: Self.folder(of: target)),
                              replacing: replacing)
    }

    /// After `draft` was written: a save over the loaded file is what the
    /// next save edits and what `--watch` compares with.
    package func remember(_ draft: PatchSaveDraft) {
        if draft.target == path, let saved = try? PatchParser.parse(text: draft.text, path: draft.target) {
            remember(saved, text: draft.text)
        }
    }

    /// The running state as the text `save` writes: the loaded text edited
    /// where the state differs (a `--chain`'s written whole), its paths
    /// relative to `folder`. A supervisor restarts an engine from it.
    package func runningText(_ session: LiveSession, writingInto folder: String? = nil) -> String {
        let state = runningPatch(session, writingInto: folder ?? self.folder ?? FileManager.default.currentDirectoryPath)
        var sections = extraSections.compactMap { $0() }
        // Mappings `learn` made (or `unlearn` removed); the file's section as written otherwise.
        if let midi = MIDIControlSection.section(session.midiControl, unlessSameAs: patch.midiControl) {
            sections.append(midi)
        }
        if let text, let path {
            return PatchTextEditor.edit(text, path: path, to: state, extraSections: sections)
        }
        return PatchWriter.text(of: state, extraSections: sections)
    }

    /// The running graph as a patch: the loaded patch's node declarations
    /// (plugin names, presets) with today's parameter values and bypass
    /// states, the wiring and taps as they are now. Paths are written
    /// relative to `folder` when inside it, as the loaded text wrote them
    /// when they still lead to the same file.
    func runningPatch(_ session: LiveSession, writingInto folder: String) -> Patch {
        var result = Patch(version: patch.version, name: patch.name)
        // The clock is the patch's as loaded: nothing live changes it.
        result.clock = patch.clock
        // A setlist's spill is the old patch ringing out, no part of this one.
        for node in session.graph.nodes where !SetlistSpill.isSpillNode(node.name) {
            let declared = patch.node(named: node.name)?.kind
            let kind: NodeKind
            switch node.kind {
            case .unit(let unit, let bypass):
                guard case .plugin(var spec) = declared else {
                    // Every plugin node comes from the patch (or a reload of it).
                    kind = .plugin(PluginNodeSpec(plugin: unit.displayName, bypass: bypass))
                    break
                }
                spec.parameters = savedParameters(spec, unit: unit, node: node.name, session: session)
                    + savedMessageParameters(spec, unit: unit, writingInto: folder)
                spec.bypass = leftOut[node.name] ?? bypass
                spec.pluginLocation = nil
                spec.presetLocation = nil
                kind = .plugin(spec)
            case .filePlayer(let file):
                var written: String?
                if case .file(let spec) = declared { written = spec.path }
                kind = .file(FileSourceSpec(path: Self.pathText(file.path, written: written, originalFolder: self.folder,
                                                                folder: folder),
                                            startSeconds: file.startSeconds, gainDecibels: file.gainDecibels, pan: file.pan))
            case .input(let channels, let ports):
                if case .input = declared { kind = declared! } else { kind = .input(ports.isEmpty ? .channels(channels) : .ports(ports)) }
            case .output(let channels, let ports):
                // A chain's output as wide as its input is fixed at its width now.
                if case .output(let declaredPorts) = declared, declaredPorts.channelCount == channels {
                    kind = declared!
                } else {
                    kind = .output(ports.isEmpty ? .channels(channels) : .ports(ports))
                }
            case .mixer(let channels):
                kind = .mix(channels: channels)
            case .gain(let decibels):
                kind = .gain(decibels: decibels)
            case .midiInput(let ports):
                kind = .midiInput(ports: ports)
            case .midiOutput(let ports):
                kind = .midiOutput(ports: ports)
            case .midiFile(let file):
                var written: String?
                if case .midiFile(let spec) = declared { written = spec.path }
                kind = .midiFile(MIDIFileSpec(path: Self.pathText(file.path, written: written, originalFolder: self.folder,
                                                                  folder: folder),
                                              startSeconds: file.startSeconds))
            }
            result.nodes.append(NodeDeclaration(name: node.name, kind: kind))
        }
        result.connections = session.graph.connectionDeclarations.filter {
            !SetlistSpill.isSpillNode($0.from.node) && !SetlistSpill.isSpillNode($0.to.node)
        }.map {
            ConnectionDeclaration(from: PortReference(node: $0.from.node, port: $0.from.port),
                                  to: PortReference(node: $0.to.node, port: $0.to.port), gainDecibels: $0.gainDecibels)
        }
        result.taps = session.graph.tapDeclarations.map { tap in
            let written = patch.taps.first {
                $0.at.description == tap.at.description && PatchLoader.resolve($0.file, in: self.folder) == tap.file
            }?.file
            return TapDeclaration(at: PortReference(node: tap.at.node, port: tap.at.port),
                                  file: Self.pathText(tap.file, written: written, originalFolder: self.folder, folder: folder))
        }
        return result
    }

    /// The values a node's parameters have now: those the patch gives
    /// (kept as written while the value is the same), then any other the
    /// session changed from what loading the patch gives it.
    private func savedParameters(_ spec: PluginNodeSpec, unit: any ProcessingUnit, node: String,
                                 session: LiveSession) -> [ParameterSetting] {
        // The session's record holds every parameter of every plugin node; the
        // unit's own memory is the realtime thread's to write while it plays.
        let recorded = session.parameterValues(node: node)
        func now(_ symbol: String) -> Float? { recorded[symbol] }
        var result: [ParameterSetting] = []
        for setting in spec.parameters where !unit.isMessageParameter(setting.symbol) {
            guard let value = now(setting.symbol), (try? unit.checkedValue(setting.symbol, setting.value)) != value else {
                result.append(ParameterSetting(symbol: setting.symbol, value: setting.value))
                continue
            }
            result.append(ParameterSetting(symbol: setting.symbol, value: .number(Double(value))))
        }
        let loaded = (spec.preset.flatMap { try? unit.presetParameterValues($0) })?.values ?? [:]
        for info in unit.parameters where !spec.parameters.contains(where: { $0.symbol == info.symbol }) {
            guard let value = recorded[info.symbol], value != loaded[info.symbol] ?? info.defaultValue else { continue }
            result.append(ParameterSetting(symbol: info.symbol, value: .number(Double(value))))
        }
        return result
    }

    /// Message parameters (a file, a sample) as set now, in place of the
    /// patch's own entries for them: as written while they still give the
    /// same value, a path relative to `folder` when inside it.
    private func savedMessageParameters(_ spec: PluginNodeSpec, unit: any ProcessingUnit,
                                        writingInto folder: String) -> [ParameterSetting] {
        unit.messageParametersSet().map { setting in
            let written = spec.parameters.first { unit.messageParameterShortName($0.symbol) == setting.name }
            let sameAsWritten = written.map {
                (try? unit.checkedMessageParameter($0.symbol, $0.value, relativeTo: self.folder))
                    == (try? unit.checkedMessageParameter(setting.name, setting.value, relativeTo: nil))
            } ?? false
            var value = setting.value
            if sameAsWritten, let written {
                value = written.value
            } else if setting.isPath, case .label(let path) = setting.value {
                value = .label(Self.pathText(path, written: nil, originalFolder: self.folder, folder: folder))
            }
            return ParameterSetting(symbol: written?.symbol ?? setting.name, value: value)
        }
    }

    /// How to write `path` (absolute, or relative to the working folder) in
    /// a patch in `folder`: as the loaded text wrote it if that still leads
    /// there, relative when inside `folder`, else absolute.
    static func pathText(_ path: String, written: String?, originalFolder: String?, folder: String) -> String {
        let target = absolute(path)
        if let written, PatchLoader.resolve(written, in: folder) == target,
           originalFolder == nil || PatchLoader.resolve(written, in: originalFolder) == target {
            return written
        }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return target.hasPrefix(prefix) ? String(target.dropFirst(prefix.count)) : target
    }

    /// A temporary file beside `path`, written, synced, renamed over it, and
    /// the folder synced, so `path` holds the old text or the new, never a part.
    /// `path` must name nothing yet or a regular file (see `RegularFile`):
    /// renaming over a FIFO or a device would hide what was there.
    static func writeAtomically(_ text: String, to path: String, replacing: Bool = true) throws(LivePatchFileError) {
        do {
            try RegularFile.requireReplaceable(path)
        } catch where error.systemMessage == nil {
            throw .notRegularFile(error)
        } catch {
            // Anything else (a missing folder) is told by creating the file below.
        }
        let folder = folder(of: path)
        let name = URL(fileURLWithPath: path).lastPathComponent
        let temporary = folder + "/.\(name).fxhost-save-\(getpid())"
        func failure(_ doing: String) -> LivePatchFileError {
            .save(path: path, reason: "\(doing): \(String(cString: strerror(errno)))")
        }
        var mode: mode_t = 0o644
        var info = stat()
        if stat(path, &info) == 0 { mode = info.st_mode & 0o7777 }
        // A new file, never one already there: what waits at that name (a link,
        // a FIFO, a stale copy) is removed, never followed, written or waited on.
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
        var descriptor = open(temporary, flags, mode)
        if descriptor < 0 && errno == EEXIST {
            unlink(temporary)
            descriptor = open(temporary, flags, mode)
        }
        guard descriptor >= 0 else { throw failure("cannot create a file in its folder") }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, bytes.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let error = failure("cannot write it")
                close(descriptor)
                unlink(temporary)
                throw error
            }
            written += count
        }
        guard fsync(descriptor) == 0 else {
            let error = failure("cannot sync it to disk")
            close(descriptor)
            unlink(temporary)
            throw error
        }
        close(descriptor)
        if !replacing, case let code = RegularFile.renameWithoutReplacing(temporary, to: path), code != 0 {
            errno = code
            let error = code == EEXIST
                ? LivePatchFileError.save(path: path, reason: "it exists (it appeared while the patch was written); "
                                          + "`save` replaces a file only when forced")
                : failure("cannot rename it into place")
            unlink(temporary)
            throw error
        }
        guard !replacing || rename(temporary, path) == 0 else {
            let error = failure("cannot rename it into place")
            unlink(temporary)
            throw error
        }
        let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }
}
