import Foundation
import HostContainer

/// What views show besides their backgrounds: the procedural pictures of
/// `.image(seed:)` and the built-in bitmap font of `.label`.
public enum Content {
    /// The procedural picture of `seed` at (u, v) in [0, 1]²: a sky in the
    /// seed's hue, a sun and a range of hills. The same seed, the same picture.
    public static func imageColor(seed: Int, u: Double, v: Double) -> Color {
        let hue = (Double(seed) * 0.618_033_988_75).truncatingRemainder(dividingBy: 1)
        let ridge = ridge(seed: seed, u: u)
        if v > ridge { return hsv(hue + 0.5, 0.45, 0.32 + 0.1 * (1 - v)) }
        let dx = u - 0.7, dy = v - 0.3
        if dx * dx + dy * dy < 0.13 * 0.13 { return hsv(hue + 0.12, 0.75, 1) }
        let top = hsv(hue, 0.55, 0.9), bottom = hsv(hue + 0.08, 0.3, 1)
        return mix(top, bottom, v / ridge)
    }

    /// The height of the hills' ridge at u, as a share of the picture's height.
    static func ridge(seed: Int, u: Double) -> Double {
        0.64 + 0.07 * sin(u * 9 + Double(seed)) + 0.035 * sin(u * 23 + Double(seed) * 2)
    }

    /// The colour of a page's back side: the front greyed and lightened.
    public static func backSide(of c: Color) -> Color {
        let (r, g, b) = PageShading.back(c.red, c.green, c.blue)
        return Color(red: r, green: g, blue: b, alpha: c.alpha)
    }

    /// The colour of a label's text over `background`: dark on light, light on dark.
    public static func textColor(on background: Color) -> Color {
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
