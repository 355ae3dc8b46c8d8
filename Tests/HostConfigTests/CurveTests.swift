import Foundation
@testable import HostConfig
@testable import PluginHost
import HostTestSupport
import TestSupport
import Testing
@testable import Timing

@testable import HostContainer

/// Named curves (ABI 1.1): a config's own curves reach plugins through the
/// context, and drive the built-in default too.
struct CurveTests {
    static let snappy = TimingCurve(x1: 0.05, y1: 0.9, x2: 0.1, y2: 1.05)

    func config(_ rules: String) throws -> SegueConfig {
        try SegueConfig.parse(Data(#"{"children": ["a", "b"], "curves": {"snappy": [0.05, 0.9, 0.1, 1.05]}, "rules": [\#(rules)]}"#.utf8),
                              file: "c.json", baseDirectory: "/")
    }

    /// ImageZoom's snapshot travels by the curve's progress: the control
    /// points crossed the ABI (in this process and in a worker).
    @Test(arguments: [PluginIsolation.none, .process])
    func aConfigsCurveDrivesAPlugin(isolation: PluginIsolation) throws {
        let registry = isolation == .none ? bundledRegistry : AnimatorRegistry(folders: [Paths.binFolder])
        let cell = Rect(x: 16, y: 120, width: 100, height: 100), detail = Rect(x: 0, y: 60, width: 320, height: 320)
        let h = Harness(["a", "b"], elements: ["a": [("image", cell)], "b": [("image", detail)]])
        let delegate = ConfigDrivenDelegate(
            config: try config(#"{"to": "b", "animator": "ImageZoom", "parameters": {"curve": "snappy"}}"#), registry: registry)
        h.delegate = delegate
        try h.container.select(named: "b")
        h.clock.advance(by: 0.06)
        h.container.tick()
        let snapshot = try #require(h.container.view.subviews.last)
        let f = Self.snappy.value(at: 0.2)
        #expect(abs(snapshot.frame.x - (cell.x + (detail.x - cell.x) * f)) < 1e-9, "snappy at t = 0.2 is \(f)")
        #expect(abs(f - TimingCurve.easeInEaseOut.value(at: 0.2)) > 0.3, "and far from the default curve")
        h.container.runUntilIdle(advancing: h.clock)
        #expect(h.reports.first?.parameters.first { $0.name == "curve" }?.value == .string("snappy"))
        h.expectConsistent()
    }

    @Test func aCurveDrivesTheDefaultInsteadOfItsSpring() throws {
        let h = Harness(["a", "b"])
        h.delegate = ConfigDrivenDelegate(
            config: try config(#"{"to": "b", "animator": "default", "parameters": {"curve": "linear", "duration": 0.5}}"#),
            registry: AnimatorRegistry(folders: []))
        try h.container.select(named: "b")
        h.clock.advance(by: 0.125)
        h.container.tick()
        #expect(abs(h.child("b").view.alpha - 0.25) < 1e-9, "linear: a quarter of the way at a quarter of the time")
        h.container.runUntilIdle(advancing: h.clock)
        #expect(h.reports.first?.duration == 0.5)
        h.expectConsistent()
    }

    @Test(arguments: [
        (#"{"curves": {"easeIn": [0, 0, 1, 1]}}"#, "$.curves.easeIn", "a name of your own (not one of the named curves or \"spring\")"),
        (#"{"curves": {"wobbly": [2, 0, 1, 1]}}"#, "$.curves.wobbly", "[x1, y1, x2, y2]: a cubic Bezier's control points, x1 and x2 in [0, 1], y1 and y2 within ±10"),
        (#"{"curves": [1]}"#, "$.curves", "an object of named curves"),
    ])
    func badCurvesAreNamed(json: String, keyPath: String, expected: String) throws {
        #expect {
            _ = try SegueConfig.parse(Data(json.utf8), file: "c.json", baseDirectory: "/")
        } throws: { error in
            (error as? ConfigError).map { $0.keyPath == keyPath && $0.expected == expected } ?? false
        }
    }

    @Test func checkSuggestsACurveName() throws {
        let folder = makeTemporaryFolder()
        try #"{"curves": {"snappy": [0.05, 0.9, 0.1, 1.05]}, "rules": [{"to": "video", "animator": "CurlUp", "parameters": {"curve": "snapy"}}]}"#
            .write(toFile: folder + "/c.json", atomically: false, encoding: .utf8)
        let result = try run(Paths.segue, ["check", "--config", "c.json"], in: folder)
        #expect(result.status == 1)
        #expect(result.out.contains("found \"snapy\" (did you mean 'snappy'?)"), "\(result.out)")
    }

    @Test func aParameterTypeFromANewerABIIsRefusedWithWhatThisHostKnows() throws {
        let (folder, _) = try CPlugin.fixture("future", "FIXTURE_PARAM_TYPE=5")
        let registry = AnimatorRegistry(folders: [folder], isolation: .none)
        #expect(registry.animators.isEmpty)
        #expect(registry.rejections.first?.reason.contains("has unknown type 5; this host (ABI 1.4) knows 0 (number), 1 (integer), 2 (boolean), 3 (choice) and 4 (curve, since 1.1)") == true,
                "\(registry.rejections)")
    }
}

extension CurveTests {
    /// CurlUp's page at mid-curl: a config curve with easeInOut's control points
    /// gives exactly the default's page, and "snappy" another one.
    @Test func aConfigsCurveDrivesCurlUp() throws {
        func page(_ curve: String) throws -> [Vec3] {
            let h = Harness(["a", "b"])
            let config = try SegueConfig.parse(Data(#"""
                {"children": ["a", "b"], "curves": {"snappy": [0.05, 0.9, 0.1, 1.05], "same": [0.42, 0, 0.58, 1]},
                 "rules": [{"to": "b", "animator": "CurlUp", "parameters": {"curve": "\#(curve)"}}]}
                """#.utf8), file: "c.json", baseDirectory: "/")
            h.delegate = ConfigDrivenDelegate(config: config, registry: bundledRegistry)
            try h.container.select(named: "b")
            h.clock.advance(by: 0.12)
            h.container.tick()
            let from = h.child("a").view
            let mesh = try #require(from.mesh, "the page is a mesh mid-curl")
            defer { h.container.runUntilIdle(advancing: h.clock) }
            return Array(mesh.vertices)
        }
        let standard = try page("easeInOut"), same = try page("same"), snappy = try page("snappy")
        #expect(same == standard, "the control points, not the name, decide")
        #expect(snappy != standard)
    }

    // MARK: - Physical springs in a config's curves

    func springConfig(_ rules: String) throws -> SegueConfig {
        try SegueConfig.parse(Data(#"{"children": ["a", "b"], "curves": {"bouncy": {"stiffness": 300, "damping": 12, "mass": 1}}, "rules": [\#(rules)]}"#.utf8),
                              file: "c.json", baseDirectory: "/")
    }

    /// A spring stated physically drives the built-in default: its motion, for as long as it takes to settle.
    @Test func aPhysicalSpringDrivesTheDefaultUntilItSettles() throws {
        let spring = try #require(Spring(stiffness: 300, damping: 12, mass: 1))
        let h = Harness(["a", "b"])
        h.delegate = ConfigDrivenDelegate(config: try springConfig(#"{"to": "b", "animator": "default", "parameters": {"curve": "bouncy"}}"#),
                                          registry: AnimatorRegistry(folders: []))
        try h.container.select(named: "b")
        h.clock.advance(by: 0.1)
        h.container.tick()
        #expect(abs(h.child("b").view.alpha - min(max(spring.value(at: 0.1), 0), 1)) < 1e-9, "the spring's progress at 0.1 s")
        h.container.runUntilIdle(advancing: h.clock)
        #expect(h.reports.first?.duration == spring.duration && h.reports.first?.completed == true, "\(String(describing: h.reports.first))")
        h.expectConsistent()
    }

    /// A plugin's curve parameter takes cubic Beziers: a spring named there falls back, saying why.
    @Test func aPluginsCurveCannotBeAPhysicalSpring() throws {
        let h = Harness(["a", "b"])
        h.delegate = ConfigDrivenDelegate(config: try springConfig(#"{"to": "b", "animator": "CurlUp", "parameters": {"curve": "bouncy"}}"#),
                                          registry: bundledRegistry)
        try h.switchTo("b")
        #expect(h.reports.first?.animator == "default")
        #expect(h.reports.first?.reason.contains(#"CurlUp parameter 'curve': expected a cubic Bezier curve ("bouncy" is a physical spring, which only the built-in default's curve follows)"#) == true,
                "\(h.reports.first?.reason ?? "")")
    }

    @Test(arguments: [
        (#"{"curves": {"s": {"stiffness": 0, "damping": 1, "mass": 1}}}"#, "$.curves.s.stiffness", "a positive number up to 1000000"),
        (#"{"curves": {"s": {"stiffness": 100, "mass": 1}}}"#, "$.curves.s.damping", "a positive number up to 1000000"),
        (#"{"curves": {"s": {"stiffness": 100, "damping": 1, "mass": 1, "bounce": 2}}}"#, "$.curves.s.bounce", "one of the keys 'stiffness', 'damping', 'mass'"),
        (#"{"curves": {"s": {"stiffness": 100, "damping": 0.01, "mass": 1}}}"#, "$.curves.s", "a spring that settles within 60 s (more damping or stiffness, less mass)"),
    ])
    func aSpringThatIsNotOneIsNamed(_ c: (json: String, keyPath: String, expected: String)) {
        #expect(throws: ConfigError.self) { try SegueConfig.parse(Data(c.json.utf8), file: "c.json", baseDirectory: "/") }
        do {
            _ = try SegueConfig.parse(Data(c.json.utf8), file: "c.json", baseDirectory: "/")
        } catch {
            #expect(error.keyPath == c.keyPath && error.expected == c.expected, "\(error)")
        }
    }

}
