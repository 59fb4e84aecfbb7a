/// How long a scene takes to glide to its values: `scene NAME --glide 2s`
/// and `{ program: 3, scene: lead, glide: 500ms }`. Read as text and bounded
/// before it becomes a number of frames.
package enum SceneGlideTime {
    /// The longest glide, one minute: longer is a mistake, not a musical choice.
    package static let maximumSeconds = 60.0

    /// `2s`, `500ms` or a plain number of seconds, from 0 (no glide) to `maximumSeconds`.
    package static func seconds(_ text: String) throws(SceneGlideTimeError) -> Double {
        guard let seconds = PatchValueSyntax.seconds(text), seconds.isFinite else {
            throw SceneGlideTimeError("a glide is a time such as `2s` or `500ms`, not `\(text)`")
        }
        return try checked(seconds)
    }

    /// `seconds` when it is a glide's length.
    package static func checked(_ seconds: Double) throws(SceneGlideTimeError) -> Double {
        guard seconds.isFinite, seconds >= 0 else {
            throw SceneGlideTimeError("a glide cannot be negative, got \(seconds.isFinite ? NumberText.format(seconds) + "s" : "not a number")")
        }
        guard seconds <= maximumSeconds else {
            throw SceneGlideTimeError("a glide lasts at most \(NumberText.format(maximumSeconds))s, got \(NumberText.format(seconds))s")
        }
        return seconds
    }

    /// As the patch writes it: `500ms` under a second, `2s` from one.
    package static func text(_ seconds: Double) -> String {
        seconds < 1 ? "\(NumberText.format((seconds * 1000 * 1000).rounded() / 1000))ms" : "\(NumberText.format(seconds))s"
    }

    /// The glide in frames at `sampleRate` (bounded: at most a minute's).
    package static func frames(_ seconds: Double, sampleRate: Double) -> Int {
        guard seconds.isFinite, sampleRate.isFinite, sampleRate > 0 else { return 0 }
        let bounded = min(max(seconds, 0), maximumSeconds)
        return Int((bounded * min(sampleRate, 1_000_000)).rounded())
    }
}

/// A glide time that is not one, in one sentence.
package struct SceneGlideTimeError: Error, Equatable {
    package var message: String
    package init(_ message: String) { self.message = message }
}
