import SwellRaster

/// A 5x7 bitmap font for overlays (digits and the letters of "Ripples:"), built into the
/// binary so nothing is read at run time. Text becomes one path of pixel squares: runs of set
/// bits in a row are one rectangle, all drawn the same way round, so edges shared by touching
/// rectangles cancel and the fill stays exact.
public enum BitmapFont {
    public static let glyphWidth = 5
    public static let glyphHeight = 7
    /// Horizontal distance from one character to the next, in font pixels.
    public static let advance = 6

    /// Rows top to bottom; bit 4 is the leftmost column. Unknown characters are blank.
    static func glyph(_ scalar: Unicode.Scalar) -> (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) {
        switch scalar {
        case "0": (0b01110, 0b10001, 0b10011, 0b10101, 0b11001, 0b10001, 0b01110)
        case "1": (0b00100, 0b01100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110)
        case "2": (0b01110, 0b10001, 0b00001, 0b00010, 0b00100, 0b01000, 0b11111)
        case "3": (0b11111, 0b00010, 0b00100, 0b00010, 0b00001, 0b10001, 0b01110)
        case "4": (0b00010, 0b00110, 0b01010, 0b10010, 0b11111, 0b00010, 0b00010)
        case "5": (0b11111, 0b10000, 0b11110, 0b00001, 0b00001, 0b10001, 0b01110)
        case "6": (0b00110, 0b01000, 0b10000, 0b11110, 0b10001, 0b10001, 0b01110)
        case "7": (0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b01000, 0b01000)
        case "8": (0b01110, 0b10001, 0b10001, 0b01110, 0b10001, 0b10001, 0b01110)
        case "9": (0b01110, 0b10001, 0b10001, 0b01111, 0b00001, 0b00010, 0b01100)
        case "R": (0b11110, 0b10001, 0b10001, 0b11110, 0b10100, 0b10010, 0b10001)
        case "i": (0b00100, 0b00000, 0b01100, 0b00100, 0b00100, 0b00100, 0b01110)
        case "p": (0b00000, 0b00000, 0b11110, 0b10001, 0b11110, 0b10000, 0b10000)
        case "l": (0b01100, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110)
        case "e": (0b00000, 0b00000, 0b01110, 0b10001, 0b11111, 0b10000, 0b01110)
        case "s": (0b00000, 0b00000, 0b01111, 0b10000, 0b01110, 0b00001, 0b11110)
        case ":": (0b00000, 0b01100, 0b01100, 0b00000, 0b01100, 0b01100, 0b00000)
        default: (0, 0, 0, 0, 0, 0, 0)
        }
    }

    /// Whether font pixel (column, row) of `scalar` is set.
    public static func isSet(_ scalar: Unicode.Scalar, column: Int, row: Int) -> Bool {
        let g = glyph(scalar)
        let bits = [g.0, g.1, g.2, g.3, g.4, g.5, g.6][row]
        return bits & (1 << UInt8(4 - column)) != 0
    }

    static func appendGlyph(_ scalar: Unicode.Scalar, x: Double, y: Double, pixelSize: Double, to path: inout Path) {
        let g = glyph(scalar)
        withUnsafeBytes(of: g) { rows in
            for row in 0..<glyphHeight {
                let bits = rows[row]
                var column = 0
                while column < glyphWidth {
                    guard bits & (1 << UInt8(4 - column)) != 0 else {
                        column += 1
                        continue
                    }
                    let start = column
                    while column < glyphWidth && bits & (1 << UInt8(4 - column)) != 0 { column += 1 }
                    let left = x + Double(start) * pixelSize
                    let right = x + Double(column) * pixelSize
                    let top = y + Double(row) * pixelSize
                    let bottom = top + pixelSize
                    path.move(to: left, top)
                    path.line(to: right, top)
                    path.line(to: right, bottom)
                    path.line(to: left, bottom)
                    path.close()
                }
            }
        }
    }

    /// Appends `text` with its top-left corner at (x, y); returns the x after the last character.
    @discardableResult
    public static func appendText(_ text: StaticString, x: Double, y: Double, pixelSize: Double, to path: inout Path)
        -> Double
    {
        var cursor = x
        text.withUTF8Buffer { bytes in
            for byte in bytes {
                appendGlyph(Unicode.Scalar(byte), x: cursor, y: y, pixelSize: pixelSize, to: &path)
                cursor += Double(advance) * pixelSize
            }
        }
        return cursor
    }

    /// Appends the decimal digits of `value` (no allocation); returns the x after the last digit.
    @discardableResult
    public static func appendNumber(_ value: Int, x: Double, y: Double, pixelSize: Double, to path: inout Path)
        -> Double
    {
        var magnitude = value.magnitude
        var digits = 1
        var probe = magnitude
        while probe >= 10 {
            probe /= 10
            digits += 1
        }
        var cursor = x
        if value < 0 { cursor += Double(advance) * pixelSize }  // no minus glyph: leave its space
        var place = digits - 1
        while place >= 0 {
            var divisor: UInt = 1
            for _ in 0..<place { divisor *= 10 }
            let digit = UInt8(magnitude / divisor)
            magnitude %= divisor
            appendGlyph(Unicode.Scalar(UInt8(ascii: "0") + digit), x: cursor, y: y, pixelSize: pixelSize, to: &path)
            cursor += Double(advance) * pixelSize
            place -= 1
        }
        return cursor
    }
}
