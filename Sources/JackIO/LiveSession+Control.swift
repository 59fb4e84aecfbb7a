import HostCore

/// Changes while the session plays. Parameters and bypass go to the realtime
/// thread as commands; taps and wiring are graph edits that swap in a new plan.
extension LiveSession {
    /// Checks `value` against the parameter's range off the realtime thread,
    /// then has the realtime thread store it between blocks. Returns the
    /// number stored.
    @discardableResult
    public func setParameter(node: String, symbol: String, value: ParameterValue) throws(LiveSessionError) -> Float {
        let unit = try unit(named: node)
        let number: Float
        do {
            number = try unit.checkedValue(symbol, value)
        } catch {
            throw .unit(node: node, error)
        }
        guard let pointer = unit.controlPointer(symbol: symbol) else {
            throw .unit(node: node, UnitError("`\(unit.displayName)` cannot change `\(symbol)` while it plays"))
        }
        try send(.setFloat(pointer, number))
        parameterRecord.set(node: node, symbol: symbol, value: number)
        return number
    }

    /// Input control values of `node` as last set (empty: not a plugin node).
    package func parameterValues(node: String) -> [String: Float] {
        parameterRecord.byNode[node] ?? [:]
    }

    /// Records a value the realtime thread stored on its own (a MIDI
    /// controller's), so `status` and `save` show it. Control thread only.
    package func noteParameterValue(node: String, symbol: String, value: Float) {
        parameterRecord.set(node: node, symbol: symbol, value: value)
    }

    /// Bypassed, a plugin node passes its input through (as the plan wires it).
    public func setBypass(node: String, _ on: Bool) throws(LiveSessionError) {
        _ = try unit(named: node)
        guard let flag = plan.bypassFlag(of: node) else { throw .notAPlugin(node: node) }
        try send(.setFlag(flag, on ? 1 : 0))
        try recordBypass(node, on)
    }

    /// For tests: the running plan's bypass flag of `node` (nil: not a plugin).
    package func isBypassed(node: String) -> Bool? {
        plan.bypassFlag(of: node).map { $0.pointee != 0 }
    }

    /// Applies an LV2 preset by label or URI. Its parameter values reach the
    /// realtime thread as commands, like `setParameter`. A preset that also
    /// carries plugin state can only be restored between runs: the realtime
    /// thread plays a silent program for the few blocks that takes.
    public func applyPreset(node: String, name: String) throws(LiveSessionError) {
        let unit = try unit(named: node)
        let preset: (values: [String: Float], carriesState: Bool)?
        do {
            preset = try unit.presetParameterValues(name)
        } catch {
            throw .unit(node: node, error)
        }
        if let preset, !preset.carriesState {
            for (symbol, value) in preset.values.sorted(by: { $0.key < $1.key }) {
                guard let pointer = unit.controlPointer(symbol: symbol) else { continue }
                try send(.setFloat(pointer, value))
                parameterRecord.set(node: node, symbol: symbol, value: value)
            }
            return
        }
        try whileSilent { () throws(LiveSessionError) in
            do throws(UnitError) {
                try unit.applyPreset(name)
            } catch {
                throw .unit(node: node, error)
            }
            // Nothing plays the unit now: its values can be read.
            parameterRecord.reread(node, from: unit)
        }
    }

    /// Saves `node`'s whole state, with its parameters as last set, as LV2
    /// preset `name` in `~/.lv2/fxhost-NAME.lv2` (replacing one saved there
    /// before), where `preset` and other hosts find it; returns the bundle.
    /// The plugin saves beside its `run()`, as LV2 allows: nothing goes silent.
    package func savePreset(node: String, name: String) throws(LiveSessionError) -> String {
        let unit = try unit(named: node)
        do {
            return try unit.savePreset(name, portValues: parameterValues(node: node))
        } catch {
            throw .unit(node: node, error)
        }
    }

    /// Starts recording `reference` (a node, or `node:N`) to `file`; the
    /// format follows the extension. The tap starts at a block boundary.
    /// A take never overwrites a file: when `file` exists the take goes to
    /// the next numbered name (`take-2.wav`). Returns the file written.
    @discardableResult
    package func startTap(_ reference: PortReference, file: String) throws(LiveSessionError) -> String {
        try requireNode(reference.node)
        var edit = rewrite()
        edit.taps.append(TapDeclaration(at: reference, file: file))
        try replaceGraph(with: try rebuilt(edit))
        return liveTaps.take(for: file) ?? file
    }

    /// Stops every tap on `node` and finalises their files; returns them.
    @discardableResult
    /// `port` `.all` stops every tap on the node; a channel or symbol stops
    /// only the taps made on that port.
    package func stopTaps(node: String, port: PortSelector = .all) throws(LiveSessionError) -> [LiveStatus.Tap] {
        try requireNode(node)
        var edit = rewrite()
        let stopping: (TapDeclaration) -> Bool = { $0.at.node == node && (port == .all || $0.at.port == port) }
        let declared = Set(edit.taps.filter(stopping).map(\.file))
        let files = Set(declared.map { liveTaps.take(for: $0) ?? $0 })
        guard !declared.isEmpty else {
            throw .noTap(node: PortReference(node: node, port: port).description,
                         tapped: Array(Set(edit.taps.map(\.at.description))).sorted())
        }
        edit.taps.removeAll(where: stopping)
        // Only the taps this call stops: an earlier take to the same file is not one of them.
        let stoppedBefore = liveTaps.summary.count
        try replaceGraph(with: try rebuilt(edit))
        return liveTaps.summary.dropFirst(stoppedBefore).filter { files.contains($0.file) }
    }

    /// Pauses the taps on `node` (`port` `.all`: every one; otherwise the
    /// one made on that port) that are recording: from the next block on
    /// they record nothing until `resumeTaps`, and their files continue
    /// after the paused stretch, with no silence for it. Returns them.
    @discardableResult
    package func pauseTaps(node: String, port: PortSelector = .all) throws(LiveSessionError) -> [LiveStatus.Tap] {
        try switchTaps(node: node, port: port, pausing: true)
    }

    /// Resumes the paused taps on `node` (or on its `port`); returns them.
    @discardableResult
    package func resumeTaps(node: String, port: PortSelector = .all) throws(LiveSessionError) -> [LiveStatus.Tap] {
        try switchTaps(node: node, port: port, pausing: false)
    }

    /// A pause is a flag each recorder keeps (no graph edit, no new
    /// program); it lasts through later edits, which keep the recorder.
    private func switchTaps(node: String, port: PortSelector, pausing: Bool) throws(LiveSessionError) -> [LiveStatus.Tap] {
        try requireNode(node)
        let reference = PortReference(node: node, port: port).description
        let declared = rewrite().taps
        let files = Set(declared.filter { $0.at.node == node && (port == .all || $0.at.port == port) }.map(\.file))
        guard let changed = liveTaps.setPaused(pausing, files: files) else {
            // Untapped already: say so rather than "no tap".
            if port == .all, taps.contains(where: { $0.node == node && $0.state == .finished }) {
                throw pausing ? .tapNotRecording(tap: reference, state: .finished)
                    : .tapNotPaused(tap: reference, state: .finished)
            }
            throw .noTap(node: reference, tapped: Array(Set(declared.map(\.at.description))).sorted())
        }
        guard !changed.isEmpty else {
            if liveTaps.anyFailed(files) {
                throw pausing ? .tapNotRecording(tap: reference, state: .failed) : .tapNotPaused(tap: reference, state: .failed)
            }
            throw pausing ? .tapNotRecording(tap: reference, state: .paused)
                : .tapNotPaused(tap: reference, state: .recording)
        }
        // The files actually written (a take numbered past an earlier one), active taps only.
        let written = Set(changed.map { liveTaps.take(for: $0) ?? $0 })
        return liveTaps.active.filter { written.contains($0.file) }
    }

    /// Adds a connection (summed with whatever already feeds `to`).
    package func connect(_ from: PortReference, to: PortReference, gainDecibels: Double = 0) throws(LiveSessionError) {
        try requireNode(from.node)
        try requireNode(to.node)
        var edit = rewrite()
        edit.connections.append(ConnectionDeclaration(from: from, to: to, gainDecibels: gainDecibels))
        try replaceGraph(with: try rebuilt(edit))
    }

    /// Removes the connections from `from` to `to`; a bare node name on
    /// either side matches every port of that node.
    package func disconnect(_ from: PortReference, to: PortReference) throws(LiveSessionError) {
        try requireNode(from.node)
        try requireNode(to.node)
        var edit = rewrite()
        let before = edit.connections.count
        edit.connections.removeAll {
            $0.from.node == from.node && $0.to.node == to.node
                && (from.port == .all || from.port == $0.from.port) && (to.port == .all || to.port == $0.to.port)
        }
        guard edit.connections.count < before else { throw .noConnection(from: from.description, to: to.description) }
        try replaceGraph(with: try rebuilt(edit))
    }

    private func rebuilt(_ edit: GraphRewrite) throws(LiveSessionError) -> AudioGraph {
        do {
            return try edit.apply()
        } catch {
            throw .graph(error)
        }
    }

    private func send(_ command: LiveCommand) throws(LiveSessionError) {
        guard !serverHasShutDown else { throw .serverGone }
        // A bounce's instances read the same controls: its render stays as it began.
        try requireNoBounce()
        do {
            try engine.send(command)
        } catch {
            throw .engine(error)
        }
    }
}
