import SwellDisplay
import SwellInput
import SwellLoop
import SwellService
import Testing

@Test func modeRequestsReadSizeAndOptionalRate() throws {
    #expect(ModeRequest(text: "1920x1080") == ModeRequest(width: 1920, height: 1080))
    #expect(ModeRequest(text: "800x480@59.94") == ModeRequest(width: 800, height: 480, refreshHz: 59.94))
    for bad in ["1920", "1920x", "x1080", "0x480", "1920x1080@", "1920x1080@fast", "1x2x3", "1920x1080@60@60"] {
        #expect(ModeRequest(text: bad) == nil, "'\(bad)' must be refused")
    }
}

@Test func displayLineRoundsTheRefreshRate() {
    let display = DisplayInfo(
        device: "card0", output: "Virtual-1", panelWidth: 1920, panelHeight: 1080, refreshHz: 59.94, backend: "drm")
    #expect(display.description == "card0 Virtual-1 1920x1080@60 (drm)")
}

@Test func picturePointsFollowEachRotation() {
    // Panel 100x50; the picture is 50x100 when turned a quarter.
    let point = (x: 10.0, y: 20.0)
    let cases: [(Rotation, Double, Double)] = [
        (.none, 10, 20), (.clockwise90, 20, 90), (.upsideDown, 90, 30), (.clockwise270, 30, 10),
    ]
    for (rotation, x, y) in cases {
        let mapping = ScreenMapping(panelWidth: 100, panelHeight: 50, rotation: rotation)
        let mapped = mapping.picturePoint(panelX: point.x, panelY: point.y)
        #expect(mapped.x == x && mapped.y == y, "\(rotation)")
    }
}
