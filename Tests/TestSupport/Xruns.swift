/// Takes a measurement again, up to `tries` times in all, while it fails
/// `passes` and the JACK server reported an xrun during it: on a loaded
/// machine a client that misses a cycle leaves a cycle of zeros, shifts a
/// clock or loses a cycle's MIDI, which the product rightly does and a test
/// must not judge. Returns the take to judge strictly: the first that
/// passes, or fails with no xrun, or else the last, with `note`: "" or a
/// remark, for the failure messages, that every try had xruns.
/// `take`: the measurement (passed the try's number, from 1) and the xruns
/// the server reported during it (a session's `status().xruns`, a bare
/// engine's `statistics.xruns`, after less before).
/// `passes`: the caller's exact oracle, as the asserts after will judge it.
public func retakingOnXruns<T>(tries: Int = 5, _ take: (_ attempt: Int) throws -> (T, xruns: Int),
                               passes: (T) -> Bool) rethrows -> (take: T, note: String) {
    var attempt = 1
    while true {
        let (value, xruns) = try take(attempt)
        if xruns == 0 || passes(value) { return (value, "") }
        if attempt == tries { return (value, " (xruns in every try: \(xruns) in the last of \(tries))") }
        print("\(xruns) xruns during try \(attempt), which fails: taken again")
        attempt += 1
    }
}
