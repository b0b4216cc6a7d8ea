import SwellJSON

/// Loads a page and every page reachable from it through buttons' `page` actions, validating
/// them all before the first frame, so a tap never meets a bad file. A `page` target is a scene
/// file named relative to the file whose button names it. Cycles (A → B → A, a Back button) are
/// fine; an action naming its own page is refused: it would be a `page` cycle that loads
/// nothing. All problems of all pages come in one error, each line naming its page's file.
///
/// `read(path)` returns a page's bytes, or a text file's that a text element shows (or throws
/// why not); `loadImages(page, folder)` is
/// `loadSceneFile`'s image loader for a layer of the page named `page`, and `loadVideo` its video
/// loader (the request names the file as found from the page's folder). Every page's scenes share
/// one `SceneContext`: one text service (fonts, fontconfig, glyph and shaped-line caches) for
/// the text elements, buttons and counters of the whole graph. With `content`, every page and
/// every file a page names must lie in that folder (`ContentRoot`); one outside is refused.
public func loadPageGraph(
    bytes: [UInt8], name: String, threads: Int = 1, content: ContentRoot? = nil, read: (String) throws -> [UInt8],
    loadVideo: (SceneVideo.Request) throws -> SceneVideo = { _ in throw NoFileAccess() },
    loadImages: (String, String) throws -> SceneImages
) throws(SceneFileError) -> ScenePlayer {
    var players: [String: ScenePlayer] = [:]
    var problems: [String] = []
    var visited: Set<String> = []
    var queue = [(name, bytes as [UInt8]?, "")]
    let context = SceneContext()
    while let (page, known, from) = queue.first {
        queue.removeFirst()
        guard visited.insert(page).inserted else { continue }
        var pageBytes: [UInt8]
        do {
            pageBytes = try known ?? read(page)
        } catch {
            problems.append("\(from): cannot read page \"\(page)\": \(error)")
            continue
        }
        do {
            let player = try loadSceneFile(
                bytes: pageBytes, name: page, threads: threads, context: context, content: content, readFile: read,
                loadVideo: loadVideo
            ) { folder in try loadImages(page, folder) }
            players[page] = player
            for (index, target) in pageTargets(of: player) {
                let path = "\(page): $.layers[\(index)].parameters.target"
                let resolved = resolvePage(target, from: page)
                if resolved == page {
                    problems.append("\(path): \"\(target)\" is this page; a page action must load another page")
                } else if let content, !content.holds(resolved) {
                    problems.append("\(path): \(content.outside(target, kind: "page"))")
                } else {
                    queue.append((resolved, nil, path))
                }
            }
        } catch {
            problems += error.problems.map { "\(page): \($0)" }
        }
    }
    guard problems.isEmpty, let first = players[name] else {
        throw SceneFileError(file: name, problems: problems)
    }
    first.attach(pages: players, shown: name)
    first.contentRoot = content
    return first
}

/// The layer index and target of every button or field whose action is `page`.
func pageTargets(of player: ScenePlayer) -> [(Int, String)] {
    player.layers.indices.compactMap { index in
        guard let action = (player.layers[index] as? ButtonScene)?.action, action.kind == "page" else { return nil }
        return (index, action.target)
    }
}

/// `target` as named from the page file `page`: relative to its folder unless absolute.
func resolvePage(_ target: String, from page: String) -> String {
    if target.hasPrefix("/") { return target }
    let folder = page.lastIndex(of: "/").map { String(page[...$0]) } ?? ""
    var parts: [Substring] = []
    for part in (folder + target).split(separator: "/", omittingEmptySubsequences: false) {
        if part == "." { continue }
        if part == "..", let last = parts.last, last != "..", !last.isEmpty {
            parts.removeLast()
            continue
        }
        parts.append(part)
    }
    return parts.joined(separator: "/")
}
