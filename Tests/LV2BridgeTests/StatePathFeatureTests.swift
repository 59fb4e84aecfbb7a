import CLilv
import Foundation
import HostCore
@testable import LV2Bridge
import XCTest

/// The state file features every instance is given, called as a plugin
/// calls them (through the feature array it was instantiated with).
final class StatePathFeatureTests: XCTestCase {
    private func feature(_ uri: String, of instance: LV2Instance) -> UnsafeMutableRawPointer? {
        var index = 0
        while let feature = instance.features[index] {
            if String(cString: feature.pointee.URI) == uri { return feature.pointee.data }
            index += 1
        }
        return nil
    }

    func testMakePathGivesAPathInTheUnitsScratchFolderAndMapPathKeepsAbsolutePaths() throws {
        let unit = try Installed.unit("http://lv2plug.in/plugins/eg-amp")
        _ = try unit.prepareInstances(count: 1, format: RenderFormat(sampleRate: 48_000, maxBlockFrames: 64, mode: .offline))
        let instance = try XCTUnwrap(unit.instances.first)
        let make = try XCTUnwrap(feature(LV2URI.stateMakePath, of: instance)).assumingMemoryBound(to: LV2_State_Make_Path.self)
        let free = try XCTUnwrap(feature(LV2URI.stateFreePath, of: instance)).assumingMemoryBound(to: LV2_State_Free_Path.self)
        let map = try XCTUnwrap(feature(LV2URI.stateMapPath, of: instance)).assumingMemoryBound(to: LV2_State_Map_Path.self)

        let made = try XCTUnwrap(make.pointee.path(make.pointee.handle, "takes/one.wav"))
        XCTAssertEqual(String(cString: made), unit.scratchFolder + "/takes/one.wav")
        var isFolder: ObjCBool = false
        XCTAssertTrue(FileManager.default.fileExists(atPath: unit.scratchFolder + "/takes", isDirectory: &isFolder) && isFolder.boolValue,
                      "the folders on the way are made")
        free.pointee.free_path(free.pointee.handle, made)

        let abstract = try XCTUnwrap(map.pointee.abstract_path(map.pointee.handle, "/usr/share/sounds/x.wav"))
        XCTAssertEqual(String(cString: abstract), "/usr/share/sounds/x.wav")
        let absolute = try XCTUnwrap(map.pointee.absolute_path(map.pointee.handle, abstract))
        XCTAssertEqual(String(cString: absolute), "/usr/share/sounds/x.wav")
        free.pointee.free_path(free.pointee.handle, abstract)
        free.pointee.free_path(free.pointee.handle, absolute)
    }
}
