/// An error whose description is one sentence a user can act on; the command
/// line prints it as it is, with no stack trace.
package protocol UserFacingError: Error, CustomStringConvertible {}

extension GraphError: UserFacingError {}
extension UnitError: UserFacingError {}
extension RenderError: UserFacingError {}
extension AudioFileError: UserFacingError {}
