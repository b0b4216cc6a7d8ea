import SwellDisplay
import SwellInput
import SwellLoop
import SwellRaster
import SwellService
import Testing

/// A picture whose every pixel encodes its own position, so any misplaced pixel is detected.
private func numbered(_ buffer: PixelBuffer) {
    for y in 0..<buffer.height {
        for x in 0..<buffer.width { buffer.surface.row(y)[x] = UInt32(y << 12 | x) }
    }
}

@Test(arguments: Rotation.allCases)
func rotatedCopyPutsEveryPixelWhereTheRotationSays(rotation: Rotation) throws {
    // A padded pitch (as DSI panels and Raspberry Pi framebuffers report) must be honoured.
    let presenter = MemoryPresenter(panelWidth: 7, panelHeight: 5, rotation: rotation, pitch: 7 * 4 + 12)
    numbered(presenter.shadow)
    try presenter.present()
    let w = presenter.shadow.width
    let h = presenter.shadow.height
    for panelY in 0..<5 {
        for panelX in 0..<7 {
            let (x, y): (Int, Int)
            switch rotation {
            case .none: (x, y) = (panelX, panelY)
            case .clockwise90: (x, y) = (panelY, h - 1 - panelX)
            case .upsideDown: (x, y) = (w - 1 - panelX, h - 1 - panelY)
            case .clockwise270: (x, y) = (w - 1 - panelY, panelX)
            }
            #expect(presenter.scanoutPixel(x: panelX, y: panelY) == UInt32(y << 12 | x))
        }
    }
}

@Test func theCopyLeavesRowPaddingUntouched() throws {
    let presenter = MemoryPresenter(panelWidth: 3, panelHeight: 2, pitch: 3 * 4 + 8)
    try presenter.present()
    let padding = (presenter.scanout + 12).loadUnaligned(as: UInt64.self)
    #expect(padding == 0xEEEE_EEEE_EEEE_EEEE, "bytes past the row are never written (nor read)")
}

@Test func rotationSwapsThePictureSize() {
    let presenter = MemoryPresenter(panelWidth: 1280, panelHeight: 800, rotation: .clockwise90)
    #expect(presenter.width == 800 && presenter.height == 1280)
    #expect(Rotation.clockwise270.logicalSize(panelWidth: 10, panelHeight: 4) == (4, 10))
    #expect(Rotation.upsideDown.logicalSize(panelWidth: 10, panelHeight: 4) == (10, 4))
}

@Test func bgrFramebuffersGetTheirChannelsSwapped() throws {
    let presenter = MemoryPresenter(panelWidth: 2, panelHeight: 1, format: .xbgr8888)
    presenter.shadow.surface.row(0)[0] = 0x00_11_22_33
    presenter.shadow.surface.row(0)[1] = 0x00_FF_00_80
    try presenter.present()
    #expect(presenter.scanoutPixel(x: 0, y: 0) == 0x00_33_22_11)
    #expect(presenter.scanoutPixel(x: 1, y: 0) == 0x00_80_00_FF)
}

@Test func rgb565KeepsTheTopBitsOfEachChannel() throws {
    let presenter = MemoryPresenter(panelWidth: 4, panelHeight: 1, format: .rgb565, pitch: 16)
    let row = presenter.shadow.surface.row(0)
    row[0] = 0x00_FF_FF_FF
    row[1] = 0x00_FF_00_00
    row[2] = 0x00_00_FF_00
    row[3] = 0x00_08_04_F8
    try presenter.present()
    #expect(presenter.scanoutPixel(x: 0, y: 0) == 0xFFFF)
    #expect(presenter.scanoutPixel(x: 1, y: 0) == 0xF800)
    #expect(presenter.scanoutPixel(x: 2, y: 0) == 0x07E0)
    #expect(presenter.scanoutPixel(x: 3, y: 0) == (1 << 11 | 1 << 5 | 0x1F))
}

@Test func unsupportedFramebufferFormatsAreRefusedWithTheFormatNamed() {
    let eightBit = ScanoutFormat(
        bitsPerPixel: 8, red: .init(offset: 5, length: 3), green: .init(offset: 2, length: 3),
        blue: .init(offset: 0, length: 2))
    #expect(throws: KioskError.self) { try eightBit.validate(device: "/dev/fb0") }
    do {
        try eightBit.validate(device: "/dev/fb0")
    } catch {
        #expect(error.message.contains("/dev/fb0") && error.message.contains("8 bpp"))
    }
    #expect(throws: Never.self) { try ScanoutFormat.rgb565.validate(device: "/dev/fb1") }
}
