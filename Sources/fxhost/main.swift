import ArgumentParser
import Foundation
import HostCore
import LiveControl

StartupTimings.mark("main")
// A file size limit (`ulimit -f`) must make a write fail (EFBIG), which is
// reported as a full disk is, rather than kill the process mid-take: SIGXFSZ
// ends a process by default.
signal(SIGXFSZ, SIG_IGN)
// Errors of our own become one sentence and exit 1; argument errors keep
// ArgumentParser's usage help and exit 64.
do {
    var command = try Fxhost.parseAsRoot()
    StartupTimings.mark("arguments")
    try command.run()
    StartupTimings.report()
} catch let error as any UserFacingError {
    StartupTimings.report()
    Terminal.error(error.description)
    exit(1)
} catch {
    StartupTimings.report()
    Fxhost.exit(withError: error)
}
