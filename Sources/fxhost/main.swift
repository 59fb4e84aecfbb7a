import ArgumentParser
import Foundation
import HostCore

// Errors of our own become one sentence and exit 1; argument errors keep
// ArgumentParser's usage help and exit 64.
do {
    var command = try Fxhost.parseAsRoot()
    try command.run()
} catch let error as any UserFacingError {
    Terminal.error(error.description)
    exit(1)
} catch {
    Fxhost.exit(withError: error)
}
