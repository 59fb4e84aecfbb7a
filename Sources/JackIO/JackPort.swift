import CJack
import Glibc

/// A JACK audio port this process registered.
package struct JackPort {
    /// The `jack_port_t *`; valid until its client closes.
    package let handle: OpaquePointer
    /// Full name, `client:port`.
    package let name: String
    package let isInput: Bool
}
