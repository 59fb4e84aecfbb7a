/// Finds units by the name a patch gives them (URI or short name).
public protocol UnitProvider {
    /// A new unit for `reference`. Unknown and ambiguous names are errors that
    /// list what was meant or the candidates.
    func makeUnit(_ reference: String) throws(UnitError) -> any ProcessingUnit
}
