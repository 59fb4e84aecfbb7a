import JackIO

extension LiveSession.Options {
    /// Options for a session on a test's private server.
    package init(server: JackServerProcess, clientName: String = "fxhost") {
        self.init()
        self.server = server.name
        self.clientName = clientName
    }
}
