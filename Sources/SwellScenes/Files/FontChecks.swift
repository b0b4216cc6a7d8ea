import SwellText
import Synchronization

/// The fonts scene files name, opened once per process for the load-time check: fontconfig reads
/// every font's cache when first asked, which a kiosk reloading its scene file should pay once.
/// A mutex because FontLibrary is not thread-safe and pages may be loaded from several threads
/// (tests do).
private let checkedFonts = Mutex(FontLibrary())

/// Why the `font` parameter `name` (a file path with "/", else a fontconfig pattern) does not
/// resolve to an installed font, or nil when it does. fontconfig answers every pattern with some
/// font, so a pattern whose family is not the one fontconfig found counts as not installed.
func fontProblem(_ name: String) -> String? {
    checkedFonts.withLock { fonts -> String? in
        do throws(TextError) {
            _ = try fonts.font(named: name)
            return nil
        } catch {
            return error.description
        }
    }
}
