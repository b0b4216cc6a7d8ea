import SwellText

/// The text machinery that every text element, button label and ripple counter of one player
/// shares: one FreeType library, one fontconfig start-up and the fonts it opened (`FontLibrary`),
/// one glyph-mask cache and one cache of shaped lines (`Typesetter`). A scene file and every page
/// reachable from it share one (`SceneContext`, given by `loadPageGraph` and `loadSceneFile`), so
/// a page of several text elements opens its fonts and reads fontconfig's caches once, not once
/// an element.
///
/// Not thread-safe, as `Typesetter` is not. It needs no lock: scenes shape and lay out their
/// text in `render(at:size:into:)`, which `ScenePlayer.render` calls for one layer after another
/// on its own thread while it builds the frame's display list; the banded renderer's threads
/// then only read the finished glyph runs (masks that the cache never changes, kept alive by the
/// runs after an eviction). A player is driven from one thread, and each load has its own service.
public final class TextService: @unchecked Sendable {
    /// The glyph cache's limit: the four 4 MiB caches of a page of four text elements, as one.
    public static let glyphBudget = 16 << 20

    /// Made at the first text that needs it: a page without text opens no FreeType library.
    public private(set) lazy var typesetter = Typesetter(glyphBudget: Self.glyphBudget)

    public init() {}

    public var fonts: FontLibrary { typesetter.fonts }
}

/// What the scenes of one load share: the scene file and every page reachable from it (as
/// `SceneMedia` is what one layer shows). `SceneDescriptor.make` gives it to each scene.
public struct SceneContext: Sendable {
    public let text: TextService

    public init(text: TextService = TextService()) {
        self.text = text
    }
}
