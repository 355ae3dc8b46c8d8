import Foundation
import HostContainer

/// What views show besides their backgrounds: the procedural pictures of
/// `.image(seed:)` and the built-in bitmap font of `.label`.
public enum Content {
    /// The procedural picture of `seed` at (u, v) in [0, 1]²: a sky in the
    /// seed's hue, a sun and a range of hills. The same seed, the same picture.
    public static func imageColor(seed: Int, u: Double, v: Double) -> Color {
        let hue = (Double(seed) * 0.618_033_988_75).truncatingRemainder(dividingBy: 1)
        let ridge = 0.64 + 0.07 * sin(u * 9 + Double(seed)) + 0.035 * sin(u * 23 + Double(seed) * 2)
        if v > ridge { return hsv(hue + 0.5, 0.45, 0.32 + 0.1 * (1 - v)) }
        let dx = u - 0.7, dy = v - 0.3
        if dx * dx + dy * dy < 0.13 * 0.13 { return hsv(hue + 0.12, 0.75, 1) }
        let top = hsv(hue, 0.55, 0.9), bottom = hsv(hue + 0.08, 0.3, 1)
        return mix(top, bottom, v / ridge)
    }

    /// The colour of a page's back side: the front greyed and lightened.
    public static func backSide(of c: Color) -> Color {
        let grey = 0.72 + 0.25 * (0.3 * c.red + 0.59 * c.green + 0.11 * c.blue)
        return Color(red: 0.35 * c.red + 0.65 * grey, green: 0.35 * c.green + 0.65 * grey,
                     blue: 0.35 * c.blue + 0.65 * grey, alpha: c.alpha)
    }

    /// Text drawn over `background`: dark on light, light on dark.
    static func textColor(on background: Color) -> Color {
        let luminance = 0.3 * background.red + 0.59 * background.green + 0.11 * background.blue
        return background.alpha < 0.5 || luminance > 0.5 ? Color(red: 0.1, green: 0.1, blue: 0.12) : Color(red: 0.96, green: 0.96, blue: 0.96)
    }

    static func mix(_ a: Color, _ b: Color, _ f: Double) -> Color {
        let f = min(max(f, 0), 1)
        return Color(red: a.red + (b.red - a.red) * f, green: a.green + (b.green - a.green) * f,
                     blue: a.blue + (b.blue - a.blue) * f, alpha: a.alpha + (b.alpha - a.alpha) * f)
    }

    static func hsv(_ h: Double, _ s: Double, _ v: Double) -> Color {
        let h6 = (h - h.rounded(.down)) * 6
        let i = Int(h6), f = h6 - Double(i)
        let p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f))
        switch i % 6 {
        case 0: return Color(red: v, green: t, blue: p)
        case 1: return Color(red: q, green: v, blue: p)
        case 2: return Color(red: p, green: v, blue: t)
        case 3: return Color(red: p, green: q, blue: v)
        case 4: return Color(red: t, green: p, blue: v)
        default: return Color(red: v, green: p, blue: q)
        }
    }
}

/// A 5×7 bitmap font: each glyph is five columns, bit 0 the top row.
/// Lower-case letters are drawn as capitals (but for "s", for times);
/// unknown characters as blanks.
enum BitmapFont {
    /// Glyph cell in font units: 5 columns and a gap, 7 rows and a gap.
    static let advance = 6, lineHeight = 8

    static func columns(_ c: Character) -> (UInt8, UInt8, UInt8, UInt8, UInt8) {
        if c == "s" { return (0x48, 0x54, 0x54, 0x54, 0x20) }  // for "0.25 s"
        return switch c.uppercased().first ?? " " {
        case "A": (0x7C, 0x12, 0x11, 0x12, 0x7C)
        case "B": (0x7F, 0x49, 0x49, 0x49, 0x36)
        case "C": (0x3E, 0x41, 0x41, 0x41, 0x22)
        case "D": (0x7F, 0x41, 0x41, 0x22, 0x1C)
        case "E": (0x7F, 0x49, 0x49, 0x49, 0x41)
        case "F": (0x7F, 0x09, 0x09, 0x09, 0x01)
        case "G": (0x3E, 0x41, 0x49, 0x49, 0x7A)
        case "H": (0x7F, 0x08, 0x08, 0x08, 0x7F)
        case "I": (0x00, 0x41, 0x7F, 0x41, 0x00)
        case "J": (0x20, 0x40, 0x41, 0x3F, 0x01)
        case "K": (0x7F, 0x08, 0x14, 0x22, 0x41)
        case "L": (0x7F, 0x40, 0x40, 0x40, 0x40)
        case "M": (0x7F, 0x02, 0x0C, 0x02, 0x7F)
        case "N": (0x7F, 0x04, 0x08, 0x10, 0x7F)
        case "O": (0x3E, 0x41, 0x41, 0x41, 0x3E)
        case "P": (0x7F, 0x09, 0x09, 0x09, 0x06)
        case "Q": (0x3E, 0x41, 0x51, 0x21, 0x5E)
        case "R": (0x7F, 0x09, 0x19, 0x29, 0x46)
        case "S": (0x46, 0x49, 0x49, 0x49, 0x31)
        case "T": (0x01, 0x01, 0x7F, 0x01, 0x01)
        case "U": (0x3F, 0x40, 0x40, 0x40, 0x3F)
        case "V": (0x1F, 0x20, 0x40, 0x20, 0x1F)
        case "W": (0x3F, 0x40, 0x38, 0x40, 0x3F)
        case "X": (0x63, 0x14, 0x08, 0x14, 0x63)
        case "Y": (0x07, 0x08, 0x70, 0x08, 0x07)
        case "Z": (0x61, 0x51, 0x49, 0x45, 0x43)
        case "0": (0x3E, 0x51, 0x49, 0x45, 0x3E)
        case "1": (0x00, 0x42, 0x7F, 0x40, 0x00)
        case "2": (0x42, 0x61, 0x51, 0x49, 0x46)
        case "3": (0x21, 0x41, 0x45, 0x4B, 0x31)
        case "4": (0x18, 0x14, 0x12, 0x7F, 0x10)
        case "5": (0x27, 0x45, 0x45, 0x45, 0x39)
        case "6": (0x3C, 0x4A, 0x49, 0x49, 0x30)
        case "7": (0x01, 0x71, 0x09, 0x05, 0x03)
        case "8": (0x36, 0x49, 0x49, 0x49, 0x36)
        case "9": (0x06, 0x49, 0x49, 0x29, 0x1E)
        case ".": (0x00, 0x60, 0x60, 0x00, 0x00)
        case ",": (0x00, 0x50, 0x30, 0x00, 0x00)
        case ":": (0x00, 0x36, 0x36, 0x00, 0x00)
        case "-": (0x08, 0x08, 0x08, 0x08, 0x08)
        case "_": (0x40, 0x40, 0x40, 0x40, 0x40)
        case ">": (0x00, 0x41, 0x22, 0x14, 0x08)
        case "<": (0x08, 0x14, 0x22, 0x41, 0x00)
        case "=": (0x14, 0x14, 0x14, 0x14, 0x14)
        case "(": (0x00, 0x1C, 0x22, 0x41, 0x00)
        case ")": (0x00, 0x41, 0x22, 0x1C, 0x00)
        case "/": (0x20, 0x10, 0x08, 0x04, 0x02)
        case "'": (0x00, 0x05, 0x03, 0x00, 0x00)
        case "!": (0x00, 0x00, 0x5F, 0x00, 0x00)
        case "?": (0x02, 0x01, 0x51, 0x09, 0x06)
        default: (0, 0, 0, 0, 0)
        }
    }

    /// Whether font cell (column, row) of `c` is ink.
    static func ink(_ c: Character, column: Int, row: Int) -> Bool {
        guard column >= 0, column < 5, row >= 0, row < 7 else { return false }
        let g = columns(c)
        let bits = [g.0, g.1, g.2, g.3, g.4][column]
        return (bits >> UInt8(row)) & 1 == 1
    }
}
