import SwellText

/// Checks the fonts a scene file names with the FontLibrary of the load's text service, which the
/// scenes then open them from: fontconfig reads every font's cache at the first font, once per
/// load (a page graph's pages share one service). The library lives only as long as the load's
/// player, as every FontLibrary of the scenes does: fontconfig keeps parts of a live
/// configuration behind encoded offsets, which LeakSanitizer (scripts/fuzz) reports as leaks at
/// exit when a configuration is never destroyed.
final class FontCheck {
    private let text: TextService

    init(text: TextService) {
        self.text = text
    }

    /// Why the `font` parameter `name` (a file path with "/", else a fontconfig pattern) does not
    /// resolve to an installed font, or nil when it does. fontconfig answers every pattern with
    /// some font, so a pattern whose family is not the one fontconfig found counts as not installed.
    func problem(_ name: String) -> String? {
        do throws(TextError) {
            _ = try text.fonts.font(named: name)
            return nil
        } catch {
            return error.description
        }
    }
}
