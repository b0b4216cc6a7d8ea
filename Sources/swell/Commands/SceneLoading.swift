import SwellOutput
import SwellRaster
import SwellScenes
import SwellSystem
import SwellVideo

#if canImport(Glibc)
    import Glibc
#endif

/// Makes the player for a `SCENE|FILE` argument: a built-in scene name (all defaults) or a
/// scene file. Exit statuses: 66 unreadable file or image folder, 65 invalid scene file (a video
/// that does not play among them). `videoPacing` says whether video elements wait for each
/// picture (`.exact`: dumps and benchmarks) or drop the late ones (`.live`: a kiosk).
///
/// Every file a scene file reaches must lie in `contentFolder` (a kiosk's "contentFolder", `swell
/// run --content-folder`), the scene file too; without one, in the scene file's own folder
/// (`ContentRoot`). A built-in scene's name has none.
func loadScenePlayer(
    _ argument: String, threads: Int = 1, videoPacing: VideoPacing = .exact, contentFolder: String? = nil
) throws -> ScenePlayer {
    if let scene = builtInScene(named: argument) {
        var images = SceneImages.none
        if scene.parameters.contains(where: { $0.name == "folder" }) {
            let folder = scene.defaultSettings().text("folder")
            do {
                images = try loadImageFolder(folder)
            } catch {
                throw CommandFailure(
                    ExitStatus.noInput,
                    "\(argument): \(error); write a scene file with \"parameters\": {\"folder\": \"…\"} (see examples/)"
                )
            }
        }
        var media = SceneMedia(images: images)
        if scene.name == VideoScene.descriptor.name {
            let settings = scene.defaultSettings()
            do {
                media.video = try loadVideo(
                    SceneVideo.Request(file: settings.text("file"), loops: true, fills: false, background: .black),
                    pacing: videoPacing)
            } catch {
                throw CommandFailure(
                    ExitStatus.noInput,
                    "\(argument): \(settings.text("file")): \(error); write a scene file with \"parameters\": {\"file\": \"…\"} (see examples/)"
                )
            }
        }
        return ScenePlayer(layers: [scene.make(scene.defaultSettings(), media)], threads: threads)
    }
    guard argument.hasSuffix(".json") || argument.contains("/") else {
        throw CommandFailure(
            ExitStatus.usage,
            "'\(argument)' is neither a built-in scene (\(builtInScenes.map(\.name).joined(separator: ", "))) nor a .json scene file"
        )
    }
    // A content folder given must hold the scene file before it is read.
    let given = try contentFolder.map { try sceneContentFolder(argument, given: $0) }
    let bytes: [UInt8]
    do {
        bytes = try readWholeFile(argument)
    } catch {
        throw CommandFailure(ExitStatus.noInput, "\(argument): cannot read: \(error)")
    }
    let content = try given ?? sceneContentFolder(argument, given: nil)
    if isPlaylistDocument(bytes) {
        do {
            return try loadPlaylist(
                bytes: bytes, name: argument, threads: threads,
                loaders: playlistLoaders(videoPacing: videoPacing, content: content))
        } catch {
            throw CommandFailure(ExitStatus.dataError, error.description)
        }
    }
    do {
        // Every page its buttons can reach is loaded and checked now (`loadPageGraph`).
        return try loadPageGraph(
            bytes: bytes, name: argument, threads: threads, content: content,
            read: { try readContentFile($0, in: content) },
            loadVideo: { try loadVideo($0, pacing: videoPacing) },
            loadImages: { page, folder in
                let base = page.lastIndex(of: "/").map { String(page[...$0]) } ?? ""
                return try loadImageFolder(folder.hasPrefix("/") ? folder : base + folder, within: content)
            })
    } catch {
        throw CommandFailure(ExitStatus.dataError, error.description)
    }
}

/// What a playlist loads its items with (`loadPlaylist`): the files a page names, as `swell run`
/// loads a page; a picture item's file checked now (its header) and decoded, reduced as far as it
/// still covers the screen, when its turn is prepared. Called on the playlist's preparing thread.
/// `content`: the folder every file must lie in (nil: anywhere).
func playlistLoaders(videoPacing: VideoPacing, content: ContentRoot? = nil) -> PlaylistLoaders {
    var loaders = PlaylistLoaders(
        read: { try readContentFile($0, in: content) },
        loadVideo: { try loadVideo($0, pacing: videoPacing) },
        loadImages: { page, folder in
            let base = page.lastIndex(of: "/").map { String(page[...$0]) } ?? ""
            return try loadImageFolder(folder.hasPrefix("/") ? folder : base + folder, within: content)
        },
        loadPicture: { path in
            _ = try readPictureSize(path: path)
            return SceneImages(names: [path]) { name, size in
                try readPicture(path: name, covering: (size.width, size.height))
            }
        },
        journal: { printError("swell: \($0)") })
    loaders.content = content
    return loaders
}

/// The folder every file the scene file `scene` reaches must lie in: `given` (which must hold the
/// scene file itself), else the scene file's folder. Exit 66 when it cannot be found, 65 for a
/// scene file outside it.
func sceneContentFolder(_ scene: String, given: String?) throws -> ContentRoot {
    let folder = given ?? (scene.lastIndex(of: "/").map { String(scene[...$0]) } ?? ".")
    guard let path = canonicalPath(folder), isDirectory(atPath: path) else {
        throw CommandFailure(ExitStatus.noInput, "content folder \(folder): no such folder")
    }
    let content = ContentRoot(path: path, locate: { resolvedLocation($0) })
    if given != nil, !content.holds(scene) {
        throw CommandFailure(
            ExitStatus.dataError,
            "\(scene) is outside the content folder \(path); show a scene file inside it, or name a content folder "
                + "that holds it")
    }
    return content
}

/// A file that lay in the content folder when its scene was loaded and no longer does.
struct OutsideContentFolder: Error, CustomStringConvertible {
    let description: String
}

/// A file a scene shows, read only when it lies in `content` (a page or text file that became a
/// link to elsewhere since it was checked).
func readContentFile(_ path: String, in content: ContentRoot?) throws -> [UInt8] {
    if let content, !content.holds(path) {
        throw OutsideContentFolder(description: "\(path) lies outside the content folder \(content.path)")
    }
    return try readWholeFile(path)
}

/// How a video element's pictures meet the scene clock.
enum VideoPacing {
    /// Each picture is waited for: the same time gives the same bytes (dump, bench, tests).
    case exact
    /// A picture not decoded in time is not waited for; it is dropped when its time has passed.
    case live
}

/// The video elements this process opened, for their counts at the end of a run or bench. Weak:
/// a scene file reloaded while running lets its old players, their threads and buffers go.
/// Guarded by `openedVideosLock`: a playlist opens its videos on its preparing thread.
nonisolated(unsafe) var openedVideos: [OpenedVideo] = []
let openedVideosLock = Lock()

final class OpenedVideo {
    let file: String
    weak var playback: VideoPlayback?

    init(file: String, playback: VideoPlayback) {
        self.file = file
        self.playback = playback
    }
}

/// Opens a video element's file with FFmpeg and starts decoding it ahead on a thread of its own.
/// Throws what is wrong with the file (`VideoError`: what was found and what is supported).
func loadVideo(_ request: SceneVideo.Request, pacing: VideoPacing) throws -> SceneVideo {
    let decoder = try FFmpegDecoder(path: request.file)
    decoder.report = { printError("swell: \($0)") }
    let playback = try VideoPlayback(
        decoder: decoder, loops: request.loops, scaling: VideoScaling(request.fills ? .fill : .fit),
        background: request.background.opaquePixel, waitsForFrames: pacing == .exact,
        report: { printError("swell: \(request.file): \($0)") })
    openedVideosLock.withLock {
        openedVideos.removeAll { $0.playback == nil }
        openedVideos.append(OpenedVideo(file: request.file, playback: playback))
    }
    return SceneVideo { time, size in
        playback.frame(at: time, width: size.width, height: size.height).map { ($0.buffer, $0.end) }
    }
}

/// One line per video element opened: what a picture cost its decoding thread (CPU time), for
/// the end of a benchmark.
func videoCosts() -> [String] {
    openedVideosLock.withLock { openedVideos }.compactMap { opened in
        guard let playback = opened.playback else { return nil }
        let file = opened.file
        let cost = playback.decodingCost
        guard cost.decoded > 0, cost.converted > 0 else { return nil }
        let name = file.split(separator: "/").last.map(String.init) ?? file
        let decode = cost.decodeSeconds * 1000 / Double(cost.decoded)
        let convert = cost.convertSeconds * 1000 / Double(cost.converted)
        return "video \(name): \(cost.decoded) pictures decoded, \(cost.converted) converted; its thread's CPU a "
            + "picture: decode \(formatMilliseconds(decode)) ms, convert and scale \(formatMilliseconds(convert)) ms"
    }
}

/// One line per video element opened: pictures shown and dropped (late), for the end of a run.
func videoSummary() -> [String] {
    openedVideosLock.withLock { openedVideos }.compactMap { opened in
        let file = opened.file
        guard let playback = opened.playback, playback.shownCount > 0 else { return nil }
        let name = file.split(separator: "/").last.map(String.init) ?? file
        return "video \(name): \(playback.shownCount) pictures shown, \(playback.dropped) dropped (late)"
    }
}

struct ImageFolderError: Error, CustomStringConvertible {
    let description: String
}

/// Every picture (*.png, *.jpg, *.jpeg) in `folder`, in name order. Each file's header is checked now: one
/// that is not a PNG or JPEG, is too large or cannot be read is left out with a line on standard error
/// (`journal`), and the others play; a folder with no picture that passes is refused with the reasons. The
/// pixels are decoded only when the slideshow is about to show them. A file that fails then (truncated or
/// replaced while running) is reported on standard error and skipped; the show goes on. The
/// slideshow lists the folder again at each change, so pictures can be added, removed and
/// replaced while it runs.
///
/// With `content`, a picture that lies outside it (a link to elsewhere) is left out as well, when
/// listed and when decoded.
func loadImageFolder(
    _ folder: String, within content: ContentRoot? = nil, journal: (String) -> Void = { printError("swell: \($0)") }
) throws -> SceneImages {
    let directory = folder.hasSuffix("/") ? folder : folder + "/"
    let outside = { (name: String) in content.map { !$0.holds(directory + name) } ?? false }
    guard let listed = pictureNames(in: folder) else {
        throw ImageFolderError(description: "cannot open image folder '\(folder)': \(Errno.current.message)")
    }
    guard !listed.isEmpty else {
        throw ImageFolderError(description: "no pictures (.png, .jpg, .jpeg) in folder '\(folder)'")
    }
    var names: [String] = []
    var refused: [String] = []
    for name in listed {
        if let content, outside(name) {
            refused.append("\(directory + name): it lies outside the content folder \(content.path)")
            continue
        }
        do {
            _ = try readPictureSize(path: directory + name)
            names.append(name)
        } catch {
            refused.append(error.description)
        }
    }
    guard !names.isEmpty else {
        throw ImageFolderError(
            description: "no picture in folder '\(folder)' can be shown: " + refused.joined(separator: "; "))
    }
    for reason in refused { journal("skipping \(reason); the slideshow goes on without it") }
    return SceneImages(
        names: names,
        decode: { name, size in
            do {
                if outside(name) {
                    throw OutsideContentFolder(description: "\(directory + name): it lies outside the content folder")
                }
                return try readPicture(path: directory + name, covering: (size.width, size.height))
            } catch {
                printError("swell: skipping \(error); the slideshow goes on without it")
                throw error
            }
        },
        relist: { pictureNames(in: folder)?.filter { !outside($0) } },
        version: { name in fileVersion(path: directory + name) })
}

/// The names of the pictures in `folder` (*.png, *.jpg, *.jpeg, not hidden), sorted; nil if the
/// folder cannot be read.
func pictureNames(in folder: String) -> [String]? {
    sortedNames(in: folder) { PictureFormat(fileName: $0) != nil }
}

/// Reads a touch script (`touches/1`, see SwellScenes/Input/TouchScript.swift).
func loadTouchScript(_ path: String) throws -> TouchScript {
    try loadInputFile(path) { bytes throws(SceneFileError) in try parseTouchScript(bytes: bytes, name: path) }
}

/// Reads an input file (exit 66 when it cannot be read) and parses it with `parse` (exit 65 with
/// what it found wrong).
func loadInputFile<Value, Failure: Error & CustomStringConvertible>(
    _ path: String, _ parse: ([UInt8]) throws(Failure) -> Value
) throws -> Value {
    let bytes: [UInt8]
    do {
        bytes = try readWholeFile(path)
    } catch {
        throw CommandFailure(ExitStatus.noInput, "\(path): cannot read: \(error)")
    }
    do {
        return try parse(bytes)
    } catch {
        throw CommandFailure(ExitStatus.dataError, error.description)
    }
}
