import HostCore

/// What a front end could not take: an option it was started with (`--osc`,
/// `--watch`) or a line typed at the console, in one sentence that says what
/// was meant.
package struct FrontEndError: Error, UserFacingError {
    package var description: String
    package init(_ description: String) { self.description = description }
}
