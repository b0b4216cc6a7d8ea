import CFFmpeg
import SwellRaster
import SwellSystem

/// A video file decoded by FFmpeg's libraries: libavformat demuxes it, libavcodec decodes its
/// best video stream (H.264, HEVC, VP9, AV1, … whatever Debian's build decodes), and libswscale
/// converts each picture to XRGB at the size it is shown (`FrameConverter`).
///
/// Opening checks everything that can be checked before the first frame: the container opens, a
/// video stream exists, a decoder for its codec exists and opens, and the first picture decodes.
/// So a page with a bad clip is refused at load, never on screen.
///
/// Not thread-safe: `VideoPlayback` drives it from its decoding thread alone.
public final class FFmpegDecoder: VideoDecoder {
    public private(set) var info: VideoInfo
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private let stream: Int32
    /// The stream's time base: a stamp s is s · num / den seconds, computed in that order so a
    /// picture at 15/25 s starts at the Double nearest 0.6, as the scene clock's 36/60 does.
    private let timeBase: (num: Double, den: Double)
    /// The stream's first time stamp: pictures are timed from it (a stream may start late).
    private let startStamp: Int64
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private let converter = FrameConverter()
    /// The end of the picture returned last, for a picture without a time stamp.
    private var lastEnd = 0.0
    /// The demuxer has no more packets, and the decoder was told (drained).
    private var draining = false
    /// Where the file came from, for messages.
    private let name: String
    /// Memory the fuzzing harness decodes from (nil for a file).
    private var memoryInput: MemoryInput?
    /// Reports a picture skipped while playing (a corrupt packet); one line each.
    public var report: (String) -> Void = { _ in }

    /// Opens the file at `path`. Throws `VideoError` naming what was found and what is supported.
    public convenience init(path: String) throws(VideoError) {
        try self.init(name: path, memory: nil)
    }

    /// Decodes a file held in memory (the fuzzing harness's inputs).
    public convenience init(bytes: [UInt8], name: String = "memory") throws(VideoError) {
        try self.init(name: name, memory: MemoryInput(bytes))
    }

    private init(name: String, memory: MemoryInput?) throws(VideoError) {
        _ = Self.quietLibraries
        self.name = name
        memoryInput = memory
        format = avformat_alloc_context()
        guard format != nil else { throw VideoError(.decoding, "out of memory") }
        if let memory {
            guard let io = memory.makeContext() else { throw VideoError(.decoding, "out of memory") }
            format!.pointee.pb = io
        }
        // On failure avformat_open_input frees the context and sets it to nil.
        let opened = avformat_open_input(&format, memory == nil ? name : nil, nil, nil)
        guard opened == 0 else {
            memoryInput?.free()
            throw Self.openError(opened, name: name)
        }
        let context = format!
        var failure: VideoError?
        if avformat_find_stream_info(context, nil) < 0 {
            failure = VideoError(.unsupported, "FFmpeg cannot read the streams of this file; \(Self.supported)")
        }
        var decoder: UnsafePointer<AVCodec>?
        let best = failure == nil ? av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0) : -1
        let container = String(cString: context.pointee.iformat.pointee.name)
        if failure == nil && best == swell_averror_stream_not_found() {
            failure = VideoError(.noVideo, "the file (\(container)) holds no video stream; \(Self.supported)")
        } else if failure == nil && best < 0 {
            let codecName = Self.firstVideoCodecName(context) ?? "unknown"
            failure = VideoError(
                .unsupported, "this FFmpeg has no decoder for codec '\(codecName)' in \(container); \(Self.supported)")
        }
        stream = best
        guard failure == nil, let decoder else {
            Self.close(format: &format, memory: memoryInput)
            throw failure ?? VideoError(.unsupported, "no decoder; \(Self.supported)")
        }
        let avStream = context.pointee.streams[Int(best)]!
        timeBase = (Double(avStream.pointee.time_base.num), Double(avStream.pointee.time_base.den))
        startStamp = avStream.pointee.start_time == swell_av_nopts_value() ? 0 : avStream.pointee.start_time
        let codecName = String(cString: decoder.pointee.name)
        codec = avcodec_alloc_context3(decoder)
        packet = av_packet_alloc()
        frame = av_frame_alloc()
        info = VideoInfo(
            width: Int(avStream.pointee.codecpar.pointee.width), height: Int(avStream.pointee.codecpar.pointee.height),
            duration: 0, frameRate: Self.rate(avStream.pointee), codec: codecName, container: container)
        guard let codec, packet != nil, frame != nil else { throw closing(VideoError(.decoding, "out of memory")) }
        guard avcodec_parameters_to_context(codec, avStream.pointee.codecpar) >= 0 else {
            throw closing(
                VideoError(.unsupported, "FFmpeg cannot set up its '\(codecName)' decoder; \(Self.supported)"))
        }
        // FFmpeg's threads on every core but one, which the render thread keeps: on a 4-core Pi a
        // 1080p stream needs frame threads to keep up; on 2 cores they outnumbered the cores with
        // the render thread and made it wait for pictures now and then (a 22 ms frame in 120 of
        // examples/video.json, none with one decoding thread). The pictures are the same for any
        // thread count. av_cpu_count honours the process's CPU affinity (taskset).
        codec.pointee.thread_count = Int32(max(1, av_cpu_count() - 1))
        let status = avcodec_open2(codec, decoder, nil)
        guard status >= 0 else {
            throw closing(
                VideoError(.unsupported, "FFmpeg's '\(codecName)' decoder does not open: \(Self.message(status))"))
        }
        // The first picture must decode: a file whose packets are all broken is refused now.
        let first: VideoTiming?
        do {
            first = try advance()
        } catch {
            throw closing(error)
        }
        guard let first else {
            throw closing(VideoError(.decoding, "no picture of the '\(codecName)' stream decodes"))
        }
        info.width = Int(frame!.pointee.width)
        info.height = Int(frame!.pointee.height)
        guard info.width > 0, info.height > 0, converter.accepts(frame!.pointee) else {
            let pixels = av_get_pix_fmt_name(AVPixelFormat(frame!.pointee.format)).map { String(cString: $0) } ?? "?"
            throw closing(
                VideoError(
                    .unsupported, "pictures of format '\(pixels)' cannot be converted to XRGB; \(Self.supported)"))
        }
        info.duration = streamDuration(avStream.pointee, firstStart: first.start)
        do {
            try seek(to: 0)
        } catch {
            throw closing(error)
        }
    }

    deinit {
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&codec)
        Self.close(format: &format, memory: memoryInput)
    }

    /// Frees what was opened and returns `error`, for a failed `init` (deinit does not run then).
    private func closing(_ error: VideoError) -> VideoError {
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&codec)
        Self.close(format: &format, memory: memoryInput)
        memoryInput = nil
        return error
    }

    private static func close(format: inout UnsafeMutablePointer<AVFormatContext>?, memory: MemoryInput?) {
        avformat_close_input(&format)
        memory?.free()
    }

    /// FFmpeg's libraries print their own notes and errors on standard error; a kiosk's journal
    /// gets Swell's one line per skipped picture instead (`report`).
    private static let quietLibraries: Void = av_log_set_level(AV_LOG_QUIET)

    /// What the build plays, for messages.
    public static var supported: String {
        let names: [String] = ["h264", "hevc", "vp9", "av1"]
        let codecs = names.filter { avcodec_find_decoder_by_name($0) != nil }
        return "supported: MP4, MKV or WebM files with a video stream in "
            + codecs.joined(separator: ", ") + " (the codecs this FFmpeg decodes)"
    }

    public func advance() throws(VideoError) -> VideoTiming? {
        guard let codec, let packet, let frame else { return nil }
        while true {
            let received = avcodec_receive_frame(codec, frame)
            if received == 0 { return timing(of: frame.pointee) }
            if received == swell_averror_eof() { return nil }
            if received != swell_averror_again() {
                // A picture that did not decode: reported, and the stream goes on.
                report(
                    "\(name): a picture of the '\(info.codec)' stream does not decode (\(Self.message(received))); skipped"
                )
                continue
            }
            if draining { return nil }
            let read = av_read_frame(format, packet)
            if read < 0 {
                // The end of the file (or a read error, which ends it the same way): drain the
                // pictures the decoder still holds.
                draining = true
                _ = avcodec_send_packet(codec, nil)
                continue
            }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == stream else { continue }
            let sent = avcodec_send_packet(codec, packet)
            if sent < 0 && sent != swell_averror_again() {
                report(
                    "\(name): a packet of the '\(info.codec)' stream does not decode (\(Self.message(sent))); skipped")
            }
        }
    }

    public func seek(to seconds: Double) throws(VideoError) {
        guard let codec else { return }
        let stamp = startStamp + Int64((max(0, seconds) * timeBase.den / timeBase.num).rounded(.down))
        // BACKWARD: the key frame at or before the stamp; pictures before the time are skipped
        // by the caller, so the picture shown is exactly the one whose interval holds it.
        var status = av_seek_frame(format, stream, stamp, AVSEEK_FLAG_BACKWARD)
        if status < 0 {
            // Some streams (raw, or without an index) only seek by bytes: back to the start.
            status = avformat_seek_file(format, stream, Int64.min, startStamp, startStamp, 0)
        }
        guard status >= 0 else {
            throw VideoError(.decoding, "\(name): cannot seek to \(seconds) s: \(Self.message(status))")
        }
        avcodec_flush_buffers(codec)
        draining = false
        lastEnd = 0
    }

    public func render(into surface: PixelSurface, scaling: VideoScaling) {
        guard let frame else { return }
        converter.convert(frame.pointee, into: surface, scaling: scaling)
    }

    /// When `frame` is shown, in seconds from the stream's start: its own time stamp (the
    /// decoder's best guess where the packet had none), until its duration has passed.
    private func timing(of frame: AVFrame) -> VideoTiming {
        let stamp = frame.best_effort_timestamp
        guard stamp != swell_av_nopts_value() else {
            let length = info.frameRate > 0 ? 1 / info.frameRate : 1.0 / 25
            defer { lastEnd += length }
            return VideoTiming(start: lastEnd, end: lastEnd + length)
        }
        // The end from the stamps added up, not from seconds added: 14/25 + 1/25 in Doubles is
        // a hair past 15/25, which would show picture 14 at the refresh where 15 starts.
        let length =
            frame.pkt_duration > 0
            ? frame.pkt_duration : Int64((timeBase.den / timeBase.num / max(1, info.frameRate)).rounded())
        let timing = VideoTiming(start: seconds(stamp - startStamp), end: seconds(stamp - startStamp + max(1, length)))
        lastEnd = timing.end
        return timing
    }

    /// One play-through's length: the stream's own duration when it states one, else the
    /// container's; failing both, the end of the last picture (found by reading every packet's
    /// time stamp, without decoding).
    private func streamDuration(_ stream: AVStream, firstStart: Double) -> Double {
        if stream.duration > 0 && stream.duration != swell_av_nopts_value() {
            return seconds(stream.duration)
        }
        if let format, format.pointee.duration > 0 {
            return Double(format.pointee.duration) / Double(AV_TIME_BASE)
        }
        var end = firstStart + 1 / max(1, info.frameRate)
        guard let packet else { return end }
        while av_read_frame(format, packet) >= 0 {
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == self.stream, packet.pointee.pts != swell_av_nopts_value() else {
                continue
            }
            let start = seconds(packet.pointee.pts - startStamp)
            end = max(end, start + seconds(max(packet.pointee.duration, 0)))
        }
        return end
    }

    private func seconds(_ stamp: Int64) -> Double { Double(stamp) * timeBase.num / timeBase.den }

    private static func rate(_ stream: AVStream) -> Double {
        let average = av_q2d(stream.avg_frame_rate)
        if average.isFinite && average > 0 { return average }
        let real = av_q2d(stream.r_frame_rate)
        return real.isFinite && real > 0 ? real : 0
    }

    private static func firstVideoCodecName(_ context: UnsafeMutablePointer<AVFormatContext>) -> String? {
        for index in 0..<Int(context.pointee.nb_streams) {
            let parameters = context.pointee.streams[index]!.pointee.codecpar!
            guard parameters.pointee.codec_type == AVMEDIA_TYPE_VIDEO else { continue }
            return String(cString: avcodec_get_name(parameters.pointee.codec_id))
        }
        return nil
    }

    private static func openError(_ status: Int32, name: String) -> VideoError {
        let unreadable: [Errno] = [.noEntry, .accessDenied, .isDirectory]
        if unreadable.contains(where: { -$0.rawValue == status }) {
            return VideoError(.unreadable, "cannot read the file: \(message(status))")
        }
        return VideoError(.unsupported, "FFmpeg cannot open this file (\(message(status))); \(supported)")
    }

    /// FFmpeg's words for an error code.
    static func message(_ status: Int32) -> String {
        var text = [CChar](repeating: 0, count: 128)
        _ = av_strerror(status, &text, text.count)
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
