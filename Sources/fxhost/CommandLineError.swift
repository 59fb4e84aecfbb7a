import ArgumentParser
import Foundation
import HostCore
import LiveControl
import LV2Bridge

/// A command-line mistake that ArgumentParser cannot see.
struct CommandLineError: UserFacingError {
    var description: String
    init(_ description: String) { self.description = description }
}
