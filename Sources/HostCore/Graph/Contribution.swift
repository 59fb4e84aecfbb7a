/// One sample stream feeding one input channel: source channel × gain.
struct Contribution {
    var sourceNode: Int
    var sourceChannel: Int
    var gainDecibels: Double
}
