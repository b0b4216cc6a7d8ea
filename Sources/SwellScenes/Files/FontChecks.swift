import SwellText

/// Checks the fonts a scene file names, with one FontLibrary for the whole file, made at the
/// first font: fontconfig reads every font's cache then, once per load. The library lives only as
/// long as the load, as every FontLibrary of the scenes does: fontconfig keeps parts of a live
/// configuration behind encoded offsets, which LeakSanitizer (scripts/fuzz) reports as leaks at
/// exit when a configuration is never destroyed.
final class FontCheck {
    private var fonts: FontLibrary?

    /// Why the `font` parameter `name` (a file path with "/", else a fontconfig pattern) does not
    /// resolve to an installed font, or nil when it does. fontconfig answers every pattern with
    /// some font, so a pattern whose family is not the one fontconfig found counts as not installed.
    func problem(_ name: String) -> String? {
        let library = fonts ?? FontLibrary()
        fonts = library
        do throws(TextError) {
            _ = try library.font(named: name)
            return nil
        } catch {
            return error.description
        }
    }
}
