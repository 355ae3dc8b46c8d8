@testable import PluginHost
import HostTestSupport
import TestSupport
import Testing
@testable import Timing

@testable import HostContainer

/// The three bundled animators, loaded from their real .so files, produce the
/// geometry they promise at t = 0, mid-way and at the end.
struct BundledPluginTests {
    func descriptor(_ name: String) throws -> AnimatorDescriptor {
        try #require(bundledRegistry.animator(named: name), "\(name) loaded from \(Paths.binFolder)")
    }

    /// A harness whose delegate uses `name` with its defaults (or `parameters`).
    func harness(_ name: String, parameters: [String: ParameterValue] = [:],
                 elements: [String: [(String, Rect)]] = [:]) throws -> Harness {
        let h = Harness(["a", "b", "c"], elements: elements)
        let values = try descriptor(name).resolveParameters(parameters).get()
        h.delegate = FixedDelegate(try descriptor(name), values)
        return h
    }

    @Test func theThreePluginsLoadWithTheirIdsAndSeedDefaults() throws {
        #expect(bundledRegistry.rejections.isEmpty, "\(bundledRegistry.rejections)")
        let spring = try descriptor("SpringSlide"), curl = try descriptor("CurlUp"), zoom = try descriptor("ImageZoom")
        #expect(spring.id == "org.segue.spring-slide/1" && curl.id == "org.segue.curl-up/1" && zoom.id == "org.segue.image-zoom/1")
        func defaults(_ d: AnimatorDescriptor) -> [String: Double] {
            Dictionary(uniqueKeysWithValues: d.parameters.map { ($0.name, $0.defaultValue) })
        }
        #expect(defaults(spring) == ["damping": 0.5, "velocity": 0.5, "duration": 1.0, "padding": 16])
        #expect(defaults(curl)["duration"] == 0.4)
        #expect(defaults(zoom)["duration"] == 0.3)
        #expect(spring.file == Paths.plugin("SpringSlide"))
    }

    @Test(arguments: ["SpringSlide", "CurlUp", "ImageZoom", "Pop"])
    func eachPluginExportsTheEntryPointAndNothingElse(name: String) throws {
        let result = try run("/usr/bin/env", ["nm", "-D", "--defined-only", Paths.plugin(name)])
        #expect(result.status == 0, "\(result.err)")
        let globals = result.out.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: " ")
            guard fields.count == 3, fields[1].first?.isUppercase == true else { return nil }
            return String(fields[2])
        }
        #expect(globals == ["segue_animator_entry"])
    }

    // MARK: SpringSlide: the default's algorithm, damping 0.5, velocity 0.5, 1 s, 16 pt apart

    @Test func springSlideFollowsItsSpringAtStartMidAndEnd() throws {
        let h = try harness("SpringSlide")
        let spring = try #require(Spring(duration: 1, dampingRatio: 0.5, initialVelocity: 0.5))
        try h.container.select(named: "b")
        let from = h.child("a").view, to = h.child("b").view
        #expect(to.transform == .translation(336, 0) && to.alpha == 0, "t = 0: one travel away, transparent")
        #expect(from.transform == .identity && from.alpha == 1)
        h.clock.advance(by: 0.3)
        h.container.tick()
        let p = spring.value(at: 0.3)
        #expect(approx(from.transform.translation.x, -336 * p) && approx(to.transform.translation.x, 336 * (1 - p)))
        h.container.runUntilIdle(advancing: h.clock)
        let report = try #require(h.reports.first)
        #expect(report.animator == "SpringSlide" && report.source == .plugin(path: Paths.plugin("SpringSlide")))
        #expect(report.duration == 1.0 && report.completed)
        h.expectConsistent()
    }

    @Test func springSlideIsBounciderThanTheDefault() throws {
        let h = try harness("SpringSlide")
        try h.container.select(named: "b")
        var minimum = Double.infinity
        for _ in 0..<60 {
            h.clock.advance(by: 1.0 / 60)
            h.container.tick()
            if h.container.isTransitioning { minimum = min(minimum, h.child("b").view.transform.translation.x) }
        }
        #expect(minimum < -1, "the to view overshoots its final place, found \(minimum)")
    }

    @Test func springSlideParametersReachThePlugin() throws {
        let h = try harness("SpringSlide", parameters: ["padding": .number(0), "duration": .number(0.5)])
        try h.container.select(named: "b")
        #expect(h.child("b").view.transform == .translation(320, 0))
        h.container.runUntilIdle(advancing: h.clock)
        #expect(h.reports.first?.duration == 0.5)
    }

    // MARK: CurlUp: the from view curls up from its bottom edge in 0.4 s

    @Test func curlUpStartsFlatCurlsFromTheBottomAndEndsOffTheTop() throws {
        let h = try harness("CurlUp")
        try h.container.select(named: "b")
        let page = h.child("a").view, under = h.child("b").view
        let mesh = try #require(page.mesh, "the from view is drawn as a mesh")
        #expect(page.zPosition > under.zPosition, "the page is above the view it reveals")
        #expect(under.alpha == 1 && under.transform == .identity && under.frame == h.container.view.bounds)
        // t = 0: flat, covering the container.
        #expect(mesh[0, 0] == Vec3(x: 0, y: 0, z: 0))
        #expect(mesh[mesh.columns, mesh.rows] == Vec3(x: 320, y: 480, z: 0))
        #expect((0..<mesh.vertices.count).allSatisfy { mesh.vertices[$0].z == 0 })
        // Mid-way: the top is still flat in place, the bottom edge has curled up and lifted.
        h.clock.advance(by: 0.2)
        h.container.tick()
        #expect(mesh[0, 0] == Vec3(x: 0, y: 0, z: 0))
        let bottom = mesh[0, mesh.rows]
        #expect(bottom.z > 0 && bottom.y < 480, "bottom edge lifted and risen: \(bottom)")
        let radius = 48.0
        #expect((0..<mesh.vertices.count).allSatisfy { mesh.vertices[$0].z <= 2 * radius + 1e-9 })
        // The end: every vertex has rolled above the top edge.
        h.clock.advance(by: 0.2)
        h.container.tick()
        #expect(h.reports.first?.animator == "CurlUp" && h.reports.first?.duration == 0.4)
        h.expectConsistent()
        #expect(page.mesh == nil, "the mesh is gone once the transition ends")
    }

    /// Sets `name` up for a → b in a 320x480 container and evaluates every layer at `t` (nil: the duration).
    func statesAtTime(_ name: String, _ t: Double?, elements: [String: [(String, Rect)]] = [:]) throws -> [LayerState] {
        let d = try descriptor(name)
        let animator = d.makeAnimator(parameters: d.parameters.map(\.defaultValue))
        let h = Harness(["a", "b"], elements: elements)
        h.child("b").view.frame = h.container.view.bounds
        let ctx = TransitionContext(from: h.child("a"), to: h.child("b"), containerView: h.container.view, goingRight: true) { _ in }
        guard case .animate(let plan) = animator.setup(ctx) else { throw Declined() }
        defer { animator.animationEnded(true) }
        let storage = UnsafeMutablePointer<LayerState>.allocate(capacity: plan.layers.count)
        defer { storage.deallocate() }
        for i in plan.layers.indices { (storage + i).initialize(to: LayerState(frame: h.container.view.bounds, zPosition: Double(i))) }
        animator.evaluate(at: t ?? plan.duration, layers: LayerStates(base: storage, count: plan.layers.count))
        return (0..<plan.layers.count).map { storage[$0] }
    }

    struct Declined: Error {}

    @Test func springSlideEndsWithTheFromViewOneTravelAwayAndTheToViewInPlace() throws {
        let end = try statesAtTime("SpringSlide", nil)
        #expect(end[0].transform == .translation(-336, 0) && end[0].alpha == 0)
        #expect(end[1].transform == .identity && end[1].alpha == 1)
        let start = try statesAtTime("SpringSlide", 0)
        #expect(start[0].transform == .identity && start[0].alpha == 1)
        #expect(start[1].transform == .translation(336, 0) && start[1].alpha == 0)
    }

    @Test func imageZoomEndsWithTheSnapshotOnTheDetailImageAndTheDetailOpaque() throws {
        let end = try statesAtTime("ImageZoom", nil, elements: ["a": [("image", cell)], "b": [("image", detail)]])
        #expect(end.count == 3)
        #expect(end[2].frame == detail && end[1].alpha == 1 && end[1].frame == Rect(x: 0, y: 0, width: 320, height: 480))
    }

    @Test func curlUpAtTheEndHasRolledTheWholePageAway() throws {
        let curl = try descriptor("CurlUp")
        let animator = curl.makeAnimator(parameters: curl.parameters.map(\.defaultValue))
        let h = Harness()
        h.child("b").view.frame = h.container.view.bounds
        let ctx = TransitionContext(from: h.child("a"), to: h.child("b"), containerView: h.container.view, goingRight: true) { _ in }
        guard case .animate(let plan) = animator.setup(ctx) else { Issue.record("CurlUp declined"); return }
        let mesh = Mesh(columns: plan.layers[1].meshColumns, rows: plan.layers[1].meshRows, covering: h.container.view.bounds)
        let states = [LayerState(frame: h.container.view.bounds, zPosition: 0),
                      LayerState(frame: h.container.view.bounds, zPosition: 1, mesh: mesh.vertices)]
        let storage = UnsafeMutablePointer<LayerState>.allocate(capacity: 2)
        defer { storage.deallocate() }
        storage.initialize(from: states, count: 2)
        animator.evaluate(at: plan.duration, layers: LayerStates(base: storage, count: 2))
        #expect(mesh.vertices.allSatisfy { $0.y <= 0 }, "the whole page is above the container's top")
        #expect(storage[1].isHidden)
        #expect(storage[0].frame == h.container.view.bounds && storage[0].alpha == 1, "the view beneath rests")
        animator.animationEnded(true)
    }

    // MARK: ImageZoom: a snapshot of the shared image travels to the detail's as it fades in, 0.3 s

    let cell = Rect(x: 16, y: 120, width: 100, height: 100)
    let detail = Rect(x: 0, y: 60, width: 320, height: 320)

    @Test func imageZoomMovesASnapshotFromTheCellToTheDetailImage() throws {
        let h = try harness("ImageZoom", elements: ["a": [("label", Rect(x: 0, y: 0, width: 10, height: 10)), ("image", cell)],
                                                         "b": [("image", detail)]])
        try h.container.select(named: "b")
        let to = h.child("b").view
        let cellImage = try #require(h.child("a").view.element(named: "image"))
        let detailImage = try #require(to.element(named: "image"))
        // Three layers: from, to, and the travelling snapshot on top.
        #expect(h.container.view.subviews.count == 3)
        let snapshot = try #require(h.container.view.subviews.last)
        #expect(snapshot.name == "image" && snapshot.frame == cell, "t = 0: the snapshot sits on the cell's image")
        #expect(cellImage.isHidden && detailImage.isHidden)
        #expect(to.alpha == 0 && to.frame == h.container.view.bounds)
        #expect(snapshot.zPosition > to.zPosition)
        h.clock.advance(by: 0.15)
        h.container.tick()
        let f = TimingCurve.easeInEaseOut.value(at: 0.5)
        #expect(approx(snapshot.frame.x, cell.x + (detail.x - cell.x) * f))
        #expect(approx(snapshot.frame.width, cell.width + (detail.width - cell.width) * f))
        #expect(approx(to.alpha, f))
        h.container.runUntilIdle(advancing: h.clock)
        #expect(snapshot.superview == nil, "the snapshot is removed")
        #expect(!cellImage.isHidden && !detailImage.isHidden, "both images are shown again")
        #expect(h.reports.first?.duration == 0.3)
        h.expectConsistent()
    }

    @Test func imageZoomBackIsTheMirrorImage() throws {
        let h = try harness("ImageZoom", elements: ["a": [("image", detail)], "b": [("image", cell)]])
        try h.container.select(named: "b")
        h.clock.advance(by: 0.15)
        h.container.tick()
        let detailView = h.child("a").view, grid = h.child("b").view
        let f = TimingCurve.easeInEaseOut.value(at: 0.5)
        #expect(approx(detailView.alpha, 1 - f), "the detail view fades out")
        #expect(grid.alpha == 1 && grid.zPosition < detailView.zPosition, "over the grid")
        h.container.runUntilIdle(advancing: h.clock)
        h.expectConsistent()
    }

    @Test func imageZoomDeclinesWhenTheViewsShareNoElementAndTheDefaultRuns() throws {
        let h = try harness("ImageZoom", elements: ["a": [("image", cell)], "b": [("photo", detail)]])
        try h.switchTo("b")
        let report = try #require(h.reports.first)
        #expect(report.animator == "default" && report.source == .builtin)
        #expect(report.reason == "ImageZoom declined: the from view 'a' and the to view 'b' share no named element; the built-in default ran instead")
        h.expectConsistent()
    }
}
