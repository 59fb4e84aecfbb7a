/// What an OSC peer can make the host keep, in one place (docs/control.md
/// documents each).
package enum OSCLimits {
    /// Subscribers at once: a new one beyond drops the one subscribed, or
    /// last renewed, longest ago.
    package static let maximumSubscribers = 16
    /// A subscription ends this long after `/fxhost/subscribe`, unless the
    /// same sender subscribes again (which renews it).
    package static let subscriptionSeconds = 30.0
    /// Meters come no faster (`/fxhost/subscribe f:meter-hz`).
    package static let maximumMeterHertz = 50.0
}
