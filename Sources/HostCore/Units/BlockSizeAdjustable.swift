/// A unit whose instances can be told a new block size instead of being
/// made anew (an LV2 plugin with the options interface), so a live
/// buffer-size change keeps their state: a reverb's tail, a loaded impulse
/// response.
package protocol BlockSizeAdjustable: ProcessingUnit {
    /// Moves the current instances to `format`, which differs from their
    /// format only in `maxBlockFrames`, and returns true; or changes nothing
    /// and returns false, and `prepareInstances` makes new instances for
    /// `format` as for any other. Call it only while no plan runs this
    /// unit's instances (a live session plays its silent program): it
    /// reconnects ports and calls the plugin, which must not overlap `run()`.
    /// Throws when the instances cannot be made ready to run again.
    func adjustBlockSize(to format: RenderFormat) throws(UnitError) -> Bool
}
