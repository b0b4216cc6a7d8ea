import SwellRaster

/// One page of a player: its elements bottom to top, where each lies, the colour under them, and
/// the page's own height and scroll (kept while another page is shown).
struct ScenePage {
    var layers: [any Scene]
    var placements: [ScenePlayer.Placement]
    var background: Color
    /// The page's height when it is taller than the screen and scrolls (nil: the screen's).
    var height: Int?
    var scroll = PageScroll()
    /// Per layer, the layer whose live value it shows (a text element's `countOf`), found once
    /// per page so a frame neither casts nor searches ids.
    let liveSources: [Int?]

    init(layers: [any Scene], placements: [ScenePlayer.Placement], background: Color, height: Int? = nil) {
        self.layers = layers
        self.placements = layers.indices.map { $0 < placements.count ? placements[$0] : ScenePlayer.Placement() }
        self.background = background
        self.height = height
        liveSources = layers.map { [placements = self.placements] layer in
            guard let text = layer as? TextScene, !text.countOf.isEmpty else { return nil }
            return placements.firstIndex { $0.id == text.countOf }
        }
    }

    /// Gives layer `index`, when it shows another element's live value (`countOf`), that value.
    mutating func feedLiveValue(to index: Int) {
        guard let source = liveSources[index], let value = layers[source].liveValue else { return }
        layers[index].show(liveValue: value)
    }

    /// Runs a button's `action` (not `page`: that one is the book's) on the element it targets.
    mutating func perform(_ action: PageAction, at time: Double) {
        guard let target = placements.firstIndex(where: { $0.id == action.target }),
            var scene = layers[target] as? any ActionTarget & Scene
        else { return }
        if scene.perform(action.kind, at: time) { layers[target] = scene }
    }

    /// Applies `change` to every text element; an element is boxed again only when `change`
    /// says it changed it.
    mutating func changeTexts(_ change: (inout TextScene) -> Bool) {
        for index in layers.indices {
            guard var text = layers[index] as? TextScene, change(&text) else { continue }
            layers[index] = text
        }
    }
}
