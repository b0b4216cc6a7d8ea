/// The files a player's pages are made from, for a kiosk to follow while it runs: the page
/// files of its page graph and the text files its text elements show. A changed text file
/// changes only the elements that show it (the scene goes on: waves keep their phase); a
/// changed page file is the caller's to reload (`pageFiles`).
extension ScenePlayer {
    /// The page files of the page graph (`loadPageGraph`), the shown one first; empty for a
    /// player loaded alone.
    public var pageFiles: [String] {
        pageName.isEmpty ? [] : [pageName] + bookedPages.map(\.name).filter { $0 != pageName }.sorted()
    }

    /// A playlist's item files (`loadPlaylist`): its pages (with the pages their buttons reach and
    /// their text files), pictures and videos, each once; empty for a page. A changed one is
    /// taken up at its item's next turn, as each turn loads its item afresh (the text files of
    /// the item shown are also in `textFiles`, so their text changes at once).
    public var itemFiles: [String] { playlist?.files ?? [] }

    /// Every text file a text element of any page shows, as it was read (resolved), each once.
    public var textFiles: [String] {
        var files: [String] = playlist?.current.textFiles ?? []
        for layers in [layers] + bookedPages.map(\.layers) {
            for case let text as TextScene in layers where !text.file.isEmpty && !files.contains(text.file) {
                files.append(text.file)
            }
        }
        return files
    }

    /// Reads each of `changed` that is a text file shown here with `read` and shows its new text
    /// on every element naming it. A file that does not load (deleted, unreadable, not UTF-8)
    /// leaves the previous text on screen, and so does one that now lies outside `contentRoot`
    /// (replaced by a link). Returns a line for the journal per file.
    public func takeUp(changedTextFiles changed: [String], read: (String) throws -> [UInt8]) -> [String] {
        let shown = textFiles
        return changed.filter(shown.contains).map { path in
            if let folder = contentRoot, !folder.holds(path) {
                return "\(path) changed but was not loaded (the previous text stays): it now lies outside the "
                    + "content folder \(folder.path)"
            }
            do {
                showFileText(path, try TextFileContents.decode(read(path)))
                return "\(path) changed: showing its new text"
            } catch {
                return "\(path) changed but was not loaded (the previous text stays): \(error)"
            }
        }
    }
}
