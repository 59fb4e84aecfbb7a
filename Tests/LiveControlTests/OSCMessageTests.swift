import LiveControl
import HostCore
import XCTest

@testable import JackIO

/// The OSC codec against the byte examples of the OSC 1.0 specification,
/// and the address space's reading of messages.
final class OSCMessageTests: XCTestCase {
    /// The specification's "/oscillator/4/frequency" ,f 440.0 example.
    private let frequencyPacket: [UInt8] = [
        0x2f, 0x6f, 0x73, 0x63, 0x69, 0x6c, 0x6c, 0x61, 0x74, 0x6f, 0x72, 0x2f,
        0x34, 0x2f, 0x66, 0x72, 0x65, 0x71, 0x75, 0x65, 0x6e, 0x63, 0x79, 0x00,
        0x2c, 0x66, 0x00, 0x00, 0x43, 0xdc, 0x00, 0x00,
    ]
    /// The specification's "/foo" ,iisff 1000 -1 "hello" 1.234 5.678 example.
    private let fooPacket: [UInt8] = [
        0x2f, 0x66, 0x6f, 0x6f, 0x00, 0x00, 0x00, 0x00, 0x2c, 0x69, 0x69, 0x73,
        0x66, 0x66, 0x00, 0x00, 0x00, 0x00, 0x03, 0xe8, 0xff, 0xff, 0xff, 0xff,
        0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x00, 0x00, 0x00, 0x3f, 0x9d, 0xf3, 0xb6,
        0x40, 0xb5, 0xb2, 0x2d,
    ]

    func testTheSpecificationsExamplesReadAndWriteByteForByte() throws {
        let frequency = OSCMessage("/oscillator/4/frequency", [.float(440)])
        XCTAssertEqual(try OSCMessage.messages(in: frequencyPacket), [frequency])
        XCTAssertEqual(frequency.encoded(), frequencyPacket)
        let foo = OSCMessage("/foo", [.int(1000), .int(-1), .string("hello"), .float(1.234), .float(5.678)])
        XCTAssertEqual(try OSCMessage.messages(in: fooPacket), [foo])
        XCTAssertEqual(foo.encoded(), fooPacket)
    }

    func testABundleGivesItsMessagesInOrder() throws {
        var bundle = Array("#bundle".utf8) + [0] + [0, 0, 0, 0, 0, 0, 0, 1]
        for packet in [frequencyPacket, fooPacket] {
            bundle += [0, 0, 0, UInt8(packet.count)] + packet
        }
        XCTAssertEqual(try OSCMessage.messages(in: bundle).map(\.address), ["/oscillator/4/frequency", "/foo"])
    }

    func testTruncatedOrForeignPacketsAreRefused() {
        for packet in [Array("garbage".utf8), Array(fooPacket.prefix(30)), Array("nope".utf8) + [0, 0, 0, 0],
                       Array(fooPacket) + [0, 0, 0, 0]] {
            XCTAssertThrowsError(try OSCMessage.messages(in: packet), "\(packet)")
        }
        let blob = Array("/x".utf8) + [0, 0] + Array(",b".utf8) + [0, 0] + [0, 0, 0, 0]
        XCTAssertThrowsError(try OSCMessage.messages(in: blob)) {
            XCTAssertEqual($0 as? OSCDecodingError, .unsupportedType("b"))
        }
    }

    func testTheAddressSpaceReadsItsCommands() throws {
        XCTAssertEqual(try OSCRequest(OSCMessage("/fxhost/set", [.string("amp"), .string("gain"), .float(-6)])),
                       .control(.set(node: "amp", parameter: "gain", value: .number(-6))))
        XCTAssertEqual(try OSCRequest(OSCMessage("/fxhost/set", [.string("eq"), .string("mode"), .string("Bass")])),
                       .control(.set(node: "eq", parameter: "mode", value: .label("Bass"))))
        XCTAssertEqual(try OSCRequest(OSCMessage("/fxhost/bypass", [.string("room"), .int(1)])),
                       .control(.bypass(node: "room", on: true)))
        XCTAssertEqual(try OSCRequest(OSCMessage("/fxhost/tap", [.string("drive:2"), .string("take.wav")])),
                       .control(.tap(PortReference(node: "drive", port: .channel(2)), file: "take.wav")))
        XCTAssertEqual(try OSCRequest(OSCMessage("/fxhost/connect", [.string("vox"), .string("verb"), .float(-12)])),
                       .control(.connect(from: PortReference(node: "vox"), to: PortReference(node: "verb"), gainDecibels: -12)))
        XCTAssertEqual(try OSCRequest(OSCMessage("/fxhost/connect", [.string("vox"), .string("verb")])),
                       .control(.connect(from: PortReference(node: "vox"), to: PortReference(node: "verb"), gainDecibels: 0)))
        XCTAssertEqual(try OSCRequest(OSCMessage("/fxhost/status")), .control(.status))
        XCTAssertEqual(try OSCRequest(OSCMessage("/fxhost/subscribe")), .subscribe(meterHertz: nil))
        XCTAssertEqual(try OSCRequest(OSCMessage("/fxhost/subscribe", [.float(20)])), .subscribe(meterHertz: 20))
        XCTAssertEqual(try OSCRequest(OSCMessage("/fxhost/subscribe", [.int(0)])), .subscribe(meterHertz: nil))
        XCTAssertEqual(try OSCRequest(OSCMessage("/fxhost/tap/pause", [.string("drive:1")])),
                       .control(.pauseTap(PortReference(node: "drive", port: .channel(1)))))
        XCTAssertEqual(try OSCRequest(OSCMessage("/fxhost/tap/resume", [.string("drive")])),
                       .control(.resumeTap(PortReference(node: "drive"))))
        XCTAssertEqual(try OSCRequest(OSCMessage("/fxhost/bounce", [.string("mix.wav")])),
                       .control(.bounce(file: "mix.wav", from: 0, to: nil)))
        XCTAssertEqual(try OSCRequest(OSCMessage("/fxhost/bounce", [.string("a.flac"), .float(30), .int(45)])),
                       .control(.bounce(file: "a.flac", from: 30, to: 45)))
        XCTAssertEqual(try OSCRequest(OSCMessage("/fxhost/bounce/cancel")), .control(.cancelBounce))
        XCTAssertEqual(try OSCRequest(OSCMessage("/fxhost/scene", [.string("lead")])), .control(.scene("lead")))
        XCTAssertEqual(try OSCRequest(OSCMessage("/fxhost/save")), .control(.save(file: nil)))
        XCTAssertEqual(try OSCRequest(OSCMessage("/fxhost/tempo", [.float(140)])), .control(.tempo(140)))
        XCTAssertEqual(try OSCRequest(OSCMessage("/fxhost/transport", [.int(0)])), .control(.transport(rolling: false)))
        XCTAssertEqual(try OSCRequest(OSCMessage("/fxhost/save", [.string("live.yaml")])), .control(.save(file: "live.yaml")))
        XCTAssertEqual(try OSCRequest(OSCMessage("/fxhost/learn", [.string("wah"), .string("freq")])),
                       .control(.learn(node: "wah", parameter: "freq")))
        XCTAssertEqual(try OSCRequest(OSCMessage("/fxhost/unlearn", [.string("wah"), .string("freq")])),
                       .control(.unlearn(node: "wah", parameter: "freq")))
        XCTAssertEqual(try OSCRequest(OSCMessage("/fxhost/preset/save", [.string("amp"), .string("Minus Six")])),
                       .control(.savePreset(node: "amp", name: "Minus Six")))
    }

    func testWrongMessagesAreRefusedWithWhatWasExpected() {
        func sentence(_ message: OSCMessage) -> String? {
            do {
                _ = try OSCRequest(message)
                return nil
            } catch {
                return error.description
            }
        }
        XCTAssertEqual(sentence(OSCMessage("/fxhost/bypass", [.string("amp"), .string("x")])),
                       "/fxhost/bypass takes s:node i:on, not arguments of types `ss`")
        XCTAssertEqual(sentence(OSCMessage("/fxhost/set", [.string("amp")])),
                       "/fxhost/set takes s:node s:param f|i|s:value, not arguments of types `s`")
        XCTAssertTrue(sentence(OSCMessage("/fxhost/nope"))?.hasPrefix("unknown OSC address `/fxhost/nope`") ?? false)
        XCTAssertEqual(sentence(OSCMessage("/fxhost/subscribe", [.float(-1)])),
                       "/fxhost/subscribe: the meter rate is from 0 (no meters) to 50 per second, not -1")
        XCTAssertEqual(sentence(OSCMessage("/fxhost/bounce", [.string("a.wav"), .float(40), .float(30)])),
                       "/fxhost/bounce: the end must come after the start, and the start may not be negative")
        XCTAssertEqual(sentence(OSCMessage("/fxhost/save", [.int(2)])), "/fxhost/save takes [s:file [i:force]], not arguments of types `i`")
        XCTAssertEqual(sentence(OSCMessage("/fxhost/scene", [.int(2)])), "/fxhost/scene takes s:scene [f:glide-seconds], not arguments of types `i`")
    }
}
