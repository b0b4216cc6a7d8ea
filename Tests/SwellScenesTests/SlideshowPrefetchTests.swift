import Glibc
import SwellRaster
import SwellScenes
import Testing

/// The slideshow's next picture is decoded and scaled ahead on the picture loader's thread: the
/// frames are the same bytes as when every picture is decoded when needed, and a change that
/// the loader had time for decodes nothing on the render thread.
@Suite struct SlideshowPrefetchTests {
    /// Pictures with a pattern of their own (larger than the frame, so scaling averages), whose
    /// decoder counts the calls made on the thread that created it (the test's, which renders)
    /// and on any other.
    final class ThreadCountingPictures: @unchecked Sendable {
        // On the heap: a pthread mutex must not move.
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let renderThread = pthread_self()
        private var onRenderThread = 0
        private var elsewhere = 0
        let count: Int

        init(count: Int) {
            self.count = count
            pthread_mutex_init(mutex, nil)
        }

        deinit {
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
        }

        private func locked<T>(_ body: () -> T) -> T {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return body()
        }

        /// Decodes so far: (on the render thread, on other threads).
        var decodes: (render: Int, other: Int) { locked { (onRenderThread, elsewhere) } }

        /// Picture `index`: 150x100, every pixel different.
        static func picture(_ index: Int) -> PixelBuffer {
            let picture = PixelBuffer(width: 150, height: 100)
            for y in 0..<100 {
                for x in 0..<150 {
                    let r = UInt32((x * 7 + index * 50) & 0xFF)
                    let g = UInt32((y * 5 + x * 3) & 0xFF)
                    let b = UInt32((index * 90 + y * 11) & 0xFF)
                    picture.surface.row(y)[x] = 0xFF00_0000 | r << 16 | g << 8 | b
                }
            }
            return picture
        }

        func images() -> SceneImages {
            SceneImages(names: (0..<count).map { SceneImages.positionName($0) }) { name, _ in
                let here = pthread_equal(pthread_self(), self.renderThread) != 0
                self.locked {
                    if here { self.onRenderThread += 1 } else { self.elsewhere += 1 }
                }
                return Self.picture(Int(name)!)
            }
        }
    }

    static let size = FrameSize(width: 64, height: 48)

    func slideshow(_ pictures: ThreadCountingPictures, prefetches: Bool = true) -> SlideshowScene {
        var settings = SlideshowScene.descriptor.defaultSettings()
        settings.set("interval", .number(1))
        settings.set("transition", .number(0.5))
        return SlideshowScene(settings, images: pictures.images(), prefetches: prefetches)
    }

    /// The frame drawn at `time`, as bytes (the ops rendered over the scene's background).
    func frameBytes(_ scene: inout SlideshowScene, at time: Double) -> [UInt8] {
        var ops: [FrameCommand] = []
        scene.render(at: time, size: Self.size, into: &ops)
        let out = PixelBuffer(width: Self.size.width, height: Self.size.height)
        render(
            DisplayList(width: out.width, height: out.height, background: scene.background, commands: ops),
            into: out.surface)
        return out.packedBytes()
    }

    /// The picture being revealed at `time` (nil: none).
    func revealed(_ scene: inout SlideshowScene, at time: Double) -> PixelBuffer? {
        var ops: [FrameCommand] = []
        scene.render(at: time, size: Self.size, into: &ops)
        for op in ops { if case .maskedImage(let frame, _, _) = op { return frame } }
        return nil
    }

    @Test func thePrefetchedPictureIsTheSameBytesAsOneDecodedWhenNeeded() {
        let pictures = ThreadCountingPictures(count: 3)
        var scene = slideshow(pictures)
        _ = frameBytes(&scene, at: 0)
        scene.finishBackgroundWork()
        #expect(pictures.decodes == (1, 1), "the first picture here, the next on the loader")
        guard let ahead = revealed(&scene, at: 1.1) else {
            Issue.record("nothing revealed at the change")
            return
        }
        let now = PixelBuffer(width: Self.size.width, height: Self.size.height)
        scaleImageToFill(ThreadCountingPictures.picture(1).surface, into: now.surface)
        let same = ahead.packedBytes() == now.packedBytes()
        #expect(same, "picture 1 decoded ahead differs from one decoded now")
    }

    /// Four changes, with the loader waited for between frames, not waited for, and off: the
    /// same bytes at every time. With four pictures the frame that leaves (picture 0's, at 1.5 s)
    /// is the spare the loader scales picture 3 into, so a pixel the scaling left unwritten
    /// would show picture 0 through.
    @Test func aSlideshowGivesTheSameFramesWithAndWithoutThePrefetch() {
        let times = stride(from: 0.0, through: 4.9, by: 0.1).map { $0 }
        func frames(prefetches: Bool, waiting: Bool) -> [[UInt8]] {
            let pictures = ThreadCountingPictures(count: 4)
            var scene = slideshow(pictures, prefetches: prefetches)
            return times.map { time in
                if waiting { scene.finishBackgroundWork() }
                return frameBytes(&scene, at: time)
            }
        }
        let reference = frames(prefetches: false, waiting: false)
        let waited = frames(prefetches: true, waiting: true)
        let joined = frames(prefetches: true, waiting: false)
        let distinct = Set(reference).count
        #expect(distinct >= 6, "the frames hardly change: the test would prove nothing")
        for (index, time) in times.enumerated() {
            let sameWaited = waited[index] == reference[index]
            let sameJoined = joined[index] == reference[index]
            #expect(sameWaited, "t = \(time): prefetched (waited for) differs")
            #expect(sameJoined, "t = \(time): prefetched (joined) differs")
        }
    }

    /// With time to run before each change (a kiosk's seconds; here, waited for), the loader has
    /// the next picture ready and the render thread decodes none but the first; without the
    /// prefetch it decodes one at every change.
    @Test func theRenderThreadDecodesNothingAtAChangeTheLoaderHadTimeFor() {
        let pictures = ThreadCountingPictures(count: 4)
        var scene = slideshow(pictures)
        for time in stride(from: 0.0, through: 5.6, by: 0.1) {
            scene.finishBackgroundWork()
            _ = frameBytes(&scene, at: time)
        }
        scene.finishBackgroundWork()
        #expect(pictures.decodes.render == 1, "decoded on the render thread: \(pictures.decodes.render)")
        #expect(pictures.decodes.other >= 5, "five changes, each picture decoded ahead")
        #expect(scene.picturesDecodedWhenNeeded == 1)

        let plain = ThreadCountingPictures(count: 4)
        var unfetched = slideshow(plain, prefetches: false)
        for time in stride(from: 0.0, through: 5.6, by: 0.1) { _ = frameBytes(&unfetched, at: time) }
        #expect(plain.decodes == (6, 0), "without the prefetch: the first and one a change")
        #expect(unfetched.picturesDecodedWhenNeeded == 6)
    }

    /// Fingers that land together change the picture once (to the one decoded ahead), not once
    /// each; a tap after they all lifted changes it again.
    @Test func fingersLandingTogetherChangeThePictureOnce() {
        let pictures = ThreadCountingPictures(count: 4)
        var settings = SlideshowScene.descriptor.defaultSettings()
        settings.set("interval", .number(0))
        settings.set("transition", .number(0.5))
        var scene = SlideshowScene(settings, images: pictures.images())
        _ = frameBytes(&scene, at: 0)
        scene.finishBackgroundWork()
        for finger in 0..<3 { scene.handle(TouchEvent(.began, finger: finger, x: 10, y: 10, time: 0.1)) }
        guard let first = revealed(&scene, at: 0.1) else {
            Issue.record("nothing revealed after the touch")
            return
        }
        let one = PixelBuffer(width: Self.size.width, height: Self.size.height)
        scaleImageToFill(ThreadCountingPictures.picture(1).surface, into: one.surface)
        let isOne = first.packedBytes() == one.packedBytes()
        #expect(isOne, "not picture 1")
        #expect(pictures.decodes.render == 1, "a picture decoded on the render thread at the touch")
        scene.handle(TouchEvent(.began, finger: 3, x: 10, y: 10, time: 0.2))  // a fourth, while three are down
        #expect(revealed(&scene, at: 0.3) === first, "a finger landing while others are down changed the picture")
        for finger in 0..<4 { scene.handle(TouchEvent(.ended, finger: finger, x: 10, y: 10, time: 0.8)) }
        scene.finishBackgroundWork()
        scene.handle(TouchEvent(.began, finger: 0, x: 10, y: 10, time: 1.0))
        let two = PixelBuffer(width: Self.size.width, height: Self.size.height)
        scaleImageToFill(ThreadCountingPictures.picture(2).surface, into: two.surface)
        let isTwo = revealed(&scene, at: 1.1)?.packedBytes() == two.packedBytes()
        #expect(isTwo, "the next tap does not reveal picture 2")
        #expect(pictures.decodes.render == 1)
    }
}
