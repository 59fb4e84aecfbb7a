/// One entry of `scenes:`: a name and, per node, parameter values and a
/// bypass state, all switched at one block boundary.
package struct SceneDeclaration: Sendable, Equatable, Codable {
    package struct NodeSetting: Sendable, Equatable, Codable {
        package var node: String
        package var parameters: [ParameterSetting]
        /// nil: the scene leaves the bypass as it is.
        package var bypass: Bool?
        package var location: SourceLocation?

        package init(node: String, parameters: [ParameterSetting] = [], bypass: Bool? = nil,
                     location: SourceLocation? = nil) {
            self.node = node
            self.parameters = parameters
            self.bypass = bypass
            self.location = location
        }
    }

    package var name: String
    /// In file order.
    package var nodes: [NodeSetting]
    package var location: SourceLocation?

    package init(name: String, nodes: [NodeSetting] = [], location: SourceLocation? = nil) {
        self.name = name
        self.nodes = nodes
        self.location = location
    }
}
