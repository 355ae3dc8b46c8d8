import AnimatorABI
import EmbedABI
import HostContainer
import PluginRuntime

// The helpers of the C API for renderers without 3D (segue/embed.h): a layer
// projected to a textured grid, its triangles, and the curves and springs
// plugins get from their host table, the same functions.

/// The plugins' host table, whose curve and spring functions the helpers are.
nonisolated(unsafe) private let services = HostFunctionTable.make(for: "libsegue")  // read-only, for the life of the process

@c(segue_curve_value)
public func segueCurveValue(_ curve: segue_curve_t, _ t: Double) -> Double {
    services.pointee.curve_value(curve, t)
}

@c(segue_cubic_bezier_value)
public func segueCubicBezierValue(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ t: Double) -> Double {
    services.pointee.cubic_bezier_value(x1, y1, x2, y2, t)
}

@c(segue_spring_init)
public func segueSpringInit(_ spring: UnsafeMutablePointer<segue_spring_t>?, _ duration: Double, _ damping: Double,
                            _ velocity: Double) -> Bool {
    services.pointee.spring_init(spring, duration, damping, velocity)
}

@c(segue_spring_init_physical)
public func segueSpringInitPhysical(_ spring: UnsafeMutablePointer<segue_spring_t>?, _ stiffness: Double, _ damping: Double,
                                    _ mass: Double, _ velocity: Double) -> Bool {
    services.pointee.spring_init_physical(spring, stiffness, damping, mass, velocity)
}

@c(segue_spring_value)
public func segueSpringValue(_ spring: UnsafePointer<segue_spring_t>?, _ t: Double) -> Double {
    services.pointee.spring_value(spring, t)
}

@c(segue_grid_indices)
public func segueGridIndices(_ columns: UInt32, _ rows: UInt32, _ indices: UnsafeMutablePointer<Int32>?, _ capacity: UInt32) -> UInt32 {
    guard let indices, columns > 0, rows > 0, columns <= 4096, rows <= 4096, capacity / 6 / columns >= rows else { return 0 }
    var n = 0
    let stride = Int32(columns) + 1
    for j in 0..<Int32(rows) {
        for i in 0..<Int32(columns) {
            let topLeft = j * stride + i, topRight = topLeft + 1, bottomLeft = topLeft + stride, bottomRight = bottomLeft + 1
            // Counter-clockwise on screen (y down): top-left, bottom-left, top-right; top-right, bottom-left, bottom-right.
            for index in [topLeft, bottomLeft, topRight, topRight, bottomLeft, bottomRight] {
                indices[n] = index
                n += 1
            }
        }
    }
    return UInt32(n)
}

@c(segue_layer_project)
public func segueLayerProject(_ state: UnsafePointer<segue_layer_state_t>?, _ layer: UnsafePointer<segue_layer_request_t>?,
                              _ bounds: UnsafePointer<segue_rect_t>?,
                              _ divisions: UInt32, _ xy: UnsafeMutablePointer<Float>?, _ uv: UnsafeMutablePointer<Float>?,
                              _ capacity: UInt32, _ columnsOut: UnsafeMutablePointer<UInt32>?,
                              _ rowsOut: UnsafeMutablePointer<UInt32>?) -> UInt32 {
    guard let state, let bounds, let xy, let uv else { return 0 }
    let s = state.pointee
    let meshColumns = Int(layer?.pointee.mesh_columns ?? 0), meshRows = Int(layer?.pointee.mesh_rows ?? 0)
    let hasMesh = meshColumns > 0 && meshRows > 0
    let columns: Int, rows: Int
    if hasMesh {
        let limit = Int(SEGUE_MAX_MESH_DIVISIONS)
        guard meshColumns <= limit, meshRows <= limit, s.mesh != nil,
              Int(s.mesh_vertex_count) >= (meshColumns + 1) * (meshRows + 1) else { return 0 }
        (columns, rows) = (meshColumns, meshRows)
    } else {
        guard (1...UInt32(SEGUE_MAX_MESH_DIVISIONS)).contains(divisions) else { return 0 }
        (columns, rows) = (Int(divisions), Int(divisions))
    }
    let count = (columns + 1) * (rows + 1)
    guard count <= Int(capacity) else { return 0 }
    let frame = Rect(x: s.frame.x, y: s.frame.y, width: s.frame.width, height: s.frame.height)
    let centreX = bounds.pointee.x + bounds.pointee.width / 2, centreY = bounds.pointee.y + bounds.pointee.height / 2
    let flat = FlatProjection(frame: frame, transform: Transform3D(m: s.transform.m))
    for j in 0...rows {
        for i in 0...columns {
            let index = j * (columns + 1) + i
            let (u, v) = (Double(i) / Double(columns), Double(j) / Double(rows))
            let x: Double, y: Double
            if hasMesh {
                let p = UnsafeRawPointer(s.mesh! + index).load(as: Vec3.self)
                (x, y) = Mesh.projected(p, centreX: centreX, centreY: centreY)
            } else {
                guard let seen = flat.point(u * frame.width, v * frame.height) else { return 0 }
                (x, y) = seen
            }
            guard x.isFinite, y.isFinite else { return 0 }
            xy[2 * index] = Float(x)
            xy[2 * index + 1] = Float(y)
            uv[2 * index] = Float(u)
            uv[2 * index + 1] = Float(v)
        }
    }
    columnsOut?.pointee = UInt32(columns)
    rowsOut?.pointee = UInt32(rows)
    return UInt32(count)
}


// A page's shading, as Segue's renderer shades a mesh (PageShading): the one
// definition a host's drawing and shaders take it from.

@c(segue_page_back)
public func seguePageBack(_ rgba: UnsafePointer<Float>?, _ out: UnsafeMutablePointer<Float>?) {
    guard let rgba, let out else { return }
    let (r, g, b, a) = (Double(rgba[0]), Double(rgba[1]), Double(rgba[2]), rgba[3])
    let back = PageShading.back(r, g, b)
    (out[0], out[1], out[2], out[3]) = (Float(back.0), Float(back.1), Float(back.2), a)
}

@c(segue_mesh_light)
public func segueMeshLight(_ state: UnsafePointer<segue_layer_state_t>?, _ layer: UnsafePointer<segue_layer_request_t>?, _ back: Bool,
                           _ shades: UnsafeMutablePointer<Float>?, _ capacity: UInt32) -> UInt32 {
    guard let state, let layer, let shades else { return 0 }
    let columns = Int(layer.pointee.mesh_columns), rows = Int(layer.pointee.mesh_rows)
    let count = (columns + 1) * (rows + 1)
    guard columns > 0, rows > 0, columns <= Int(SEGUE_MAX_MESH_DIVISIONS), rows <= Int(SEGUE_MAX_MESH_DIVISIONS),
          let mesh = state.pointee.mesh, Int(state.pointee.mesh_vertex_count) >= count, count <= Int(capacity) else { return 0 }
    let vertices = UnsafeBufferPointer(start: UnsafeRawPointer(mesh).assumingMemoryBound(to: Vec3.self), count: count)
    return withUnsafeTemporaryAllocation(of: Vec3.self, capacity: count) { normals in
        PageShading.normals(vertices, columns: columns, rows: rows, into: normals)
        for k in 0..<count { shades[k] = Float(PageShading.shade(normals[k], back: back)) }
        return UInt32(count)
    }
}

/// PageShading's GLSL, as C text for the life of the process.
nonisolated(unsafe) private let shadingSource = CString(PageShading.glsl)  // read-only

@c(segue_page_shading_glsl)
public func seguePageShadingGLSL() -> UnsafePointer<CChar> {
    shadingSource.pointer
}

@c(segue_edge_pan_finishes)
public func segueEdgePanFinishes(_ translation: Double, _ velocity: Double, _ width: Double) -> Bool {
    guard width > 0, !translation.isNaN else { return false }
    return EdgePanGesture(width: width).finishes(translation: translation, velocity: velocity)
}
