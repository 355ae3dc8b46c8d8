/// How a page is shaded where it is deformed (a mesh: CurlUp's curl): its
/// back washed out towards a light grey, and each vertex lit by the angle of
/// its surface to a light in front of the screen and a little above it. The
/// one definition: Segue's renderer, libsegue's helpers (and through them the
/// KWin effect, the GTK widget and the SDL player) and the GLSL a GL host
/// compiles (``glsl``) all shade by it.
public enum PageShading {
    /// The direction towards the light: (0, -0.35, 1), normalised. A flat page
    /// facing the eye is lit fully; a curl darkens as it turns away.
    public static let light: Vec3 = {
        let v = Vec3(x: 0, y: -0.35, z: 1), length = (v.x * v.x + v.y * v.y + v.z * v.z).squareRoot()
        return Vec3(x: v.x / length, y: v.y / length, z: v.z / length)
    }()

    /// A page's back seen through it: 35% of the colour and 65% of a grey
    /// from 0.72 to 0.97 by the colour's brightness (straight, not premultiplied).
    @inline(__always)
    public static func back(_ r: Double, _ g: Double, _ b: Double) -> (Double, Double, Double) {
        let grey = 0.72 + 0.25 * (0.3 * r + 0.59 * g + 0.11 * b)
        return (0.35 * r + 0.65 * grey, 0.35 * g + 0.65 * grey, 0.35 * b + 0.65 * grey)
    }

    /// ``back(_:_:_:)`` in single precision.
    @inline(__always)
    public static func back(_ r: Float, _ g: Float, _ b: Float) -> (Float, Float, Float) {
        let grey: Float = 0.72 + 0.25 * (0.3 * r + 0.59 * g + 0.11 * b)
        return (0.35 * r + 0.65 * grey, 0.35 * g + 0.65 * grey, 0.35 * b + 0.65 * grey)
    }

    /// The brightness (a factor for the colour, 0.3 to 1) of a surface with
    /// unit normal `n` (facing the eye where the page faces it), seen from
    /// the front or, with `back`, from behind: 1 where it faces the light as
    /// a flat page does.
    @inline(__always)
    public static func shade(_ n: Vec3, back: Bool) -> Double {
        let s = back ? -1.0 : 1.0
        let lambert = max(s * (n.x * light.x + n.y * light.y + n.z * light.z), 0) / light.z
        return min(0.3 + 0.7 * lambert, 1)
    }

    /// The unit normals of a grid of (`columns` + 1) x (`rows` + 1)
    /// `vertices`, row-major, from each vertex's neighbours (one-sided at the
    /// edges), into `normals` (as many); (0, 0, 1) where they cannot tell.
    public static func normals(_ vertices: UnsafeBufferPointer<Vec3>, columns: Int, rows: Int, into normals: UnsafeMutableBufferPointer<Vec3>) {
        @inline(__always) func index(_ i: Int, _ j: Int) -> Int { j * (columns + 1) + i }
        for j in 0...rows {
            for i in 0...columns {
                let a = vertices[index(min(i + 1, columns), j)], b = vertices[index(max(i - 1, 0), j)]
                let c = vertices[index(i, min(j + 1, rows))], e = vertices[index(i, max(j - 1, 0))]
                let du = Vec3(x: a.x - b.x, y: a.y - b.y, z: a.z - b.z), dv = Vec3(x: c.x - e.x, y: c.y - e.y, z: c.z - e.z)
                let n = Vec3(x: du.y * dv.z - du.z * dv.y, y: du.z * dv.x - du.x * dv.z, z: du.x * dv.y - du.y * dv.x)
                let length = (n.x * n.x + n.y * n.y + n.z * n.z).squareRoot()
                normals[index(i, j)] = length > 1e-12 ? Vec3(x: n.x / length, y: n.y / length, z: n.z / length) : Vec3(x: 0, y: 0, z: 1)
            }
        }
    }

    /// The same shading in GLSL (ES 2.0 and desktop 1.10 alike, no version
    /// line), for a GL host to put before its fragment shader's main:
    /// `segue_page_back(vec4 premultiplied)` (the back of a premultiplied
    /// colour, premultiplied) and `segue_page_lit(vec4 premultiplied, float
    /// shade)` (a colour in its vertex's light, the shade interpolated from
    /// libsegue's per-vertex values).
    public static let glsl = """
        vec4 segue_page_back(vec4 c) {
            vec3 straight = c.a > 0.0 ? c.rgb / c.a : vec3(0.0);
            float grey = 0.72 + 0.25 * dot(straight, vec3(0.3, 0.59, 0.11));
            return vec4((0.35 * straight + 0.65 * vec3(grey)) * c.a, c.a);
        }
        vec4 segue_page_lit(vec4 c, float shade) {
            return vec4(c.rgb * shade, c.a);
        }

        """
}
