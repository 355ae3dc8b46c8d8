import AnimatorABI
import EmbedABI
import Foundation
import Testing
import TestSupport
@testable import Embedding
import HostContainer

/// The sampler, the host glue every host used to write again: layers back
/// to front with their resting frames and the map a flat layer is drawn
/// through (the same as segue_layer_project sees it), meshes in storage of
/// its own, and a takeover followed without the program reading the plan.
@Suite(.serialized) struct LibsegueSamplerTests {
    /// A folder holding copies of the bundled `names`.
    static func bundled(_ names: String...) throws -> String {
        let folder = makeTemporaryFolder("sampler-plugins")
        for name in names { try FileManager.default.copyItem(atPath: Paths.plugin(name), toPath: folder + "/lib\(name).so") }
        return folder
    }

    /// Runs `body` with a transition of `animator` begun in a player of
    /// `folder`'s plugins and a sampler of it, then frees the three, the sampler first.
    static func withSampler(_ folder: String, _ animator: String,
                            _ body: (_ transition: OpaquePointer, _ sampler: OpaquePointer) throws -> Void) throws {
        let player = try LibseguePromiseTests.player(folder)
        defer { seguePlayerFree(player) }
        let transition = try LibseguePromiseTests.begin(player, animator)
        defer { segueTransitionFree(transition) }
        var made: OpaquePointer?
        #expect(segueSamplerNew(transition, &made) == SEGUE_OK)
        let sampler = try #require(made)
        defer { segueSamplerFree(sampler) }
        try body(transition, sampler)
    }

    /// Every layer of the sampler's last sample, back to front.
    static func layers(_ sampler: OpaquePointer, count: UInt32) -> [segue_drawn_layer_t] {
        (0..<count).map { index in
            var layer = segue_drawn_layer_t()
            layer.struct_size = UInt32(MemoryLayout<segue_drawn_layer_t>.size)
            #expect(segueSamplerLayer(sampler, index, &layer) == SEGUE_OK)
            return layer
        }
    }

    /// Samples at `t` until the plugin has answered (10 s at most).
    static func sample(_ sampler: OpaquePointer, at t: Double) -> (segue_status_t, UInt32) {
        let (status, count, _) = sampleSayingChange(sampler, at: t)
        return (status, count)
    }

    /// ``sample(_:at:)``, and whether a sample said the plan changed.
    static func sampleSayingChange(_ sampler: OpaquePointer, at t: Double) -> (segue_status_t, UInt32, Bool) {
        var count: UInt32 = 0
        var status = SEGUE_LATE
        var changed = false, changedNow = false
        let deadline = Date().addingTimeInterval(10)
        repeat {
            status = segueSamplerSample(sampler, t, &count, &changedNow)
            changed = changed || changedNow
            if status == SEGUE_LATE { usleep(1_000) }  // leaves a processor to the worker it waits for
        } while status == SEGUE_LATE && Date() < deadline
        return (status, count, changed)
    }

    @Test func flatLayersComeBackToFrontWithTheMapTheProjectionSees() throws {
        try LibsegueSamplerTests.withSampler(try Self.bundled("SpringSlide"), "SpringSlide") { transition, sampler in
            let (status, count) = Self.sample(sampler, at: 0.05)
            #expect(status == SEGUE_OK && count == 2)
            let layers = Self.layers(sampler, count: count)
            #expect(layers.map(\.state.z_position) == layers.map(\.state.z_position).sorted(), "back to front")
            #expect(Set(layers.map(\.request.kind)) == [SEGUE_LAYER_FROM_VIEW.rawValue, SEGUE_LAYER_TO_VIEW.rawValue])
            var bounds = segue_rect_t(x: 0, y: 0, width: 390, height: 844)
            for var layer in layers {
                #expect(!layer.has_mesh && layer.visible == (layer.state.alpha > 0) && layer.visible, "both seen early on: \(layer.state.alpha)")
                #expect(layer.resting_frame.width == 390 && layer.resting_frame.height == 844, "a view rests at its frame")
                // The map takes the content's corners at rest where the projection puts the layer's corners.
                var xy = [Float](repeating: 0, count: 8), uv = [Float](repeating: 0, count: 8)
                var request = layer.request
                #expect(segueLayerProject(&layer.state, &request, &bounds, 1, &xy, &uv, 4, nil, nil) == 4)
                let m = withUnsafeBytes(of: layer.map) { Array($0.bindMemory(to: Double.self)) }
                let r = layer.resting_frame
                for (i, (x, y)) in [(r.x, r.y), (r.x + r.width, r.y), (r.x, r.y + r.height), (r.x + r.width, r.y + r.height)].enumerated() {
                    let w = m[6] * x + m[7] * y + m[8]
                    let seen = ((m[0] * x + m[1] * y + m[2]) / w, (m[3] * x + m[4] * y + m[5]) / w)
                    #expect(abs(seen.0 - Double(xy[2 * i])) < 0.01 && abs(seen.1 - Double(xy[2 * i + 1])) < 0.01,
                            "corner \(i): \(seen) against \(xy[2 * i]), \(xy[2 * i + 1])")
                }
            }
            // At rest at the end: the to view's map is the identity.
            let (_, endCount) = Self.sample(sampler, at: 1)
            let to = try #require(Self.layers(sampler, count: endCount).first { $0.request.kind == SEGUE_LAYER_TO_VIEW.rawValue })
            let identity: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1]
            #expect(zip(withUnsafeBytes(of: to.map) { Array($0.bindMemory(to: Double.self)) }, identity).allSatisfy { abs($0 - $1) < 1e-6 })
            _ = segueTransitionFinish(transition, true, nil)
        }
    }

    @Test func aMeshLayerComesWithItsVerticesInTheSamplersStorage() throws {
        try LibsegueSamplerTests.withSampler(try Self.bundled("CurlUp"), "CurlUp") { transition, sampler in
            let (status, count) = Self.sample(sampler, at: 0.2)
            #expect(status == SEGUE_OK)
            let page = try #require(Self.layers(sampler, count: count).first { $0.has_mesh }, "CurlUp's page has a mesh")
            let needed = (page.request.mesh_columns + 1) * (page.request.mesh_rows + 1)
            #expect(page.state.mesh != nil && page.state.mesh_vertex_count >= needed)
            let lifted = (0..<Int(needed)).contains { page.state.mesh![$0].z > 0.5 }
            #expect(lifted, "the page is curling a fifth of a second in")
            _ = segueTransitionFinish(transition, true, nil)
        }
    }

    /// A host that cannot draw meshes draws a mesh's layer flat: its map is
    /// the layer's frame and transform, as for a flat layer.
    @Test func aMeshLayerAlsoHasTheMapOfItsFlatSelf() throws {
        let (folder, _) = try CPlugin.fixture("sampler-mesh-frame", "HUGE_FRAME=780")
        try LibsegueSamplerTests.withSampler(folder, "TestFade") { transition, sampler in
            let (status, count) = Self.sample(sampler, at: 0.1)
            #expect(status == SEGUE_OK)
            let meshed = Self.layers(sampler, count: count).filter(\.has_mesh)
            #expect(meshed.count == 2, "the fixture's two meshed layers")
            for layer in meshed {
                // Its frame is (0, 0, 780, 780) against a 390 x 844 view at rest: scaled 2 across, 780/844 down.
                let m = withUnsafeBytes(of: layer.map) { Array($0.bindMemory(to: Double.self)) }
                let expected = [2, 0, 0, 0, 780.0 / 844, 0, 0, 0, 1]
                #expect(zip(m, expected).allSatisfy { abs($0 - $1) < 1e-9 }, "map \(m)")
            }
            _ = segueTransitionFinish(transition, true, nil)
        }
    }

    /// A plugin that crashes mid-switch: the sampler reads the default's
    /// plan itself, and the program never sees SEGUE_DEFAULT_TOOK_OVER.
    @Test func aTakeoverIsFollowedWithoutTheProgram() throws {
        let (folder, _) = try CPlugin.fixture("sampler-crash", "FAULT_CRASH_EVALUATE")
        try LibsegueSamplerTests.withSampler(folder, "TestFade") { transition, sampler in
            var statuses: Set<Int32> = []
            var changes: [Double] = []
            var t = 0.0
            while t <= 0.5 {
                let (status, _, changed) = Self.sampleSayingChange(sampler, at: t)
                statuses.insert(status.rawValue)
                if changed { changes.append(t) }
                t += 1.0 / 60
            }
            // The samples are held while the crash is not yet seen (a loaded machine may run the worker late):
            // on at the end until the takeover is, 10 s at most.
            let deadline = Date().addingTimeInterval(10)
            while changes.count < 2 && Date() < deadline {
                let (status, _, changed) = Self.sampleSayingChange(sampler, at: 0.5)
                statuses.insert(status.rawValue)
                if changed { changes.append(0.5) }
            }
            #expect(!statuses.contains(SEGUE_DEFAULT_TOOK_OVER.rawValue) && statuses.allSatisfy { $0 >= 0 }, "\(statuses)")
            #expect(changes.count == 2 && changes.first == 0, "the first sample and the takeover say the plan changed: \(changes)")
            #expect(LibseguePromiseTests.plan(transition).animator == "default", "the default finished it")
            let (_, count) = Self.sample(sampler, at: 0.4)
            let layers = Self.layers(sampler, count: count)
            #expect(count == 2 && layers.allSatisfy { !$0.has_mesh }, "the default's own two layers: \(layers.map(\.request.kind))")
            _ = segueTransitionFinish(transition, true, nil)
        }
    }

    /// What the fell-back events named, heard by `fellBackNames`.
    nonisolated(unsafe) static var named: [UnsafeMutableRawPointer?] = []

    /// A fallback event names its transition while the program holds it, and
    /// never once the program freed it: its address may be another's by then.
    @Test(arguments: [false, true])
    func aFallbackNamesItsTransitionOnlyWhileTheProgramHoldsIt(freedFirst: Bool) throws {
        let (folder, _) = try CPlugin.fixture("sampler-freed-crash", "FAULT_CRASH_EVALUATE")
        Self.named = []
        let player = try LibseguePromiseTests.player(folder) { options in
            options.on_event = { _, event in
                guard let event, event.pointee.kind == SEGUE_EVENT_FELL_BACK.rawValue else { return }
                LibsegueSamplerTests.named.append(UnsafeMutableRawPointer(event.pointee.transition))
            }
        }
        defer { seguePlayerFree(player) }
        let transition = try LibseguePromiseTests.begin(player, "TestFade")
        var made: OpaquePointer?
        #expect(segueSamplerNew(transition, &made) == SEGUE_OK)
        let sampler = try #require(made)
        var t = 0.0
        var statuses: [Int32] = []
        while t <= 0.5 && LibseguePromiseTests.plan(transition).animator != "default" {
            statuses.append(Self.sampleSayingChange(sampler, at: t).0.rawValue)
            t += 1.0 / 60
        }
        // The samples are held while the crash is not yet seen (a loaded machine may run the worker late):
        // on at the end until the takeover is, 10 s at most, as aTakeoverIsFollowedWithoutTheProgram does.
        let crashSeen = Date().addingTimeInterval(10)
        while LibseguePromiseTests.plan(transition).animator != "default" && Date() < crashSeen {
            statuses.append(Self.sampleSayingChange(sampler, at: 0.5).0.rawValue)
        }
        #expect(LibseguePromiseTests.plan(transition).animator == "default",
                "the fixture crashed and the default took over: \(LibseguePromiseTests.plan(transition)), samples \(Set(statuses))")
        if freedFirst {
            segueSamplerFree(sampler)
            segueTransitionFree(transition)
        }
        let deadline = Date().addingTimeInterval(10)
        while Self.named.isEmpty && Date() < deadline {
            var poller = pollfd(fd: seguePlayerFD(player), events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 100) > 0 { #expect(seguePlayerDispatch(player) == SEGUE_OK) }
        }
        #expect(Self.named == [freedFirst ? nil : UnsafeMutableRawPointer(transition)], "\(Self.named) for \(transition)")
        if !freedFirst {
            segueSamplerFree(sampler)
            segueTransitionFree(transition)
        }
    }

    /// A program built against API 1.4 (segue_drawn_layer_t of 344 bytes, its
    /// state without ABI 1.4's look) gets 1.4's layout: the same state, then
    /// visible, has_mesh and map where 1.4 had them; nothing past 344 bytes.
    @Test func aProgramBuiltAgainstAPI14GetsItsOwnLayout() throws {
        try LibsegueSamplerTests.withSampler(try Self.bundled("SpringSlide"), "SpringSlide") { transition, sampler in
            let (status, count) = Self.sample(sampler, at: 0.3)
            #expect(status == SEGUE_OK && count == 2)
            let today = Self.layers(sampler, count: count)
            for (index, now) in today.enumerated() {
                var bytes = [UInt8](repeating: 0xAB, count: MemoryLayout<segue_drawn_layer_t>.size)
                bytes.withUnsafeMutableBytes { raw in
                    raw.storeBytes(of: UInt32(344), as: UInt32.self)
                    #expect(segueSamplerLayer(sampler, UInt32(index), raw.baseAddress!.assumingMemoryBound(to: segue_drawn_layer_t.self)) == SEGUE_OK)
                }
                func load<T>(_ offset: Int, _: T.Type) -> T { bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) } }
                #expect(load(56, UInt32.self) == 208, "the state's struct_size says 1.3's")
                #expect(load(56 + 8, Double.self) == now.state.frame.x && load(56 + 168, Double.self) == now.state.alpha)
                #expect(load(264, Bool.self) == now.visible && load(265, Bool.self) == now.has_mesh)
                let map = (0..<9).map { load(272 + 8 * $0, Double.self) }
                #expect(map == withUnsafeBytes(of: now.map) { Array($0.bindMemory(to: Double.self)) })
                #expect(bytes[344...].allSatisfy { $0 == 0xAB }, "nothing written past the program's 344 bytes")
            }
        }
    }

    @Test func badArgumentsGetAStatusAndAMessage() throws {
        var made: OpaquePointer?
        #expect(segueSamplerNew(nil, &made) == SEGUE_E_INVALID_ARGUMENT && made == nil)
        #expect(String(cString: segueErrorMessage()!) == "segue_sampler_new: transition is NULL")
        var count: UInt32 = 7
        #expect(segueSamplerSample(nil, 0, &count, nil) == SEGUE_E_INVALID_ARGUMENT && count == 0)
        var layer = segue_drawn_layer_t()
        layer.struct_size = 8
        let player = try LibseguePromiseTests.player(try Self.bundled("SpringSlide"))
        defer { seguePlayerFree(player) }
        let transition = try LibseguePromiseTests.begin(player, "SpringSlide")
        defer { segueTransitionFree(transition) }
        #expect(segueSamplerNew(transition, &made) == SEGUE_OK)
        let sampler = try #require(made)
        defer { segueSamplerFree(sampler) }
        #expect(segueSamplerLayer(sampler, 0, &layer) == SEGUE_E_INVALID_ARGUMENT)
        #expect(String(cString: segueErrorMessage()!).hasPrefix("segue_sampler_layer: layer.struct_size is 8"))
        layer.struct_size = UInt32(MemoryLayout<segue_drawn_layer_t>.size)
        #expect(segueSamplerLayer(sampler, 0, &layer) == SEGUE_E_NOT_FOUND, "nothing sampled yet")
        _ = segueTransitionFinish(transition, true, nil)
        #expect(segueSamplerSample(sampler, 0.1, &count, nil) == SEGUE_E_ENDED && count == 0)
    }
}

/// A page's shading from libsegue, the renderer's own: the back's colour,
/// each vertex's light, and the GLSL of both.
@Suite struct LibseguePageShadingTests {
    @Test func theBackIsTheRenderersBack() {
        for (r, g, b) in [(1.0, 0.0, 0.0), (0.2, 0.6, 0.9), (1.0, 1.0, 1.0), (0.0, 0.0, 0.0)] {
            var rgba: [Float] = [Float(r), Float(g), Float(b), 0.5], out = [Float](repeating: 0, count: 4)
            seguePageBack(&rgba, &out)
            let grey = 0.72 + 0.25 * (0.3 * r + 0.59 * g + 0.11 * b)
            let expected = [0.35 * r + 0.65 * grey, 0.35 * g + 0.65 * grey, 0.35 * b + 0.65 * grey]
            #expect(zip(out.prefix(3), expected).allSatisfy { abs(Double($0) - $1) < 1e-6 } && out[3] == 0.5, "\(out)")
        }
    }

    @Test func aFlatPageIsLitFullyAndACurlDarkens() throws {
        try LibsegueSamplerTests.withSampler(try LibsegueSamplerTests.bundled("CurlUp"), "CurlUp") { transition, sampler in
            var shades = [Float](repeating: -1, count: 65 * 65)
            for (t, curled) in [(0.0, false), (0.2, true)] {
                let (_, count) = LibsegueSamplerTests.sample(sampler, at: t)
                var page = try #require(LibsegueSamplerTests.layers(sampler, count: count).first { $0.has_mesh })
                let written = Int(segueMeshLight(&page.state, &page.request, false, &shades, UInt32(shades.count)))
                #expect(written == Int((page.request.mesh_columns + 1) * (page.request.mesh_rows + 1)))
                let lit = shades.prefix(written)
                #expect(lit.allSatisfy { $0 >= 0.3 && $0 <= 1 })
                #expect(curled ? lit.contains { $0 < 0.9 } : lit.allSatisfy { $0 == 1 }, "t = \(t): \(lit.min() ?? -1)")
                #expect(segueMeshLight(&page.state, &page.request, false, &shades, 4) == 0, "too small a buffer")
            }
            _ = segueTransitionFinish(transition, true, nil)
        }
    }

    @Test func theGLSLDefinesBothFunctions() {
        let source = String(cString: seguePageShadingGLSL())
        #expect(source.contains("vec4 segue_page_back(vec4 c)") && source.contains("vec4 segue_page_lit(vec4 c, float shade)"))
        #expect(source.contains("0.72 + 0.25 * dot(straight, vec3(0.3, 0.59, 0.11))") && !source.contains("#version"))
    }
}

/// The edge pan's release rule from libsegue is the container's.
@Suite struct LibsegueEdgePanTests {
    @Test(arguments: [(100.0, 0.0), (200.0, 0.0), (250.0, 0.0), (50.0, 500.0), (350.0, -500.0), (195.0, 389.0), (10.0, 391.0), (-5.0, 0.0)])
    func aReleaseFinishesAsTheContainersGestureSays(_ translation: Double, _ velocity: Double) {
        let rule = EdgePanGesture(width: 390)
        #expect(segueEdgePanFinishes(translation, velocity, 390) == rule.finishes(translation: translation, velocity: velocity))
    }

    @Test func theRuleIsFlickThenHalfWay() {
        #expect(segueEdgePanFinishes(50, 400, 390), "a flick forward finishes early")
        #expect(!segueEdgePanFinishes(350, -400, 390), "a flick back cancels late")
        #expect(segueEdgePanFinishes(200, 0, 390) && !segueEdgePanFinishes(190, 0, 390), "else past half way")
        #expect(!segueEdgePanFinishes(.nan, 0, 390) && !segueEdgePanFinishes(300, 0, 0))
    }
}
