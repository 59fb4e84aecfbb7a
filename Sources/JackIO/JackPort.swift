import CJack
import CShim
import Glibc

/// A JACK audio port this process registered.
public struct JackPort {
    /// The `jack_port_t *`; valid until its client closes.
    public let handle: OpaquePointer
    /// Full name, `client:port`.
    public let name: String
    public let isInput: Bool
}
