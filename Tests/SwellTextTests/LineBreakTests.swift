import SwellText
import Testing

/// `lineBreaks(in:)` against UAX #14 (Unicode's line breaking algorithm, rules LB1–LB31): each
/// expected split is worked out by hand from the rule named beside it, not taken from
/// libunibreak. A piece ends where a line may (or, marked, must) end.
struct LineBreakTests {
    /// `text` cut at every break; a mandatory break is marked by "⏎" after its piece.
    static func pieces(_ text: String) -> [String] {
        var pieces: [String] = []
        var start = text.startIndex
        for cut in lineBreaks(in: text[...]) {
            pieces.append(String(text[start..<cut.end]) + (cut.isMandatory ? "⏎" : ""))
            start = cut.end
        }
        return pieces
    }

    @Test func noBreakBeforeAnExclamationMarkEvenAfterASpace() {
        // LB13: × EX, "even after spaces" (French puts a space before "!" and "?").
        #expect(Self.pieces("Bonjour tout le monde !") == ["Bonjour ", "tout ", "le ", "monde !⏎"])
        #expect(Self.pieces("Ready? Go!") == ["Ready? ", "Go!⏎"])
    }

    @Test func ideographsBreakBetweenEachOtherButNotBeforeClosingPunctuationOrAnEllipsis() {
        // LB31: ID ÷ ID.
        #expect(Self.pieces("東京都庁舎") == ["東", "京", "都", "庁", "舎⏎"])
        // LB13: × CL ("）", "。"); LB14: OP × ("（"); LB30 keeps only AL/HL/NU × OP, so 京 ÷ （.
        #expect(Self.pieces("東京（都庁）。") == ["東", "京", "（都", "庁）。⏎"])
        // LB22: ID × IN ("…").
        #expect(Self.pieces("東京都庁…") == ["東", "京", "都", "庁…⏎"])
        // LB13/LB14 for corner brackets: 「 is OP, 」 is CL.
        #expect(Self.pieces("「東京」です") == ["「東", "京」", "で", "す⏎"])
    }

    @Test func numbersStayWholeAcrossTheirSeparators() {
        // LB25: NU × IS NU, i.e. no break inside "3.14" or "1,000"; LB18: break after spaces.
        #expect(Self.pieces("π is 3.14 and 1,000 yen") == ["π ", "is ", "3.14 ", "and ", "1,000 ", "yen⏎"])
    }

    @Test func aURLBreaksOnlyAfterSlashesThatAreNotFollowedByDigits() {
        // LB13: × SY and × IS (no break before "/", ":" or "."); LB29: IS × AL ("example.com");
        // LB25: SY × NU ("/2026"); elsewhere after "/" LB31 allows a break.
        #expect(
            Self.pieces("https://example.com/menu/2026/today") == ["https://", "example.com/", "menu/2026/", "today⏎"])
    }

    @Test func hyphensBreakAfterNotBefore() {
        // LB21: × HY; after the hyphen LB31 allows a break. LB25: HY × NU keeps "-5".
        #expect(Self.pieces("well-known -5 °C") == ["well-", "known ", "-5 ", "°C⏎"])
    }

    @Test func lineFeedsLineSeparatorsAndCRLFAreHardBreaks() {
        // LB4: BK ! (U+2028 is BK); LB5: CR × LF, LF !, CR !.
        #expect(Self.pieces("a\nb\u{2028}c d") == ["a\n⏎", "b\u{2028}⏎", "c ", "d⏎"])
        #expect(Self.pieces("a\r\nb") == ["a\r\n⏎", "b⏎"])
        #expect(Self.pieces("a\u{2029}\u{2029}b") == ["a\u{2029}⏎", "\u{2029}⏎", "b⏎"])
    }

    @Test func aNoBreakSpaceIsNotABreak() {
        // LB12: GL ×; LB12a: × GL after a letter.
        #expect(Self.pieces("in 10\u{A0}min by tram") == ["in ", "10\u{A0}min ", "by ", "tram⏎"])
    }

    @Test func flagsAndSkinTonesBreakOnlyBetweenWholeEmoji() {
        // LB30a: RI pairs (flags) break between pairs only; LB30b: EB × EM (the skin tone).
        // Debian's libunibreak 1.1 aborts on regional indicators unless they are replaced first.
        #expect(Self.pieces("🇩🇪🇫🇷 ok") == ["🇩🇪", "🇫🇷 ", "ok⏎"])
        #expect(Self.pieces("👍🏽👍🏽") == ["👍🏽", "👍🏽⏎"])
        // U+FFFF is libunibreak's end-of-text marker; LB1 resolves it (XX) to AL.
        #expect(Self.pieces("a\u{FFFF}b c") == ["a\u{FFFF}b ", "c⏎"])
    }

    @Test func anEmptyTextHasNoBreaks() {
        #expect(lineBreaks(in: ""[...]).isEmpty)
    }
}
