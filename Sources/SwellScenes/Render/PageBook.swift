/// The pages a player can show besides the one on screen, by file name, each as it was last
/// left; the shown page's name; and the page a tap asked for (`attach(pages:shown:)`; empty for
/// a single page).
struct PageBook {
    private(set) var pages: [String: ScenePage] = [:]
    private(set) var shownName = ""
    /// The page a tap asked for and the tap's time: the switch is made at the next frame but
    /// dated from the tap, so a frame does not depend on when the frames before it were drawn.
    private(set) var pending: (name: String, time: Double)?

    /// Keeps `pages` (every page of a graph, by name) but the shown one, `shown`.
    mutating func attach(_ pages: [String: ScenePage], shown: String) {
        for (name, page) in pages where name != shown { self.pages[name] = page }
        shownName = shown
    }

    /// A tap at `time` asks for the page `target` names (relative to the shown page's file);
    /// a page not in the book is not shown.
    mutating func request(_ target: String, at time: Double) {
        let name = resolvePage(target, from: shownName)
        if pages[name] != nil { pending = (name, time) }
    }

    /// The page a tap asked for, its name and the tap's time, taken (nil: none asked).
    mutating func takeRequest() -> (name: String, time: Double)? {
        guard let (name, time) = pending, pages[name] != nil else { return nil }
        pending = nil
        return (name, time)
    }

    /// Puts `shown`, the page on screen, back in the book and takes out page `name`, which is
    /// shown from now on.
    mutating func swap(_ shown: ScenePage, for name: String) -> ScenePage? {
        guard name != shownName, let next = pages[name] else { return nil }
        pages[shownName] = shown
        pages[name] = nil
        shownName = name
        return next
    }

    /// Applies `change` to the layers of every page in the book.
    mutating func changePages(_ change: (inout ScenePage) -> Void) {
        for name in pages.keys { change(&pages[name]!) }
    }
}
