// Swell's YUV 4:2:0 → XRGB kernels (convertYUV420, convertYUV420Scaled) against libswscale
// (sws_scale to AV_PIX_FMT_BGRA, colour details set as the FFmpeg decoder sets them), in the same
// run, alternating one call of each, so both see the same machine state. Prints medians in ms and
// how far the native-size outputs differ.
//
//   swift build -c release --package-path Benchmarks --scratch-path .build/bench-portable --product VideoConvertBench
//   taskset -c 1 .build/bench-portable/release/VideoConvertBench [iterations] [label]
import CSwscale
import Glibc
import SwellRaster

let iterations = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 200 : 200
let label = CommandLine.arguments.count > 2 ? CommandLine.arguments[2] : "unlabelled build"

func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
}

func median(_ samples: [Double]) -> Double {
    let sorted = samples.sorted()
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// A yuv420p picture in 64-byte-aligned planes with lines padded to 64 bytes, as FFmpeg's
/// decoders leave them: smooth gradients (like most video) with a little deterministic noise, and
/// corners that leave the RGB gamut so clamping is exercised.
final class Picture {
    let width: Int
    let height: Int
    let planes: [UnsafeMutablePointer<UInt8>]
    let strides: [Int]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        let sizes = [(width, height), ((width + 1) / 2, (height + 1) / 2), ((width + 1) / 2, (height + 1) / 2)]
        strides = sizes.map { ($0.0 + 63) & ~63 }
        planes = zip(sizes, strides).map { size, stride in
            UnsafeMutableRawPointer.allocate(byteCount: stride * size.1, alignment: 64)
                .bindMemory(to: UInt8.self, capacity: stride * size.1)
        }
        var state: UInt32 = 12345
        func noise() -> Int {
            state = state &* 1_664_525 &+ 1_013_904_223
            return Int(state >> 28) - 8
        }
        for (index, (size, stride)) in zip(sizes, strides).enumerated() {
            for y in 0..<size.1 {
                for x in 0..<size.0 {
                    let value: Int
                    switch index {
                    case 0: value = 16 + (x * 219 / size.0 + y * 64 / size.1) % 220 + noise()
                    case 1: value = 128 + (x - size.0 / 2) * 240 / size.0 + noise()
                    default: value = 128 + (y - size.1 / 2) * 240 / size.1 + noise()
                    }
                    planes[index][y * stride + x] = UInt8(clamping: value)
                }
            }
        }
    }

    var yuv: YUVPlanes {
        YUVPlanes(
            y: planes[0], yStride: strides[0], u: planes[1], uStride: strides[1], v: planes[2], vStride: strides[2],
            width: width, height: height)
    }
}

/// A libswscale context from `source` to a `width`×`height` BGRA buffer, set up as the FFmpeg
/// decoder sets it: the stream's matrix and range in, SWS_CS_DEFAULT full range out.
final class Scaler {
    let context: OpaquePointer
    let source: Picture

    init(_ source: Picture, to width: Int, _ height: Int, flags: Int32, bt709: Bool, fullRange: Bool) {
        self.source = source
        context = sws_getContext(
            Int32(source.width), Int32(source.height), AV_PIX_FMT_YUV420P, Int32(width), Int32(height),
            AV_PIX_FMT_BGRA, flags, nil, nil, nil)!
        let status = sws_setColorspaceDetails(
            context, sws_getCoefficients(bt709 ? SWS_CS_ITU709 : SWS_CS_DEFAULT), fullRange ? 1 : 0,
            sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16)
        precondition(status >= 0, "sws_setColorspaceDetails failed")
    }

    deinit { sws_freeContext(context) }

    func scale(into surface: PixelSurface) {
        let sources: [UnsafePointer<UInt8>?] = source.planes.map { UnsafePointer($0) }
        let sourceStrides = source.strides.map { Int32($0) }
        let destinations: [UnsafeMutablePointer<UInt8>?] = [surface.base.assumingMemoryBound(to: UInt8.self)]
        let destinationStrides = [Int32(surface.stride)]
        sws_scale(context, sources, sourceStrides, 0, Int32(source.height), destinations, destinationStrides)
    }
}

/// Max and mean channel difference (R, G, B) of two surfaces of one size, and how many differ by
/// each amount; also whether every pixel of `other` has X = 0xFF.
func difference(_ a: PixelSurface, _ b: PixelSurface) -> (max: Int, mean: Double, histogram: [Int], opaque: Bool) {
    var histogram = [Int](repeating: 0, count: 256)
    var sum = 0
    var opaque = true
    for y in 0..<a.height {
        for x in 0..<a.width {
            let p = a.row(y)[x]
            let q = b.row(y)[x]
            if q >> 24 != 0xFF { opaque = false }
            for shift: UInt32 in [16, 8, 0] {
                let d = abs(Int((p >> shift) & 0xFF) - Int((q >> shift) & 0xFF))
                histogram[d] += 1
                sum += d
            }
        }
    }
    let top = histogram.lastIndex { $0 > 0 } ?? 0
    return (top, Double(sum) / Double(a.width * a.height * 3), Array(histogram[0...top]), opaque)
}

func describe(_ d: (max: Int, mean: Double, histogram: [Int], opaque: Bool)) -> String {
    let total = Double(d.histogram.reduce(0, +))
    let shares = d.histogram.enumerated().map { "\($0.offset): \(formatted(100 * Double($0.element) / total, 3))%" }
    return "max \(d.max), mean \(formatted(d.mean, 4)) (channels differing by \(shares.joined(separator: ", ")))"
        + (d.opaque ? "" : "; swscale's X byte is not 0xFF")
}

func formatted(_ value: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = "\(rounded)"
    if let dot = text.firstIndex(of: ".") {
        let decimals = text.distance(from: dot, to: text.endIndex) - 1
        if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
    }
    return text
}

/// Times `swell` and `swscale` alternately, `iterations` calls each after a few warm-up calls.
func race(_ name: String, swell: () -> Void, swscale: () -> Void) {
    for _ in 0..<5 {
        swell()
        swscale()
    }
    var swellTimes: [Double] = []
    var swscaleTimes: [Double] = []
    for _ in 0..<iterations {
        var start = monotonicNanoseconds()
        swell()
        swellTimes.append(Double(monotonicNanoseconds() - start) / 1e6)
        start = monotonicNanoseconds()
        swscale()
        swscaleTimes.append(Double(monotonicNanoseconds() - start) / 1e6)
    }
    let a = median(swellTimes)
    let b = median(swscaleTimes)
    print(
        "\(name + String(repeating: " ", count: max(0, 46 - name.count))) Swell \(formatted(a, 3)) ms   "
            + "swscale \(formatted(b, 3)) ms   swscale/Swell \(formatted(b / a, 2))x")
}

let full = Picture(width: 1920, height: 1080)
let hd = Picture(width: 1280, height: 720)
let target = PixelBuffer(width: 1920, height: 1080)
let reference = PixelBuffer(width: 1920, height: 1080)
let half = PixelBuffer(width: 960, height: 540)
let matrix = YUVMatrix.bt709Limited

/// The whole picture stretched over the whole buffer, as `fit` does when the shapes agree.
nonisolated(unsafe) let scratch = YUVScaleScratch()  // one thread: the benchmark's
func swellScaled(_ picture: Picture, into buffer: PixelBuffer) {
    convertYUV420Scaled(
        picture.yuv, matrix, crop: picture.yuv.bounds, into: buffer.surface, place: buffer.surface.bounds,
        scratch: scratch)
}

print("VideoConvertBench (\(label)): \(iterations) iterations each, alternating, medians; BT.709 limited range")
let native = Scaler(full, to: 1920, 1080, flags: SWS_BICUBIC, bt709: true, fullRange: false)
race("1920x1080 -> 1920x1080 (swscale SWS_BICUBIC)") {
    convertYUV420(full.yuv, matrix, into: target.surface, clip: target.surface.bounds)
} swscale: {
    native.scale(into: target.surface)
}
let up = Scaler(hd, to: 1920, 1080, flags: SWS_BICUBIC, bt709: true, fullRange: false)
let upBilinear = Scaler(hd, to: 1920, 1080, flags: SWS_BILINEAR, bt709: true, fullRange: false)
race("1280x720 -> 1920x1080 (swscale SWS_BICUBIC)") {
    swellScaled(hd, into: target)
} swscale: {
    up.scale(into: target.surface)
}
race("1280x720 -> 1920x1080 (swscale SWS_BILINEAR)") {
    swellScaled(hd, into: target)
} swscale: {
    upBilinear.scale(into: target.surface)
}
let down = Scaler(full, to: 960, 540, flags: SWS_BICUBIC, bt709: true, fullRange: false)
let downBilinear = Scaler(full, to: 960, 540, flags: SWS_BILINEAR, bt709: true, fullRange: false)
race("1920x1080 -> 960x540 (swscale SWS_BICUBIC)") {
    swellScaled(full, into: half)
} swscale: {
    down.scale(into: half.surface)
}
race("1920x1080 -> 960x540 (swscale SWS_BILINEAR)") {
    swellScaled(full, into: half)
} swscale: {
    downBilinear.scale(into: half.surface)
}

print("Native size, Swell vs swscale (SWS_BICUBIC, its unscaled yuv420p->BGRA path), per channel:")
for (bt709, fullRange) in [(false, false), (false, true), (true, false), (true, true)] {
    convertYUV420(
        full.yuv, YUVMatrix(bt709: bt709, fullRange: fullRange), into: target.surface, clip: target.surface.bounds)
    Scaler(full, to: 1920, 1080, flags: SWS_BICUBIC, bt709: bt709, fullRange: fullRange).scale(into: reference.surface)
    let name = "  \(bt709 ? "BT.709" : "BT.601") \(fullRange ? "full   " : "limited")"
    print("\(name): \(describe(difference(target.surface, reference.surface)))")
}
print("Scaled, Swell's bilinear vs swscale SWS_BILINEAR (different filters and siting: informative):")
swellScaled(hd, into: target)
upBilinear.scale(into: reference.surface)
print("  1280x720 -> 1920x1080: \(describe(difference(target.surface, reference.surface)))")
