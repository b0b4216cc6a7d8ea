import SwellScenes
import Testing

/// A scene file's `font` (text, button, field) must resolve to an installed font when the file
/// loads: a family fontconfig can only answer with another family, or a file that does not open,
/// is refused with its JSON path, the value and the fix, every such problem in one run.
@Suite struct FontCheckTests {
    static func problems(_ text: String) -> [String] {
        do {
            _ = try loadSceneFile(bytes: Array(text.utf8), name: "fonts.json") { _ in .none }
            return []
        } catch {
            return error.problems
        }
    }

    @Test func aMissingFamilyAndAMissingOrNonFontFileAreEachRefusedWithTheirPaths() {
        let problems = Self.problems(
            """
            {"layers": [{"scene": "text", "parameters": {"text": "a", "font": "Nosuchfamily Sans:bold"}},
              {"scene": "text", "parameters": {"text": "b", "font": "DejaVu Sans"}},
              {"scene": "button", "frame": {"x": 0, "y": 0, "width": 100, "height": 50},
               "parameters": {"font": "/nonexistent/font.ttf"}},
              {"scene": "field", "frame": {"x": 0, "y": 60, "width": 100, "height": 50},
               "parameters": {"font": "/etc/hostname"}},
              {"scene": "text", "parameters": {"text": "c", "font": "DejaVu Nonexistent"}}]}
            """)
        #expect(problems.count == 4, "\(problems)")
        let lines = problems.joined(separator: "\n")
        #expect(
            lines.contains(
                "$.layers[0].parameters.font: no installed font matches \"Nosuchfamily Sans:bold\": "
                    + "fontconfig's closest is "), "\(lines)")
        #expect(lines.contains("name an installed family (fc-list : family lists them)"), "\(lines)")
        #expect(!lines.contains("$.layers[1]"), "DejaVu Sans is installed: \(lines)")
        #expect(
            lines.contains("$.layers[2].parameters.font: font file /nonexistent/font.ttf does not exist"), "\(lines)")
        #expect(
            lines.contains("$.layers[3].parameters.font: /etc/hostname is not a font FreeType can open"), "\(lines)")
        // A family of a known Debian package names the package to install.
        #expect(
            lines.contains(
                "$.layers[4].parameters.font: no installed font matches \"DejaVu Nonexistent\"")
                && lines.contains("install Debian's fonts-dejavu-core or name an installed family"), "\(lines)")
    }

    @Test func aOneSceneFileNamesItsParametersPath() {
        let problems = Self.problems(#"{"scene": "text", "parameters": {"font": "Nosuchfamily Serif"}}"#)
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("$.parameters.font: no installed font matches") == true, "\(problems)")
    }

    @Test func installedFamiliesAnyCaseGenericNamesAndFontFilesLoad() {
        for font in [
            "DejaVu Sans", "dejavu sans:bold", "Quicksand:bold", "sans-serif", "monospace",
            "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
        ] {
            let text =
                #"{"layers": [{"scene": "text", "parameters": {"font": "\#(font)"}}, "#
                + #"{"scene": "button", "frame": {"x": 0, "y": 0, "width": 99, "height": 40}, "#
                + #""parameters": {"font": "\#(font)"}}]}"#
            #expect(Self.problems(text).isEmpty, "\(font): \(Self.problems(text))")
        }
    }
}
