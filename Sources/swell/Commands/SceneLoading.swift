import SwellOutput
import SwellRaster
import SwellScenes
import SwellSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Makes the player for a `SCENE|FILE` argument: a built-in scene name (all defaults) or a
/// scene file. Exit statuses: 66 unreadable file or image folder, 65 invalid scene file.
func loadScenePlayer(_ argument: String, threads: Int = 1) throws -> ScenePlayer {
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
        return ScenePlayer(layers: [scene.makeDefault(images: images)], threads: threads)
    }
    guard argument.hasSuffix(".json") || argument.contains("/") else {
        throw CommandFailure(
            ExitStatus.usage,
            "'\(argument)' is neither a built-in scene (\(builtInScenes.map(\.name).joined(separator: ", "))) nor a .json scene file"
        )
    }
    let bytes: [UInt8]
    do {
        bytes = try readWholeFile(argument)
    } catch {
        throw CommandFailure(ExitStatus.noInput, "\(argument): cannot read: \(error)")
    }
    do {
        // Every page its buttons can reach is loaded and checked now (`loadPageGraph`).
        return try loadPageGraph(
            bytes: bytes, name: argument, threads: threads, read: { try readWholeFile($0) },
            loadImages: { page, folder in
                let base = page.lastIndex(of: "/").map { String(page[...$0]) } ?? ""
                return try loadImageFolder(folder.hasPrefix("/") ? folder : base + folder)
            })
    } catch {
        throw CommandFailure(ExitStatus.dataError, error.description)
    }
}

struct ImageFolderError: Error, CustomStringConvertible {
    let description: String
}

/// Every picture (*.png, *.jpg, *.jpeg) in `folder`, in name order. Each file's header is checked now (so a folder with
/// a file that is not a PNG or JPEG, or is too large, fails at start-up with its name); the pixels are
/// decoded only when the slideshow is about to show them. A file that fails then (truncated or
/// replaced while running) is reported on standard error and skipped; the show goes on. The
/// slideshow lists the folder again at each change, so pictures can be added, removed and
/// replaced while it runs.
func loadImageFolder(_ folder: String) throws -> SceneImages {
    guard let names = pictureNames(in: folder) else {
        throw ImageFolderError(description: "cannot open image folder '\(folder)': \(Errno.current.message)")
    }
    guard !names.isEmpty else {
        throw ImageFolderError(description: "no pictures (.png, .jpg, .jpeg) in folder '\(folder)'")
    }
    let directory = folder.hasSuffix("/") ? folder : folder + "/"
    for name in names {
        do {
            _ = try readPictureSize(path: directory + name)
        } catch {
            throw ImageFolderError(description: error.description)
        }
    }
    return SceneImages(
        names: names,
        decode: { name, size in
            do {
                return try readPicture(path: directory + name, covering: (size.width, size.height))
            } catch {
                printError("swell: skipping \(error); the slideshow goes on without it")
                throw error
            }
        },
        relist: { pictureNames(in: folder) },
        version: { name in fileVersion(path: directory + name) })
}

/// The names of the pictures in `folder` (*.png, *.jpg, *.jpeg, not hidden), sorted; nil if the
/// folder cannot be read.
func pictureNames(in folder: String) -> [String]? {
    sortedNames(in: folder) { PictureFormat(fileName: $0) != nil }
}

/// Reads a touch script (`touches/1`, see SwellScenes/Input/TouchScript.swift).
func loadTouchScript(_ path: String) throws -> TouchScript {
    let bytes: [UInt8]
    do {
        bytes = try readWholeFile(path)
    } catch {
        throw CommandFailure(ExitStatus.noInput, "\(path): cannot read: \(error)")
    }
    do {
        return try parseTouchScript(bytes: bytes, name: path)
    } catch {
        throw CommandFailure(ExitStatus.dataError, error.description)
    }
}
