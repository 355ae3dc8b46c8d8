import AnimatorABI
import Glibc
import Timing

/// Everything an animator's context says about one transition, as plain data:
/// what the host sends a worker process at setup, and what both the worker and
/// the in-process bridge turn into a `segue_context_t` (``CContext``).
package struct TransitionPayload: Equatable, Sendable {
    /// A rectangle as x, y, width, height.
    package typealias Box = [Double]

    package struct Element: Equatable, Sendable {
        package var name: String
        package var frame: Box

        package init(name: String, frame: Box) {
            (self.name, self.frame) = (name, frame)
        }
    }

    package struct Side: Equatable, Sendable {
        package var name: String
        package var frame: Box
        package var elements: [Element]

        package init(name: String, frame: Box, elements: [Element]) {
            (self.name, self.frame, self.elements) = (name, frame, elements)
        }
    }

    /// What the transition does (ABI 1.3's `segue_context_t.kind`).
    package var kind: TransitionKind
    package var bounds: Box
    package var from: Side
    package var to: Side
    package var fromInitial: Box, fromFinal: Box, toInitial: Box, toFinal: Box
    package var goingRight: Bool
    package var isAnimated: Bool
    package var isInteractive: Bool
    /// Validated values, in the animator's parameter order.
    package var parameters: [Double]
    /// For each parameter, its curve's control points (x1, y1, x2, y2) when it
    /// is a curve, else zeros (ABI 1.1's `segue_context_t.curves`).
    package var curves: [[Double]]
    /// ABI 1.4's anchor: the rectangle (x, y, width, height) when known, else
    /// empty; the point (x, y) when known, else empty.
    package var anchorRect: Box = []
    package var anchorPoint: [Double] = []
    /// ABI 1.4's `segue_context_t.window_type` and `modal`.
    package var windowType: UInt32 = 0
    package var modal = false
    /// For `segue validate`: the anchor's unknown parts are NaN in the C context, not zeros.
    package var anchorPoisoned = false

    package init(kind: TransitionKind = .switch, bounds: Box, from: Side, to: Side, fromInitial: Box, fromFinal: Box,
                 toInitial: Box, toFinal: Box, goingRight: Bool, isAnimated: Bool, isInteractive: Bool,
                 parameters: [Double], curves: [[Double]]) {
        (self.kind, self.bounds, self.from, self.to) = (kind, bounds, from, to)
        (self.fromInitial, self.fromFinal, self.toInitial, self.toFinal) = (fromInitial, fromFinal, toInitial, toFinal)
        (self.goingRight, self.isAnimated, self.isInteractive) = (goingRight, isAnimated, isInteractive)
        (self.parameters, self.curves) = (parameters, curves)
    }

    /// Its binary form (see ``ByteWriter``), as a setup request carries it.
    package func encode(into w: inout ByteWriter) {
        func numbers(_ values: [Double]) {
            w.u32(UInt32(values.count))
            for v in values { w.f64(v) }
        }
        func side(_ s: Side) {
            w.string(s.name)
            numbers(s.frame)
            w.u32(UInt32(s.elements.count))
            for e in s.elements {
                w.string(e.name)
                numbers(e.frame)
            }
        }
        w.u32(kind.abiValue)
        numbers(bounds)
        side(from)
        side(to)
        for box in [fromInitial, fromFinal, toInitial, toFinal] { numbers(box) }
        w.u8((goingRight ? 1 : 0) | (isAnimated ? 2 : 0) | (isInteractive ? 4 : 0))
        numbers(parameters)
        w.u32(UInt32(curves.count))
        for c in curves { numbers(c) }
        numbers(anchorRect)
        numbers(anchorPoint)
        w.u32(windowType)
        w.u8((modal ? 1 : 0) | (anchorPoisoned ? 2 : 0))
    }

    /// Reads what ``encode(into:)`` wrote; counts are never trusted past the bytes there are.
    package init(decoding r: inout ByteReader) throws(ByteReader.Truncated) {
        func numbers() throws(ByteReader.Truncated) -> [Double] {
            var values: [Double] = []
            for _ in 0..<(try r.count(minimumSize: 8)) { values.append(try r.f64()) }
            return values
        }
        func side() throws(ByteReader.Truncated) -> Side {
            let name = try r.string(), frame = try numbers()
            var elements: [Element] = []
            for _ in 0..<(try r.count(minimumSize: 8)) { elements.append(Element(name: try r.string(), frame: try numbers())) }
            return Side(name: name, frame: frame, elements: elements)
        }
        let kind = TransitionKind(abiValue: try r.u32())
        let (bounds, from, to) = (try numbers(), try side(), try side())
        let (fromInitial, fromFinal, toInitial, toFinal) = (try numbers(), try numbers(), try numbers(), try numbers())
        let flags = try r.u8()
        let parameters = try numbers()
        var curves: [[Double]] = []
        for _ in 0..<(try r.count(minimumSize: 4)) { curves.append(try numbers()) }
        self.init(kind: kind, bounds: bounds, from: from, to: to, fromInitial: fromInitial, fromFinal: fromFinal, toInitial: toInitial,
                  toFinal: toFinal, goingRight: flags & 1 != 0, isAnimated: flags & 2 != 0, isInteractive: flags & 4 != 0,
                  parameters: parameters, curves: curves)
        (anchorRect, anchorPoint) = (try numbers(), try numbers())
        windowType = try r.u32()
        let windowFlags = try r.u8()
        (modal, anchorPoisoned) = (windowFlags & 1 != 0, windowFlags & 2 != 0)
    }
}

/// A `segue_context_t` and everything it points to, built from a payload and
/// owned by this object: valid until it is released, as the ABI promises
/// ("from the start of setup until end returns").
package final class CContext {
    /// The context handed to the plugin.
    package let pointer: UnsafeMutablePointer<segue_context_t>
    private var allocations: [UnsafeMutableRawPointer] = []

    package init(_ payload: TransitionPayload, host: UnsafePointer<segue_host_t>) {
        pointer = .allocate(capacity: 1)
        func allocate<T>(_: T.Type, count: Int) -> UnsafeMutablePointer<T> {
            let raw = malloc(MemoryLayout<T>.stride * max(count, 1))!
            allocations.append(raw)
            return raw.bindMemory(to: T.self, capacity: max(count, 1))
        }
        func cString(_ s: String) -> UnsafePointer<CChar> {
            let p = strdup(s)!
            allocations.append(UnsafeMutableRawPointer(p))
            return UnsafePointer(p)
        }
        func rect(_ b: TransitionPayload.Box) -> segue_rect_t {
            b.count == 4 ? segue_rect_t(x: b[0], y: b[1], width: b[2], height: b[3]) : segue_rect_t()
        }
        func view(_ side: TransitionPayload.Side) -> segue_view_t {
            var list: UnsafeMutablePointer<UnsafePointer<segue_element_t>?>?
            if !side.elements.isEmpty {
                let l = allocate(UnsafePointer<segue_element_t>?.self, count: side.elements.count)
                for (i, e) in side.elements.enumerated() {
                    let item = allocate(segue_element_t.self, count: 1)
                    item.initialize(to: segue_element_t(
                        struct_size: UInt32(MemoryLayout<segue_element_t>.size), name: cString(e.name), frame: rect(e.frame)))
                    l[i] = UnsafePointer(item)
                }
                list = l
            }
            return segue_view_t(name: cString(side.name), frame: rect(side.frame), elements: UnsafePointer(list),
                                element_count: UInt32(side.elements.count))
        }
        let params = allocate(Double.self, count: payload.parameters.count)
        params.initialize(from: payload.parameters, count: payload.parameters.count)

        var c = segue_context_t()
        c.abi_version = ABI.version
        c.struct_size = UInt32(MemoryLayout<segue_context_t>.size)
        c.host = host
        c.container_bounds = rect(payload.bounds)
        c.from = view(payload.from)
        c.to = view(payload.to)
        c.from_initial_frame = rect(payload.fromInitial)
        c.from_final_frame = rect(payload.fromFinal)
        c.to_initial_frame = rect(payload.toInitial)
        c.to_final_frame = rect(payload.toFinal)
        c.going_right = payload.goingRight
        c.is_animated = payload.isAnimated
        c.is_interactive = payload.isInteractive
        c.params = UnsafePointer(params)
        c.param_count = UInt32(payload.parameters.count)
        let curves = allocate(segue_cubic_bezier_t.self, count: payload.parameters.count)
        for i in payload.parameters.indices {
            let p = i < payload.curves.count && payload.curves[i].count == 4 ? payload.curves[i] : [0, 0, 0, 0]
            (curves + i).initialize(to: segue_cubic_bezier_t(x1: p[0], y1: p[1], x2: p[2], y2: p[3]))
        }
        c.curves = UnsafePointer(curves)
        c.kind = payload.kind.abiValue
        var anchor = segue_anchor_t()
        if payload.anchorPoisoned {
            anchor.rect = segue_rect_t(x: .nan, y: .nan, width: .nan, height: .nan)
            (anchor.point_x, anchor.point_y) = (.nan, .nan)
        }
        if payload.anchorRect.count == 4 { (anchor.has_rect, anchor.rect) = (true, rect(payload.anchorRect)) }
        if payload.anchorPoint.count == 2 { (anchor.has_point, anchor.point_x, anchor.point_y) = (true, payload.anchorPoint[0], payload.anchorPoint[1]) }
        c.anchor = anchor
        c.window_type = payload.windowType
        c.modal = payload.modal
        pointer.initialize(to: c)
    }

    deinit {
        for p in allocations { free(p) }
        pointer.deallocate()
    }
}

/// This host's ABI version, as the structs it fills carry it.
package enum ABI {
    package static let version = segue_version_t(
        major: UInt32(SEGUE_ABI_VERSION_MAJOR), minor: UInt32(SEGUE_ABI_VERSION_MINOR))

    /// A zeroed plan carrying the host's version and size, as setup receives it.
    package static func emptyPlan() -> segue_plan_t {
        var plan = segue_plan_t()
        plan.abi_version = version
        plan.struct_size = UInt32(MemoryLayout<segue_plan_t>.size)
        return plan
    }
}
