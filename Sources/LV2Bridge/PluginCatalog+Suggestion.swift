import CLilv
import HostCore

/// What to suggest for a plugin name that matches no installed plugin.
extension PluginCatalog {
    /// Suggestions beyond this many are counted, not listed.
    static let suggestionLimit = 8

    /// A likely typo of a name or URI ("did you mean `mda/Overdrive`?"),
    /// else the plugins whose name or URI contains every word of
    /// `reference`, the way `fxhost plugins TEXT` matches one text (so
    /// `x42-convolver` finds x42's IR and preset convolvers), else those
    /// containing its rarest word.
    func suggestion(for reference: String) -> String? {
        var candidates: [String] = []
        for uri in uris {
            candidates.append(uri)
            candidates.append(contentsOf: Self.shortNames(of: uri, preservingCase: true))
        }
        if let typo = Suggestion.didYouMean(reference, in: candidates) { return typo }

        let words = reference.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
        guard !words.isEmpty else { return nil }
        let pluginNames = hasCache ? summaries(matching: nil).map(\.name) : uris.map { name(of: $0) ?? "" }
        let texts = zip(uris, pluginNames).map { $0.lowercased() + "\n" + $1.lowercased() }
        func matches(_ words: [String]) -> [String] {
            zip(uris, texts).filter { _, text in words.allSatisfy { text.contains($0) } }.map(\.0)
        }
        // Every word, else the word that narrows most (`gverb` of `gverb-stereo`).
        var found = (words: words, uris: matches(words))
        if found.uris.isEmpty {
            for word in words {
                let alone = matches([word])
                if !alone.isEmpty && (found.uris.isEmpty || alone.count < found.uris.count) { found = ([word], alone) }
            }
        }
        saveCache()
        guard !found.uris.isEmpty else { return nil }
        let names = found.uris.prefix(Self.suggestionLimit).map { "`\(shortestName(of: $0))`" }
        if found.uris.count == 1 { return "did you mean \(names[0])?" }
        var text = "did you mean one of " + names.joined(separator: ", ")
        if found.uris.count > names.count {
            let word = found.words.max { $0.count < $1.count }!
            text += " or \(found.uris.count - names.count) more (`fxhost plugins \(word)` lists them)"
        }
        return text + "?"
    }

    /// The plugin's name, read without describing the whole plugin (with
    /// no cache; with one, `suggestion` takes names from its summaries).
    private func name(of uri: String) -> String? {
        lilvPlugin(uri).flatMap { Lilv.takeString(lilv_plugin_get_name($0)) }
    }

    /// The shortest name that resolves to `uri` alone (`mda/Overdrive`,
    /// `fil4#stereo`), else the URI.
    private func shortestName(of uri: String) -> String {
        for name in Self.shortNames(of: uri, preservingCase: true) {
            let wanted = name.lowercased()
            if uris.filter({ Self.shortNames(of: $0).contains(wanted) }).count == 1 { return name }
        }
        return uri
    }
}
