import CLilv
import CLV2Shim
import Foundation
import HostCore

/// What an instance needs from its unit, off the realtime thread.
struct InstanceContext {
    let world: LV2World
    let plugin: OpaquePointer
    let description: PluginDescription
    let format: RenderFormat
    let memory: SharedPortMemory
    let log: UnsafeMutablePointer<LV2_Log_Log>?
    /// Where `state:makePath` puts the files the plugin creates.
    let scratchFolder: String
}
