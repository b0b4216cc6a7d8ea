import CFFmpeg
import SwellRaster

/// Converts decoded pictures to opaque XRGB8888 (B, G, R, 255 in memory) with libswscale, scaled
/// into a buffer as `VideoScaling` lays them out.
///
/// The colour comes from the picture's own flags: its matrix (BT.601, BT.709, …; unspecified is
/// taken as libswscale's default, BT.601, as FFmpeg's own `scale` filter takes it) and its range
/// (limited 16–235 or full). Bicubic, FFmpeg's default filter for the `ffmpeg` command, so a
/// frame converted here and one converted by `ffmpeg -pix_fmt bgr0` agree; at the picture's own
/// size libswscale takes its unscaled converters and no filter applies.
final class FrameConverter {
    private var context: OpaquePointer?
    private var key: Key?

    private struct Key: Equatable {
        var width: Int32, height: Int32, format: Int32
        var colorspace: Int32, fullRange: Bool
        var outWidth: Int32, outHeight: Int32
    }

    deinit { sws_freeContext(context) }

    /// libswscale converts pictures of this one's pixel format.
    func accepts(_ frame: AVFrame) -> Bool { sws_isSupportedInput(AVPixelFormat(frame.format)) != 0 }

    func convert(_ frame: AVFrame, into surface: PixelSurface, scaling: VideoScaling) {
        let (place, crop) = scaling.layout(
            width: Int(frame.width), height: Int(frame.height), frameWidth: surface.width, frameHeight: surface.height)
        guard !place.isEmpty, !crop.isEmpty, let descriptor = av_pix_fmt_desc_get(AVPixelFormat(frame.format))
        else { return }
        let format = AVPixelFormat(frame.format)
        let fullRange = frame.color_range == AVCOL_RANGE_JPEG
        let wanted = Key(
            width: Int32(crop.x1 - crop.x0), height: Int32(crop.y1 - crop.y0), format: frame.format,
            colorspace: Int32(bitPattern: frame.colorspace.rawValue), fullRange: fullRange,
            outWidth: Int32(place.x1 - place.x0), outHeight: Int32(place.y1 - place.y0))
        if wanted != key {
            context = sws_getCachedContext(
                context, wanted.width, wanted.height, format, wanted.outWidth, wanted.outHeight, AV_PIX_FMT_BGRA,
                SWS_BICUBIC, nil, nil, nil)
            guard let context else {
                key = nil
                return
            }
            // The matrix and range of the picture in, full-range RGB out (brightness 0, contrast
            // and saturation 1 in 16.16).
            _ = sws_setColorspaceDetails(
                context, sws_getCoefficients(wanted.colorspace), fullRange ? 1 : 0, sws_getCoefficients(SWS_CS_DEFAULT),
                1, 0, 1 << 16, 1 << 16)
            key = wanted
        }
        // The crop's top-left in each plane: chroma planes are subsampled (4:2:0 halves both
        // axes; the layout keeps crop offsets even for that). Four pointers and strides on the
        // stack: a picture converted allocates nothing of Swell's.
        let descriptorValue = descriptor.pointee
        withUnsafeTemporaryAllocation(of: UnsafePointer<UInt8>?.self, capacity: 4) { sources in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: 4) { strides in
                withUnsafeBytes(of: frame.data) { data in
                    withUnsafeBytes(of: frame.linesize) { sizes in
                        let planes = data.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)
                        let lineSizes = sizes.bindMemory(to: Int32.self)
                        for plane in 0..<4 {
                            strides[plane] = lineSizes[plane]
                            sources[plane] = planes[plane].map { base in
                                let chroma = plane == 1 || plane == 2
                                let x = chroma ? crop.x0 >> Int(descriptorValue.log2_chroma_w) : crop.x0
                                let y = chroma ? crop.y0 >> Int(descriptorValue.log2_chroma_h) : crop.y0
                                let step = max(1, Int(descriptorValue.comp.0.step))
                                return UnsafePointer(base + y * Int(lineSizes[plane]) + x * step)
                            }
                        }
                    }
                }
                convert(sources.baseAddress!, strides.baseAddress!, rows: wanted.height, into: surface, at: place)
            }
        }
    }

    /// libswscale's call: `rows` rows of the planes into the surface's pixels at `place`.
    private func convert(
        _ sources: UnsafePointer<UnsafePointer<UInt8>?>, _ strides: UnsafePointer<Int32>, rows: Int32,
        into surface: PixelSurface, at place: ClipRect
    ) {
        // libswscale reads four planes' pointers and strides even for one packed plane.
        var targets:
            (
                UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?,
                UnsafeMutablePointer<UInt8>?
            ) = (
                surface.base.assumingMemoryBound(to: UInt8.self) + place.y0 * surface.stride + place.x0 * 4, nil, nil,
                nil
            )
        var targetStrides: (Int32, Int32, Int32, Int32) = (Int32(surface.stride), 0, 0, 0)
        withUnsafePointer(to: &targets) { targetsPointer in
            withUnsafePointer(to: &targetStrides) { stridesPointer in
                let planes = UnsafeRawPointer(targetsPointer).assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self)
                let pitches = UnsafeRawPointer(stridesPointer).assumingMemoryBound(to: Int32.self)
                _ = sws_scale(context, sources, strides, 0, rows, planes, pitches)
            }
        }
    }
}
