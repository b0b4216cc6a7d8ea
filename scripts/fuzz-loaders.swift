// libFuzzer harness for the files a kiosk reads (scripts/fuzz builds and runs it): scene files,
// draw lists, touch scripts and dump manifests. The first byte of an input picks the loader, the
// rest is the file. Whatever loads is also rendered, small, by every renderer it can reach; an
// input that traps, overflows a buffer (AddressSanitizer) or leaks fails the run. A file that does
// not load must throw, never crash: the kiosk reloads its scene file whenever it is saved.
import SwellDrawList
import SwellRaster
import SwellScenes

let sceneTarget = PixelBuffer(width: 64, height: 36)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard count > 1 else { return 0 }
    let bytes = Array(UnsafeRawBufferPointer(start: start + 1, count: count - 1))
    switch start.load(as: UInt8.self) % 4 {
    case 0:
        if let player = try? loadSceneFile(bytes: bytes, name: "fuzz.json", loadImages: { _ in .none }) {
            for time in [0.0, 0.5, 3.25, 100.0] { player.render(at: time, into: sceneTarget.surface) }
        }
    case 1:
        // Draw lists may be up to 16384 pixels a side; only small ones are rendered (time, not
        // safety: the kernels clip every shape to the frame).
        if let frame = try? parseDrawList(bytes: bytes, name: "fuzz.json"), frame.width * frame.height <= 1 << 16 {
            let target = PixelBuffer(width: frame.width, height: frame.height)
            render(frame, into: target.surface)
            FrameRenderer(threads: 1, bandHeight: 7).render(frame, into: target.surface)
        }
    case 2:
        _ = try? parseTouchScript(bytes: bytes, name: "fuzz.json")
    default:
        _ = try? DumpManifest.parse(bytes: bytes, name: "manifest.json")
    }
    return 0
}
