import Foundation
import Testing
import TestSupport

@testable import HostContainer
@testable import PluginHost
@testable import Renderer

/// ABI 1.4 in animators: the iris example's clip growing from the pointer,
/// Pop minimizing into the task-bar entry the context names, and both (with
/// the built-in default) rounding and shadowing a window, drawn by Segue's renderer.
struct WindowLookTests {
    static let windowColor = Color(red: 0.9, green: 0.1, blue: 0.1)
    static let window = Rect(x: 170, y: 80, width: 300, height: 200)

    /// A grey desktop with a red window over it (arriving, or leaving), and its context with `anchor`.
    final class Stage {
        let container = View(frame: Rect(x: 0, y: 0, width: 640, height: 360))
        let desktop: ViewController, window: ViewController, context: TransitionContext
        init(appears: Bool, anchor: TransitionAnchor) {
            container.backgroundColor = .white
            let back = View(frame: container.bounds)
            back.backgroundColor = Color(red: 0.5, green: 0.5, blue: 0.5)
            desktop = ViewController(name: "desktop", view: back)
            let front = View(frame: WindowLookTests.window)
            front.backgroundColor = WindowLookTests.windowColor
            window = ViewController(name: "window", view: front)
            container.addSubview(desktop.view)
            container.addSubview(window.view)
            let (from, to) = appears ? (desktop, window) : (window, desktop)
            context = TransitionContext(kind: appears ? .appear : .disappear, from: from, to: to, containerView: container, goingRight: true,
                                        frames: (from.view.frame, to.view.frame)) { _ in }
            context.anchor = anchor
        }
    }

    /// Renders `animator` playing `stage` at each fraction of its duration.
    func frames(_ animator: any TransitionAnimator, _ stage: Stage, at fractions: [Double], name: String) throws -> [Canvas] {
        let t = try ActiveTransition.begin(animator, context: stage.context).get()
        defer { t.tearDown(); t.animator.animationEnded(true) }
        var canvases: [Canvas] = []
        for (k, f) in fractions.enumerated() {
            t.apply(at: t.duration * f)
            #expect(t.failure == nil, "\(t.failure ?? "")")
            let canvas = ViewRenderer(scale: 1).render(stage.container)
            if let folder = ProcessInfo.processInfo.environment["SEGUE_PICTURES"] {
                try Data(PNG.encode(canvas)).write(to: URL(fileURLWithPath: "\(folder)/\(name)-\(k).png"))
            }
            canvases.append(canvas)
        }
        return canvases
    }

    func isWindow(_ c: Color) -> Bool { c.red > 0.8 && c.green < 0.25 }

    func animator(_ file: String, _ name: String) throws -> any TransitionAnimator {
        let registry = AnimatorRegistry(folders: [(file as NSString).deletingLastPathComponent], isolation: .none)
        let d = try #require(registry.animator(named: name), "\(registry.rejections)")
        return d.makeAnimator(parameters: d.parameters.map(\.defaultValue))
    }

    @Test func theIrisRevealsTheWindowThroughACircleGrowingFromThePointer() throws {
        let folder = makeTemporaryFolder("iris")
        let file = try CPlugin.build(Paths.packageRoot + "/Examples/iris-animator/iris.c", name: "Iris", into: folder)
        let pointer = (x: 220.0, y: 120.0)
        let stage = Stage(appears: true, anchor: TransitionAnchor(point: pointer))
        let canvases = try frames(try animator(file, "Iris"), stage, at: [0.35, 1], name: "iris")
        let mid = canvases[0]
        // Around the pointer the window shows; its far corner, not yet: the desktop's grey.
        #expect(isWindow(mid.color(x: 220, y: 120)) && isWindow(mid.color(x: 240, y: 140)))
        let far = mid.color(x: 460, y: 270)
        #expect(abs(far.red - 0.5) < 0.05 && abs(far.green - 0.5) < 0.05, "\(far)")
        // The circle's edge is anti-aliased: some pixel along the row through the pointer is a blend.
        let row = (221..<470).map { mid.color(x: $0, y: 120) }
        #expect(row.contains { $0.red > 0.55 && $0.red < 0.85 && $0.green > 0.15 && $0.green < 0.45 }, "a blended edge pixel")
        // At the end the whole window shows, and at rest it has no clip left.
        #expect(isWindow(canvases[1].color(x: 460, y: 270)) && stage.window.view.clip == nil)
    }

    @Test func popMinimizesIntoTheTargetRectangleRoundedAndShadowed() throws {
        let entry = Rect(x: 20, y: 320, width: 40, height: 30)
        let stage = Stage(appears: false, anchor: TransitionAnchor(rect: entry))
        let canvases = try frames(try animator(Paths.plugin("Pop"), "Pop"), stage, at: [0.2, 0.8], name: "pop-minimize")
        func redCentre(_ c: Canvas) -> (Double, Double, Int) {
            var (sx, sy, n) = (0.0, 0.0, 0)
            for y in 0..<c.height {
                for x in 0..<c.width where isWindow(c.color(x: x, y: y)) {
                    sx += Double(x)
                    sy += Double(y)
                    n += 1
                }
            }
            return (sx / Double(max(n, 1)), sy / Double(max(n, 1)), n)
        }
        let (early, late) = (redCentre(canvases[0]), redCentre(canvases[1]))
        let target = (entry.x + entry.width / 2, entry.y + entry.height / 2)
        func distance(_ p: (Double, Double, Int)) -> Double {
            let (dx, dy) = (p.0 - target.0, p.1 - target.1)
            return (dx * dx + dy * dy).squareRoot()
        }
        #expect(late.2 < early.2 && distance(late) < distance(early) / 2, "the window shrinks towards the entry: \(early) then \(late)")
        // Early on it is rounded (its top-left corner pixel is not the window's) and casts a shadow below it.
        let plain = Stage(appears: false, anchor: .none)
        let t = try ActiveTransition.begin(try animator(Paths.plugin("Pop"), "Pop"), context: plain.context).get()
        t.apply(at: t.duration * 0.1)
        let layer = plain.window.view
        #expect(layer.cornerRadius > 0 && layer.shadow != nil && layer.masksToBounds)
        t.tearDown()
        #expect(layer.cornerRadius == 0 && layer.shadow == nil, "the look is taken back at the end")
        t.animator.animationEnded(true)
    }

    @Test func theBuiltInDefaultRoundsAndShadowsAWindowButNotASwitch() throws {
        let stage = Stage(appears: true, anchor: .none)
        let t = try ActiveTransition.begin(DefaultAnimator.make(), context: stage.context).get()
        t.apply(at: t.duration * 0.3)
        #expect(stage.window.view.cornerRadius > 0 && stage.window.view.shadow != nil)
        t.tearDown()
        t.animator.animationEnded(true)
        // A switch: neither.
        let container = View(frame: Rect(x: 0, y: 0, width: 640, height: 360))
        let a = ViewController(name: "a", view: View(frame: container.bounds)), b = ViewController(name: "b", view: View(frame: container.bounds))
        container.addSubview(a.view)
        let context = TransitionContext(from: a, to: b, containerView: container, goingRight: true) { _ in }
        let s = try ActiveTransition.begin(DefaultAnimator.make(), context: context).get()
        s.apply(at: s.duration * 0.3)
        #expect(a.view.cornerRadius == 0 && a.view.shadow == nil && b.view.shadow == nil)
        s.tearDown()
        s.animator.animationEnded(true)
    }
}
