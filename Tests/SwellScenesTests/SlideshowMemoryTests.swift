import Glibc
import SwellRaster
import SwellScenes
import Testing

/// The slideshow decodes a picture only when it is about to be shown, holds at most three
/// scaled frames whatever the folder holds, and skips a picture that fails to decode.
@Suite struct SlideshowMemoryTests {
    /// Pictures of one colour each (picture i is `colour(i)`), whose decoder records every call
    /// (it also runs on the slideshow's background queue, hence the lock) and fails for `broken`.
    final class CountingPictures: @unchecked Sendable {
        // On the heap: a pthread mutex must not move, which a Swift property passed inout may.
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private var calls: [Int] = []
        private var names: [String]
        /// How often each picture was replaced in place (0: never), and those whose latest
        /// version does not decode.
        private var versions: [Int: Int] = [:]
        private var brokenReplacements: Set<Int> = []
        let broken: Set<Int>

        /// Pictures 0..<count, listed as `listed` (default: all of them) and relisted as they are
        /// then, if `changing`.
        init(count: Int, broken: Set<Int> = [], listed: [Int]? = nil) {
            self.broken = broken
            names = (listed ?? Array(0..<count)).map { SceneImages.positionName($0) }
            pthread_mutex_init(mutex, nil)
        }

        deinit {
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
        }

        /// Picture `index`'s colour, as first listed or after `version` replacements.
        static func colour(_ index: Int, version: Int = 0) -> UInt32 {
            0xFF00_0000 | UInt32(index * 20 + 10) << 16 | UInt32(0x40 + version)
        }

        private func locked<T>(_ body: () -> T) -> T {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return body()
        }

        var decoded: [Int] { locked { calls } }

        /// What the folder holds from now on.
        func list(_ pictures: [Int]) { locked { names = pictures.map { SceneImages.positionName($0) } } }

        /// Replaces picture `index` in place: the same name, a new version, of a new colour
        /// (or that does not decode).
        func replace(_ index: Int, broken: Bool = false) {
            locked {
                versions[index, default: 0] += 1
                if broken { brokenReplacements.insert(index) } else { brokenReplacements.remove(index) }
            }
        }

        struct Broken: Error {}

        func images(changing: Bool = false) -> SceneImages {
            SceneImages(
                names: locked { names },
                decode: { name, _ in
                    let index = Int(name)!
                    let (version, brokenNow) = self.locked {
                        self.calls.append(index)
                        return (self.versions[index, default: 0], self.brokenReplacements.contains(index))
                    }
                    if self.broken.contains(index) || brokenNow { throw Broken() }
                    let picture = PixelBuffer(width: 40, height: 30)
                    for y in 0..<30 {
                        for x in 0..<40 { picture.surface.row(y)[x] = Self.colour(index, version: version) }
                    }
                    return picture
                },
                relist: changing ? { self.locked { self.names } } : nil,
                version: { name in
                    let version = self.locked { self.versions[Int(name)!, default: 0] }
                    return PictureVersion(modified: Int64(version), size: 0, identity: 0)
                })
        }
    }

    static let size = FrameSize(width: 64, height: 48)

    func slideshow(
        _ pictures: CountingPictures, interval: Double = 1, transition: Double = 0.5, changing: Bool = false
    ) -> SlideshowScene {
        var settings = SlideshowScene.descriptor.defaultSettings()
        settings.set("interval", .number(interval))
        settings.set("transition", .number(transition))
        return SlideshowScene(settings, images: pictures.images(changing: changing))
    }

    /// The colours of the picture shown and the one being revealed (nil: none) in a frame's ops.
    func shown(_ scene: inout SlideshowScene, at time: Double) -> (base: UInt32?, revealed: UInt32?) {
        var ops: [FrameCommand] = []
        scene.render(at: time, size: Self.size, into: &ops)
        var base: UInt32?
        var revealed: UInt32?
        for op in ops {
            if case .image(let frame, _, _) = op {
                #expect(frame.width == Self.size.width && frame.height == Self.size.height)
                base = frame.surface.row(20)[30]
            }
            if case .maskedImage(let frame, _, _) = op { revealed = frame.surface.row(20)[30] }
        }
        return (base, revealed)
    }

    @Test func picturesAreDecodedOnceEachWhenNeededAndAtMostThreeAreHeld() {
        let pictures = CountingPictures(count: 12)
        var scene = slideshow(pictures)
        #expect(pictures.decoded.isEmpty, "decoded before anything was shown")
        #expect(scene.heldFrames == 0)
        // A change every second (revealed over half a second), through the folder and round again.
        for step in 0..<260 {
            let time = Double(step) * 0.05
            let frame = shown(&scene, at: time)
            let change = Int(time.rounded(.down))
            let revealing = time - Double(change) < 0.5 && change > 0
            let base = (revealing ? change - 1 : change) % 12
            #expect(frame.base == CountingPictures.colour(base), "t = \(time)")
            #expect(frame.revealed == (revealing ? CountingPictures.colour(change % 12) : nil), "t = \(time)")
            #expect(scene.heldFrames <= 3, "t = \(time): \(scene.heldFrames) frames held")
        }
        // Every picture once in the first round (the one ahead is prefetched, never thrown away),
        // then picture 0 again for the second round (shown from 12 s, so decoded by then); the
        // background queue may have started on picture 1 as well.
        let decoded = pictures.decoded
        #expect(Array(decoded.prefix(13)) == Array(0..<12) + [0])
        #expect(decoded.count <= 14)
    }

    @Test func aPictureThatFailsToDecodeIsSkippedAndTriedOnceATurn() {
        let pictures = CountingPictures(count: 4, broken: [1])
        var scene = slideshow(pictures)
        #expect(shown(&scene, at: 0.5) == (CountingPictures.colour(0), nil))
        // The change at 1 s reveals picture 2 instead of the broken 1.
        #expect(shown(&scene, at: 1.25) == (CountingPictures.colour(0), CountingPictures.colour(2)))
        #expect(shown(&scene, at: 1.75) == (CountingPictures.colour(2), nil))
        #expect(shown(&scene, at: 2.75) == (CountingPictures.colour(3), nil))
        #expect(pictures.decoded.filter { $0 == 1 }.count == 1, "tried once in the first turn")
        #expect(shown(&scene, at: 3.75) == (CountingPictures.colour(0), nil))
        #expect(shown(&scene, at: 4.25) == (CountingPictures.colour(0), CountingPictures.colour(2)))
        #expect(pictures.decoded.filter { $0 == 1 }.count == 2, "tried again in the second turn")
    }

    /// The decoder ahead passes over a broken next picture to the one after it, so the change
    /// reveals that one without waiting for a decode.
    @Test func aBrokenNextPictureIsPassedOverAheadOfTheChange() {
        let pictures = CountingPictures(count: 4, broken: [1])
        var scene = slideshow(pictures)
        #expect(shown(&scene, at: 0.5) == (CountingPictures.colour(0), nil))
        #expect(scene.heldFrames == 2, "the picture shown and the one after the broken one")
        #expect(pictures.decoded == [0, 1, 2])
        #expect(shown(&scene, at: 1.25) == (CountingPictures.colour(0), CountingPictures.colour(2)))
        #expect(pictures.decoded.filter { $0 == 2 }.count == 1, "not decoded again at the change")
        #expect(pictures.decoded.filter { $0 == 1 }.count == 1)
    }

    @Test func withNoPictureThatDecodesTheBackgroundShows() {
        let pictures = CountingPictures(count: 3, broken: [0, 1, 2])
        var scene = slideshow(pictures)
        for time in [0.0, 0.7, 1.2, 2.9, 5.1] {
            #expect(shown(&scene, at: time) == (nil, nil), "t = \(time)")
        }
        #expect(pictures.decoded.sorted() == [0, 1, 2])
    }

    @Test func aNewFrameSizeScalesThePicturesAgain() {
        let pictures = CountingPictures(count: 2)
        var scene = slideshow(pictures, interval: 0)
        _ = shown(&scene, at: 0)
        var ops: [FrameCommand] = []
        scene.render(at: 0.1, size: FrameSize(width: 32, height: 20), into: &ops)
        guard case .image(let frame, _, _) = ops.first else {
            Issue.record("no picture at the new size")
            return
        }
        #expect(frame.width == 32 && frame.height == 20 && frame.surface.row(10)[16] == CountingPictures.colour(0))
        #expect(scene.heldFrames <= 2)
    }

    /// The folder is listed again at each change: a picture added after the one shown comes
    /// next, a removed one is passed over, and removing the picture on screen moves on to the
    /// next name.
    @Test func picturesAddedToOrRemovedFromTheFolderAreShownOrPassedOver() {
        let pictures = CountingPictures(count: 10, listed: [0, 1, 2])
        var scene = slideshow(pictures, changing: true)
        #expect(shown(&scene, at: 0.5) == (CountingPictures.colour(0), nil))
        pictures.list([0, 1, 5, 6])
        let expected: [(Double, Int)] = [(1.7, 1), (2.7, 5), (3.7, 6), (4.7, 0)]
        for (time, picture) in expected {
            #expect(shown(&scene, at: time) == (CountingPictures.colour(picture), nil), "t = \(time)")
        }
        #expect(!pictures.decoded.contains(2), "picture 2 was removed before its turn")
        pictures.list([1, 6])  // the picture on screen (0) and 5 removed
        #expect(shown(&scene, at: 4.9) == (CountingPictures.colour(0), nil), "still on screen until the change")
        #expect(shown(&scene, at: 5.7) == (CountingPictures.colour(1), nil))
        #expect(shown(&scene, at: 6.7) == (CountingPictures.colour(6), nil))
        pictures.list([])  // an empty (or unreadable) folder: the show goes on with what it had
        #expect(shown(&scene, at: 7.7) == (CountingPictures.colour(1), nil))
    }

    /// One picture and a timer: the clock keeps running (it used to stop the scene in an endless
    /// loop at the first tick), and the picture stays on screen.
    @Test func aSinglePictureWithATimerStaysOnScreen() {
        let pictures = CountingPictures(count: 1)
        var fixed = slideshow(pictures)
        for time in [0.0, 1.0, 2.5, 10.0] {
            #expect(shown(&fixed, at: time) == (CountingPictures.colour(0), nil), "t = \(time)")
        }
        #expect(fixed.isIdle(at: 10.5) && fixed.nextWake(after: 10.5) == 11, "still, until its next tick")
        let pictures2 = CountingPictures(count: 2, listed: [0])
        var listed = slideshow(pictures2, changing: true)
        #expect(shown(&listed, at: 0) == (CountingPictures.colour(0), nil))
        #expect(listed.isIdle(at: 0.5) && listed.nextWake(after: 0.5) == 1, "asleep until the folder is listed again")
        pictures2.list([0, 1])
        #expect(!listed.isIdle(at: 1), "the tick is due")
        #expect(shown(&listed, at: 1.25) == (CountingPictures.colour(0), CountingPictures.colour(1)))
        #expect(!listed.isIdle(at: 1.3), "revealing the picture added to the folder")
    }

    /// Two pictures, both held all along (so the folder's listing alone never made them decoded
    /// again): one replaced on screen leaves with its old content and comes back with the new;
    /// one replaced off screen is revealed with its new content.
    @Test func aPictureReplacedInPlaceIsDecodedAgainAtItsNextTurn() {
        let pictures = CountingPictures(count: 2)
        var scene = slideshow(pictures)
        let old0 = CountingPictures.colour(0)
        let new0 = CountingPictures.colour(0, version: 1)
        #expect(shown(&scene, at: 0.5) == (old0, nil))
        pictures.replace(0)
        #expect(shown(&scene, at: 0.7) == (old0, nil), "nothing changes before the change")
        #expect(shown(&scene, at: 1.25) == (old0, CountingPictures.colour(1)), "the old picture leaves")
        #expect(shown(&scene, at: 1.75) == (CountingPictures.colour(1), nil))
        pictures.replace(1)
        #expect(shown(&scene, at: 2.25) == (CountingPictures.colour(1), new0))
        #expect(shown(&scene, at: 2.75) == (new0, nil))
        #expect(shown(&scene, at: 3.25) == (new0, CountingPictures.colour(1, version: 1)))
        #expect(pictures.decoded == [0, 1, 0, 1], "each decoded again once, after its replacement")
        #expect(scene.heldFrames <= 3)
    }

    /// A single picture replaced in place is revealed over its old self at the next tick; a
    /// replacement that does not decode (still being copied) leaves the old one on screen until a
    /// later tick finds it whole.
    @Test func aSingleReplacedPictureIsRevealedOverItsOldSelf() {
        let pictures = CountingPictures(count: 1)
        var scene = slideshow(pictures)
        let colour = { (version: Int) in CountingPictures.colour(0, version: version) }
        #expect(shown(&scene, at: 0.5) == (colour(0), nil))
        pictures.replace(0)
        #expect(shown(&scene, at: 1.25) == (colour(0), colour(1)))
        #expect(shown(&scene, at: 1.75) == (colour(1), nil))
        #expect(shown(&scene, at: 2.25) == (colour(1), nil), "unchanged: no reveal")
        #expect(scene.isIdle(at: 2.3))
        pictures.replace(0, broken: true)
        #expect(shown(&scene, at: 3.25) == (colour(1), nil), "a broken replacement: the old one stays")
        #expect(shown(&scene, at: 3.75) == (colour(1), nil))
        pictures.replace(0)
        #expect(shown(&scene, at: 4.25) == (colour(1), colour(3)), "whole again at the next tick")
        #expect(shown(&scene, at: 4.75) == (colour(3), nil))
        #expect(pictures.decoded == [0, 0, 0, 0], "decoded at start and at each tick after a replacement")
    }

    /// `"fit": "fit"` shows the whole picture between bars of the background colour; the default
    /// fills the screen.
    @Test func fitShowsTheWholePictureWithBackgroundBars() throws {
        let wide = PixelBuffer(width: 40, height: 20)
        for y in 0..<20 {
            for x in 0..<40 { wide.surface.row(y)[x] = 0xFF20_C040 }
        }
        func frame(_ parameters: String) throws -> PixelBuffer {
            let player = try loadSceneFile(
                bytes: Array(#"{"scene": "slideshow", "parameters": {"#.utf8) + Array(parameters.utf8)
                    + Array("}}".utf8),
                name: "fit.json"
            ) { _ in SceneImages([wide]) }
            let out = PixelBuffer(width: 64, height: 48)
            player.render(at: 0, into: out.surface)
            return out
        }
        let fitted = try frame(##""fit": "fit", "background": "#102030""##)
        #expect(fitted.surface.row(2)[30] == 0xFF10_2030 && fitted.surface.row(45)[30] == 0xFF10_2030, "bars")
        #expect(fitted.surface.row(24)[30] == 0xFF20_C040 && fitted.surface.row(24)[1] == 0xFF20_C040, "picture")
        let filled = try frame(##""fit": "fill", "background": "#102030""##)
        #expect(filled.surface.row(2)[30] == 0xFF20_C040, "no bars when filling")
        do {
            _ = try frame(#""fit": "stretch""#)
            Issue.record("accepted an unknown fit")
        } catch {
            #expect("\(error)".contains(#"$.parameters.fit: expected one of "fill", "fit", got "stretch""#), "\(error)")
        }
    }
}
