import AnimatorABI
import TestSupport
import Testing
@testable import PluginRuntime
@testable import Timing

/// The trust boundary, fed what a hostile plugin or a corrupted worker could
/// write: nothing it reads is followed as a pointer or trusted as a size, and
/// text comes out escaped.
@Suite struct BoundaryTests {
    /// A layer state as the host fills it, with a mesh of `vertices` the host owns.
    private func restingState(mesh: UnsafeMutablePointer<segue_vec3_t>, vertices: Int) -> segue_layer_state_t {
        var state = segue_layer_state_t()
        state.struct_size = UInt32(MemoryLayout<segue_layer_state_t>.size)
        state.alpha = 1
        state.mesh = mesh
        state.mesh_vertex_count = UInt32(vertices)
        return state
    }

    private static let hiddenOffset = MemoryLayout<segue_layer_state_t>.offset(of: \segue_layer_state_t.hidden)!

    @Test func aPluginInThisProcessCannotRedirectTheMeshOrStoreANonBooleanHidden() {
        let mesh = UnsafeMutablePointer<segue_vec3_t>.allocate(capacity: 4)
        defer { mesh.deallocate() }
        let states = UnsafeMutablePointer<segue_layer_state_t>.allocate(capacity: 2)
        defer { states.deallocate() }
        states.initialize(repeating: restingState(mesh: mesh, vertices: 4), count: 2)
        PluginBoundary.evaluateInPlace(states, count: 2) {
            // What the plugin writes: its values, and a pointer, a count and a byte it may not set.
            states[0].alpha = 0.25
            states[1].frame.x = 12
            states[1].mesh = UnsafeMutablePointer(bitPattern: 0x10)
            states[1].mesh_vertex_count = 1 << 30
            UnsafeMutableRawPointer(states + 1).storeBytes(of: UInt8(7), toByteOffset: Self.hiddenOffset, as: UInt8.self)
        }
        #expect(states[0].alpha == 0.25 && states[1].frame.x == 12, "what the plugin may set is kept")
        #expect(states[1].mesh == mesh && states[1].mesh_vertex_count == 4, "the host's mesh again")
        #expect(UnsafeRawPointer(states + 1).load(fromByteOffset: Self.hiddenOffset, as: UInt8.self) == 1, "hidden is 0 or 1")
        #expect(UnsafeRawPointer(states).load(fromByteOffset: Self.hiddenOffset, as: UInt8.self) == 0)
    }

    @Test func layerStatesFromAWorkerAreCopiedMemberByMemberIntoTheHostsOwn() throws {
        let memory = try #require(SharedMemory(size: WorkerLayout.size))
        let hostMesh = UnsafeMutablePointer<segue_vec3_t>.allocate(capacity: 4)
        defer { hostMesh.deallocate() }
        hostMesh.initialize(repeating: segue_vec3_t(), count: 4)
        var target = restingState(mesh: hostMesh, vertices: 4)

        // The worker's answer: values, a forged pointer and count, a hidden byte of 9, and more vertices than the host has.
        var answer = restingState(mesh: UnsafeMutablePointer(bitPattern: 0x10)!, vertices: 1 << 30)
        answer.alpha = 0.5
        answer.z_position = 3
        (memory.base + WorkerLayout.state(0)).storeBytes(of: answer, as: segue_layer_state_t.self)
        (memory.base + WorkerLayout.state(0)).storeBytes(of: UInt8(9), toByteOffset: Self.hiddenOffset, as: UInt8.self)
        let vertices = (memory.base + WorkerLayout.mesh(0)).bindMemory(to: segue_vec3_t.self, capacity: 5)
        for i in 0..<5 { vertices[i] = segue_vec3_t(x: Double(i), y: 1, z: 2) }

        PluginBoundary.takeLayerStates(from: memory, into: &target, count: 1)
        #expect(target.alpha == 0.5 && target.z_position == 3)
        #expect(target.mesh == hostMesh && target.mesh_vertex_count == 4)
        #expect(withUnsafeBytes(of: target) { $0[Self.hiddenOffset] } == 1)
        #expect((0..<4).map { hostMesh[$0].x } == [0, 1, 2, 3], "as many vertices as the host's mesh has")
    }

    /// A frame a worker evaluated ahead is read where the host's own layout
    /// of the frames puts it (WorkerLayout.AheadFrames, from the plan's
    /// meshes), member by member, its mesh no longer than the plan's.
    @Test func aFrameEvaluatedAheadIsCopiedFromWhereTheHostsLayoutPutsIt() throws {
        let memory = try #require(SharedMemory(size: WorkerLayout.size))
        let frames = WorkerLayout.AheadFrames(vertices: [0, 4])
        #expect(frames.capacity == WorkerLayout.aheadFrames && frames.stride % 64 == 0)
        #expect(frames.mesh(1, 1) == frames.state(1, 0) + 2 * WorkerLayout.stateStride, "layer 1's mesh after the frame's two states")
        let hostMesh = UnsafeMutablePointer<segue_vec3_t>.allocate(capacity: 4)
        defer { hostMesh.deallocate() }
        hostMesh.initialize(repeating: segue_vec3_t(), count: 4)
        var flat = restingState(mesh: hostMesh, vertices: 0)
        flat.mesh = nil
        var targets = [flat, restingState(mesh: hostMesh, vertices: 4)]
        for frame in 0..<2 {
            for layer in 0..<2 {
                var answer = restingState(mesh: UnsafeMutablePointer(bitPattern: 0x10)!, vertices: 1 << 30)
                answer.alpha = Double(frame * 10 + layer) / 100
                (memory.base + frames.state(frame, layer)).storeBytes(of: answer, as: segue_layer_state_t.self)
            }
            let vertices = (memory.base + frames.mesh(frame, 1)).bindMemory(to: segue_vec3_t.self, capacity: 5)
            for i in 0..<5 { vertices[i] = segue_vec3_t(x: Double(frame * 10 + i), y: 1, z: 2) }
        }
        PluginBoundary.takeLayerStates(from: memory, frame: 1, of: frames, into: &targets, count: 2)
        #expect(targets[0].alpha == 0.1 && targets[1].alpha == 0.11, "frame 1's states: \(targets.map(\.alpha))")
        #expect(targets[0].mesh == nil && targets[1].mesh == hostMesh && targets[1].mesh_vertex_count == 4)
        #expect((0..<4).map { hostMesh[$0].x } == [10, 11, 12, 13], "frame 1's vertices, as many as the plan's")
        PluginBoundary.takeLayerStates(from: memory, frame: frames.capacity, of: frames, into: &targets, count: 2)
        #expect(targets[1].alpha == 0.11, "a frame past the area is not read")
    }

    @Test func aPlanIsReadFromACopyAndEachBrokenRuleIsNamed() {
        func read(_ result: segue_setup_result_t, _ change: (inout segue_plan_t) -> Void) -> PluginBoundary.Plan {
            var plan = segue_plan_t()
            plan.duration = 0.5
            change(&plan)
            return withUnsafeBytes(of: &plan) { PluginBoundary.plan(result: result.rawValue, copyingFrom: $0.baseAddress!) }
        }
        #expect(read(SEGUE_SETUP_ANIMATE) { $0.layer_count = UInt32(SEGUE_MAX_LAYERS) + 1 }
                == .invalid("layer_count is \(SEGUE_MAX_LAYERS + 1), at most \(SEGUE_MAX_LAYERS) are allowed"))
        #expect(read(SEGUE_SETUP_ANIMATE) { $0.layer_count = 1; $0.layers.0.kind = 42 }
                == .invalid("layers[0].kind is 42, not a segue_layer_kind_t value"))
        #expect(read(SEGUE_SETUP_ANIMATE) { $0.hidden_count = 1; $0.hidden.0.side = 2 }
                == .invalid("hidden[0].side is 2, not a segue_side_t value"))
        let animate = read(SEGUE_SETUP_ANIMATE) {
            $0.layer_count = 2
            $0.layers.0.kind = UInt32(SEGUE_LAYER_TO_ELEMENT_SNAPSHOT.rawValue)
            $0.layers.0.element = 3
            $0.layers.1 = segue_layer_request_t(kind: UInt32(SEGUE_LAYER_FROM_VIEW.rawValue), element: 0, mesh_columns: 2, mesh_rows: 1)
        }
        #expect(animate == .animate(duration: 0.5, layers: [
            .init(kind: .snapshot(.init(isTo: true, index: 3)), meshColumns: 0, meshRows: 0),
            .init(kind: .fromView, meshColumns: 2, meshRows: 1)], hidden: []))
        let declined = read(SEGUE_SETUP_DECLINE) { plan in
            withUnsafeMutableBytes(of: &plan.decline_reason) { $0.copyBytes(from: Array("too\u{1B}[2Jwide".utf8)) }
        }
        #expect(declined == .decline(reason: "too\\u{1B}[2Jwide"))
        #expect(read(SEGUE_SETUP_DECLINE) { _ in } == .decline(reason: "(no reason given)"))
        #expect(read(segue_setup_result_t(rawValue: 7)) { _ in }
                == .decline(reason: "setup returned 7, which is neither SEGUE_SETUP_ANIMATE nor SEGUE_SETUP_DECLINE"))
        #expect(!read(SEGUE_SETUP_DECLINE) { _ in }.owesEnd && read(SEGUE_SETUP_ANIMATE) { $0.layer_count = 99 }.owesEnd)
    }

    @Test func aScannersAnswerIsBoundedByItsSlotAndValidatedAgain() throws {
        let memory = try #require(SharedMemory(size: WorkerLayout.size))
        func answer(_ bytes: [UInt8], length: UInt32? = nil) -> PluginBoundary.ScanAnswer? {
            let at = WorkerLayout.scanSlot(1)
            memory.base.storeBytes(of: length ?? UInt32(bytes.count), toByteOffset: at, as: UInt32.self)
            _ = memory.write(bytes, at: at + 4, capacity: WorkerLayout.scanSlotCapacity - 4)
            return PluginBoundary.scanAnswer(in: memory, slot: 1)
        }
        let good = AnimatorDescription(id: "com.example.fade/1", name: "Fade", version: "1.0", summary: "fades\u{7}", parameters: [])
        guard case .plugin(let description)? = answer(ScanResult.plugin(PluginDescription(animators: [good])).encoded()) else {
            Issue.record("a valid answer is taken")
            return
        }
        #expect(description.animators[0].summary == "fades\\u{7}", "escaped")

        #expect(answer([1, 2, 3], length: UInt32(WorkerLayout.scanSlotCapacity)) == nil, "a length past the slot is not followed")
        #expect(answer([0xFF, 0xFF]) == nil, "bytes that do not decode")

        let twice = PluginDescription(animators: [good, good])
        guard case .rejected(let why)? = answer(ScanResult.plugin(twice).encoded()) else {
            Issue.record("a description breaking the rules is refused")
            return
        }
        #expect(why.inDescriptor)
        #expect(why.description == "malformed descriptor: animators[1] repeats 'com.example.fade/1' of animators[0]")

        guard case .rejected(let reason)? = answer(ScanResult.rejected(reason: "no\nentry", inDescriptor: false).encoded()) else {
            Issue.record("a rejection is passed on")
            return
        }
        #expect(reason.description == "no\\nentry" && !reason.inDescriptor)
    }

    @Test func theReaderAndTheRulesShareEachLimitAndItsMessage() {
        let long = String(repeating: "a", count: Int(SEGUE_MAX_NAME) + 1)
        let a = AnimatorDescription(id: "com.example.fade/1", name: long, version: "1", summary: "", parameters: [])
        #expect(PluginBoundary.validated(PluginDescription(animators: [a])).failureText
                == "malformed descriptor: animators[0].name is longer than \(SEGUE_MAX_NAME) bytes (the most this ABI allows)")
        #expect(PluginBoundary.validated(PluginDescription(animators: [])).failureText
                == "malformed descriptor: " + PluginBoundary.Limit.animatorCount(0)!)
        let choice = ParameterDescriptor(name: "axis", explanation: "", kind: .choice([]), defaultValue: 0, minimum: 0, maximum: 0)
        let b = AnimatorDescription(id: "com.example.fade/1", name: "Fade", version: "1", summary: "", parameters: [choice])
        #expect(PluginBoundary.validated(PluginDescription(animators: [b])).failureText
                == "malformed descriptor: animators[0].params[0] (Fade) 'axis' is a choice with no choices (choices NULL or choice_count 0)")
    }
}

extension PluginBoundary.ScanAnswer: Equatable {
    public static func == (a: Self, b: Self) -> Bool {
        switch (a, b) {
        case (.plugin(let x), .plugin(let y)): x == y
        case (.rejected(let x), .rejected(let y)): x.description == y.description && x.inDescriptor == y.inDescriptor
        default: false
        }
    }
}

extension Result where Failure == LoadFailure {
    fileprivate var failureText: String? {
        if case .failure(let why) = self { why.description } else { nil }
    }
}
