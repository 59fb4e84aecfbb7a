import HostCore
import JackIO
import Synchronization

/// Where front ends that read on threads of their own (an OSC socket, a
/// file watcher) leave commands for the host's thread, which owns the
/// session and carries them out through the dispatcher in the order they
/// were posted; each post wakes the host. A `LiveSession` belongs to one
/// control thread, so no front end calls it from its own.
package final class ControlInbox: Sendable {
    /// Called on the session's thread with what the dispatcher answered.
    package typealias Reply = @Sendable (Result<ControlResult, ControlError>) -> Void

    private struct Letter: Sendable {
        var command: ControlCommand
        var source: ControlSource
        var reply: Reply?
    }

    private let letters = Mutex<[Letter]>([])
    private let notifier: EventNotifier?

    /// `notifier` is signalled after each post (nil: the owner polls).
    package init(notifier: EventNotifier? = nil) {
        self.notifier = notifier
    }

    /// Commands waiting at most: what a remote peer can make the host keep
    /// (a 64 KB OSC bundle holds thousands) is capped.
    package static let capacity = 256

    /// From any thread; returns at once. False when `capacity` commands are
    /// already waiting: this one is not taken, and the poster says so.
    @discardableResult
    package func post(_ command: ControlCommand, from source: ControlSource, reply: Reply? = nil) -> Bool {
        let taken = letters.withLock { letters in
            guard letters.count < Self.capacity else { return false }
            letters.append(Letter(command: command, source: source, reply: reply))
            return true
        }
        if taken { notifier?.signal() }
        return taken
    }

    /// From any thread: wakes the host without a command (a front end's own
    /// state changed, such as a meter subscription). Front ends keep the
    /// inbox, not a wake-up closure: a closure kept in a `Mutex` gains a
    /// reabstraction thunk at every `withLock` that reads it, a chain that
    /// grew with each OSC packet until its release overflowed the stack.
    package func wakeHost() {
        notifier?.signal()
    }

    /// On the session's thread: carries out what was posted so far, in
    /// order, and replies to each. True once one of them asked to quit
    /// (what was posted after it is not carried out: the run ends).
    package func deliver(to dispatcher: any ControlSurface) -> Bool {
        let taken = letters.withLock { letters in
            defer { letters = [] }
            return letters
        }
        for letter in taken {
            let result: Result<ControlResult, ControlError>
            do {
                result = .success(try dispatcher.dispatch(letter.command, from: letter.source))
            } catch {
                result = .failure(error)
            }
            letter.reply?(result)
            if case .success(.quit) = result { return true }
        }
        return false
    }
}
