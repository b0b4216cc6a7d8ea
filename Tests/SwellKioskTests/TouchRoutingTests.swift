import SwellDisplay
import SwellInput
import SwellLoop
import SwellService
import Testing

/// Which output a touch device touches: `--touch DEVICE=OUTPUT` first, else the one panel of the
/// device's size (in pixels or millimetres), else the first output, with a journal line saying why.
@Suite struct TouchRoutingTests {
    typealias Output = TouchRouting.Output
    typealias Device = TouchRouting.Device

    /// A 1080p 24" panel (527x296 mm) and a 1280x800 10" one (217x136 mm).
    static let outputs = [
        Output(name: "HDMI-A-1", panelWidth: 1920, panelHeight: 1080, widthMillimetres: 527, heightMillimetres: 296),
        Output(name: "DSI-1", panelWidth: 1280, panelHeight: 800, widthMillimetres: 217, heightMillimetres: 136),
    ]

    static func range(_ maximum: Int32, resolution: Int32 = 0) -> AxisRange {
        AxisRange(minimum: 0, maximum: maximum, resolution: resolution)
    }

    /// QEMU's virtio tablet: 0…32767 on both axes, no resolution.
    static let tablet = Device(
        path: "/dev/input/event2", name: "QEMU Virtio Tablet",
        kind: .absolutePointer(x: range(32767), y: range(32767)))

    static func route(_ device: Device, _ requests: [TouchRouting.Request] = [], outputs: [Output] = outputs)
        -> TouchRouting.Route
    {
        TouchRouting.route(device, outputs: outputs, requests: requests)
    }

    @Test func aDeviceOfNoPanelsSizeGoesToTheFirstOutputAndTheLineSaysSo() {
        let route = Self.route(Self.tablet)
        #expect(route == TouchRouting.Route(output: 0, reason: .noMatch))
        let line = TouchRouting.describe(Self.tablet, route, outputs: Self.outputs)
        #expect(
            line
                == "touch /dev/input/event2 (QEMU Virtio Tablet) → HDMI-A-1: its size (0…32767 × 0…32767) matches no "
                + "output, so the first; --touch DEVICE=OUTPUT picks one")
    }

    @Test func rangesCountingThePanelsPixelsPickThatPanel() {
        let small = Device(
            path: "/dev/input/event5", name: "Goodix Capacitive TouchScreen",
            kind: .multitouch(x: Self.range(1279), y: Self.range(799), slots: 10))
        #expect(Self.route(small) == TouchRouting.Route(output: 1, reason: .sizeMatch))
        // 0…1920 (one step more than pixels) still matches; 0…1919 × 0…799 matches neither.
        let inclusive = Device(path: "/a", name: "a", kind: .singleTouch(x: Self.range(1920), y: Self.range(1080)))
        #expect(Self.route(inclusive) == TouchRouting.Route(output: 0, reason: .sizeMatch))
        let mixed = Device(path: "/b", name: "b", kind: .singleTouch(x: Self.range(1919), y: Self.range(799)))
        #expect(Self.route(mixed).reason == .noMatch)
    }

    @Test func aResolutionGivesMillimetresThatPickThePanel() {
        // 0…4095 at 19 units/mm is 215.6 mm; 0…2599 at 19 is 136.8 mm: the 10" panel, not the 24".
        let ilitek = Device(
            path: "/dev/input/event3", name: "ILITEK ILITEK-TP",
            kind: .multitouch(x: Self.range(4095, resolution: 19), y: Self.range(2599, resolution: 19), slots: 10))
        let route = Self.route(ilitek)
        #expect(route == TouchRouting.Route(output: 1, reason: .sizeMatch))
        #expect(
            TouchRouting.describe(ilitek, route, outputs: Self.outputs)
                == "touch /dev/input/event3 (ILITEK ILITEK-TP) → DSI-1: its size (0…4095 × 0…2599, 216x137 mm) "
                + "matches that panel")
        // 10 % larger than the panel is not a match.
        let larger = Device(
            path: "/x", name: "x",
            kind: .multitouch(x: Self.range(4505, resolution: 19), y: Self.range(2859, resolution: 19), slots: 1))
        #expect(Self.route(larger).reason == .noMatch)
    }

    @Test func identicalPanelsCannotBeToldApartBySize() {
        let twins = [
            Output(name: "HDMI-A-1", panelWidth: 1920, panelHeight: 1080),
            Output(name: "HDMI-A-2", panelWidth: 1920, panelHeight: 1080),
        ]
        let device = Device(
            path: "/p", name: "p", kind: .multitouch(x: Self.range(1919), y: Self.range(1079), slots: 5))
        let route = Self.route(device, outputs: twins)
        #expect(route == TouchRouting.Route(output: 0, reason: .ambiguous(["HDMI-A-1", "HDMI-A-2"])))
        #expect(
            TouchRouting.describe(device, route, outputs: twins).hasSuffix(
                "matches HDMI-A-1 and HDMI-A-2, so the first; --touch DEVICE=OUTPUT picks one"))
    }

    @Test func touchByPathLinkOrNameWinsOverSize() throws {
        let small = Device(
            path: "/dev/input/event5", name: "Goodix Capacitive TouchScreen",
            kind: .multitouch(x: Self.range(1279), y: Self.range(799), slots: 10))
        let byPath = [TouchRouting.Request(device: "/dev/input/event5", output: "HDMI-A-1")]
        #expect(Self.route(small, byPath) == TouchRouting.Route(output: 0, reason: .named))
        let byName = [TouchRouting.Request(device: "Goodix Capacitive TouchScreen", output: "hdmi-a-1")]
        #expect(Self.route(small, byName) == TouchRouting.Route(output: 0, reason: .named))
        // A /dev/input/by-id link resolves to the node.
        let link = "/dev/input/by-id/usb-Goodix-event-if00"
        let byLink = [TouchRouting.Request(device: link, output: "HDMI-A-1")]
        let resolved = TouchRouting.route(
            small, outputs: Self.outputs, requests: byLink, resolve: { $0 == link ? "/dev/input/event5" : $0 })
        #expect(resolved == TouchRouting.Route(output: 0, reason: .named))
        #expect(Self.route(small, byLink) == TouchRouting.Route(output: 1, reason: .sizeMatch))
        // The tablet, named, goes to the second output.
        let tablet = [TouchRouting.Request(device: "QEMU Virtio Tablet", output: "DSI-1")]
        #expect(Self.route(Self.tablet, tablet) == TouchRouting.Route(output: 1, reason: .named))
    }

    @Test func aMouseGoesToTheFirstOutputAndOneOutputTakesEverything() {
        let mouse = Device(path: "/dev/input/event4", name: "USB Mouse", kind: .mouse)
        #expect(Self.route(mouse) == TouchRouting.Route(output: 0, reason: .mouse))
        #expect(
            Self.route(Self.tablet, outputs: [Self.outputs[1]]) == TouchRouting.Route(output: 0, reason: .onlyOutput))
    }

    @Test func eachDeviceKeepsItsOwnCalibration() {
        let swapped = TouchCalibration(0, 1, 0, 1, 0, 0)
        let mirrored = TouchCalibration(-1, 0, 1, 0, 1, 0)
        let routing = InputRouting(
            outputs: Self.outputs,
            mappings: Self.outputs.map {
                ScreenMapping(panelWidth: $0.panelWidth, panelHeight: $0.panelHeight, rotation: .none)
            },
            calibrations: [(device: "/dev/input/event2", matrix: swapped)], defaultCalibration: mirrored)
        #expect(routing.calibration(for: Self.tablet) == swapped)
        let other = Device(path: "/dev/input/event9", name: "other", kind: .mouse)
        #expect(routing.calibration(for: other) == mirrored)
    }
}
