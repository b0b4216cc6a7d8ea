import Foundation
import SwellOutput
import SwellRaster
import Testing

@Suite struct OutputTests {
    @Test func pngRoundTripKeepsEveryPixelOfAPaddedSurface() throws {
        // A wrapped surface whose stride exceeds width*4, as real framebuffers have.
        let width = 37
        let height = 11
        let stride = 37 * 4 + 24
        let memory = UnsafeMutableRawPointer.allocate(byteCount: stride * height, alignment: 16)
        defer { memory.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: 0xAB, count: stride * height)
        let buffer = PixelBuffer(wrapping: memory, width: width, height: height, stride: stride)
        for y in 0..<height {
            for x in 0..<width {
                buffer.surface.row(y)[x] = 0xFF00_0000 | UInt32(x * 7) << 16 | UInt32(y * 20) << 8 | UInt32(x ^ y)
            }
        }
        let folder = try temporaryFolder()
        try writePNG(buffer.surface, to: folder + "/a.png")
        let back = try readPNG(path: folder + "/a.png")
        #expect(packedRows(back.surface) == packedRows(buffer.surface))
        #expect(checksum(back.surface) == checksum(buffer.surface))
        try writeRaw(buffer.surface, to: folder + "/a.raw")
        let raw = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/a.raw")))
        #expect(raw.count == width * height * 4)
        #expect(raw[0..<4] == [0, 0, 0, 0xFF])
        #expect(!raw.contains(0xAB) || raw.count == width * height * 4)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["a.png", "a.raw"])
    }

    @Test func readingAMissingOrBrokenPNGFailsClearly() throws {
        do {
            _ = try readPNG(path: "/nonexistent/x.png")
            Issue.record("read a missing file")
        } catch {
            #expect(error.isMissingInput)
        }
        let folder = try temporaryFolder()
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: folder + "/x.png"))
        do {
            _ = try readPNG(path: folder + "/x.png")
            Issue.record("read garbage")
        } catch {
            #expect(!error.isMissingInput)
            #expect(error.description.hasPrefix(folder + "/x.png: not a readable PNG"))
        }
    }

    @Test func checksumSeesEveryByteAndIgnoresPadding() {
        let a = PixelBuffer(width: 5, height: 3)
        let b = PixelBuffer(width: 5, height: 3)
        #expect(checksum(a.surface) == checksum(b.surface))
        b.surface.row(2)[4] = 1
        #expect(checksum(a.surface) != checksum(b.surface))
    }
}
