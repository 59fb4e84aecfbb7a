// The floor for a Swift program's start-up (`scripts/startup.sh`): the
// loader and the Swift runtime, nothing else. Built with and without
// Foundation, which fxhost links (and, through it, ICU's data).
#if WITH_FOUNDATION
import Foundation
_ = ProcessInfo.processInfo.environment.count
#endif
