import AnimatorABI
import WorkerSandbox

/// What the host asks a worker process to do. One request, one reply, always
/// in that order; the bulky data travels through shared memory (``WorkerLayout``).
package enum WorkerOp: UInt32 {
    /// Scanner: examine the file whose path is in text slot `slot`
    /// (``WorkerLayout/scanSlot(_:)``). Up to ``WorkerLayout/scanSlots`` may
    /// wait; they are answered in order. Each answer goes into its question's
    /// slot (a UInt32 length, then a ``ScanResult`` in its binary form) and
    /// is counted at ``WorkerLayout/replies``; a reply message, whose value is
    /// that count, wakes the host only every ``WorkerLayout/scanBatch``
    /// answers, or when no question is left waiting.
    case scan = 1
    /// Run `slot`'s setup; the text area holds a ``SetupRequest`` in its binary form. The
    /// reply's value is what setup returned; the plan is in the plan area.
    case setup = 2
    /// Evaluate `slot` at `t` for `argument` layers, whose pre-filled states
    /// and meshes are in the state and mesh areas; they come back there.
    case evaluate = 3
    /// Run `slot`'s end with `argument` as completed (0 or 1), and forget it.
    case end = 4
    /// A serving worker's first request: load the plugin file whose path is in
    /// the text area. Two replies: the first says the sandbox is entered (its
    /// value 1 when it carries the sandbox's listener, `SCM_RIGHTS`) or why not;
    /// the second lists the file's animator ids, one a line, in the text, or
    /// says why it could not be loaded. A worker can thus be started before
    /// anyone knows which plugin it will serve.
    case load = 5
    /// Evaluate `slot` for `argument` layers at each of the first `length`
    /// times (at most ``WorkerLayout/aheadFrames``) in the times area, in
    /// order, each into a frame of its own in the ahead area
    /// (``WorkerLayout/AheadFrames``), each from the pre-filled states and
    /// meshes in the state and mesh areas. The worker stops after a frame once
    /// ``WorkerLayout/aheadBudget`` has passed since the request came; the
    /// reply's value is how many frames it answered (the first ones). Frames
    /// a host will show later, asked for in one round trip.
    case evaluateAhead = 6

    /// The call as reports name it: the plugin's function it runs ("setup"),
    /// "load" for loading the file, "scan" for examining files.
    package var name: String {
        switch self {
        case .scan: "scan"
        case .setup: "setup"
        case .evaluate: "evaluate"
        case .end: "end"
        case .load: "load"
        case .evaluateAhead: "evaluate"
        }
    }
}

/// A request, host to worker.
package struct WorkerRequest: BitwiseCopyable {
    package var op: UInt32
    /// The transition, numbered by the host.
    package var slot: UInt32
    /// Evaluate: the layer count; end: 1 when completed; load: the worker's
    /// memory limit in MiB (0: its command line's), at most that.
    package var argument: UInt32
    /// Bytes of text in the text area.
    package var length: UInt32
    package var t: Double

    package init(op: WorkerOp, slot: UInt32 = 0, argument: UInt32 = 0, length: UInt32 = 0, t: Double = 0) {
        (self.op, self.slot, self.argument, self.length, self.t) = (op.rawValue, slot, argument, length, t)
    }
}

/// A reply, worker to host.
package struct WorkerReply: BitwiseCopyable {
    /// ``WorkerReply/ok`` or ``WorkerReply/failed`` (the text then says why).
    package var status: UInt32
    package var value: UInt32
    /// Bytes of text in the text area.
    package var length: UInt32
    /// The protocol the worker speaks (``WorkerReply/protocolVersion``), in
    /// every reply: the host refuses a worker from another build at its first.
    package var version: UInt32

    package static let ok: UInt32 = 0
    package static let failed: UInt32 = 1

    /// This build's worker protocol. Raise it with any change to a request,
    /// a reply, an operation or ``WorkerLayout``. 0 is a worker built before
    /// replies carried a version (the member was reserved, always 0).
    package static let protocolVersion: UInt32 = 4

    package init(status: UInt32, value: UInt32 = 0, length: UInt32 = 0) {
        (self.status, self.value, self.length, self.version) = (status, value, length, Self.protocolVersion)
    }

    /// Why a worker whose reply says `version` cannot serve this host, for people.
    package static func mismatch(_ version: UInt32, worker: String) -> String {
        "the worker \(worker) speaks worker protocol \(version), this program \(protocolVersion): they come from different builds (install them together, or point SEGUE_WORKER at the worker built with this program)"
    }
}

/// The shared-memory region's layout: fixed offsets, so that neither side
/// ever reads a pointer or an offset from the other.
package enum WorkerLayout {
    /// The whole region (sparse: only touched pages cost memory).
    package static let size = 48 << 20
    /// The number of replies a worker has sent, or answers a scanner has
    /// written (UInt32, release-stored after each), so that the host can see
    /// one arrive without sleeping.
    package static let replies = 8
    /// Text: JSON requests and answers, reasons, paths.
    package static let text = 64
    package static let textCapacity = (32 << 20) - 64
    /// How many questions may wait for a scanner, each in a slot of the text
    /// area: a plugin file's whole description, in its binary form, must fit
    /// in one (4 MB; a real one takes a few KB).
    package static let scanSlots = 8
    /// A scanner wakes the host once per this many answers (fewer wake-ups:
    /// each costs more than the host's work on an answer).
    package static let scanBatch: UInt32 = 4
    package static let scanSlotCapacity = textCapacity / scanSlots
    /// Where scan slot `slot` starts.
    package static func scanSlot(_ slot: Int) -> Int { text + min(max(slot, 0), scanSlots - 1) * scanSlotCapacity }
    /// One `segue_plan_t`.
    package static let plan = 32 << 20
    /// `SEGUE_MAX_LAYERS` layer states.
    package static let states = plan + 4096
    package static let stateStride = MemoryLayout<segue_layer_state_t>.stride
    /// `SEGUE_MAX_LAYERS` meshes of ``meshCapacity`` vertices each.
    package static let meshes = states + 8192
    package static let meshCapacity = Int((SEGUE_MAX_MESH_DIVISIONS + 1) * (SEGUE_MAX_MESH_DIVISIONS + 1))
    package static let vertexStride = MemoryLayout<segue_vec3_t>.stride

    /// The worker's note of its sandbox (`worker_sandbox_note_t`): entered,
    /// and the memory in use at a crash. (What the plugin was refused is kept
    /// by its supervisor, out of its reach: ``SandboxSupervisor``.)
    package static let sandbox = 35 << 20

    /// ``aheadFrames`` times (Double) for ``WorkerOp/evaluateAhead``.
    package static let aheadTimes = 36 << 20
    /// The most frames one ``WorkerOp/evaluateAhead`` asks for.
    package static let aheadFrames = 16
    /// The frame a worker evaluates ahead now (UInt32, stored before each):
    /// what a failure report names (the host only picks one of its own times by it).
    package static let aheadProgress = aheadTimes + aheadFrames * 8
    /// The frames ``WorkerOp/evaluateAhead`` answers (``AheadFrames``).
    package static let ahead = 37 << 20
    package static let aheadCapacity = 11 << 20
    /// How long a worker goes on evaluating ahead: it starts no frame after
    /// this many seconds since the request came (the first always), so that
    /// a request takes at most this more than one evaluate.
    package static let aheadBudget = 0.002

    /// Where each frame of an ``WorkerOp/evaluateAhead`` lies: frame after
    /// frame, each its layers' states, then their meshes' vertices (as many
    /// as the plan's layer asks for, none without a mesh). Host and worker
    /// work it out alike from the plan, so that neither reads an offset from
    /// the other.
    package struct AheadFrames: Sendable {
        /// Vertices of each layer's mesh (0 without one).
        package let vertices: [Int]
        /// Where each layer's mesh starts in a frame.
        private let meshStarts: [Int]
        /// Bytes of one frame.
        package let stride: Int
        /// How many frames fit in the area (at most ``aheadFrames``).
        package let capacity: Int

        /// The frames for layers with `vertices` (each (columns + 1) x (rows + 1),
        /// or 0): each clamped to ``meshCapacity``, at most `SEGUE_MAX_LAYERS`.
        package init(vertices: [Int]) {
            let clamped = vertices.prefix(Int(SEGUE_MAX_LAYERS)).map { min(max($0, 0), meshCapacity) }
            var start = clamped.count * stateStride, starts: [Int] = []
            for v in clamped {
                starts.append(start)
                start += v * vertexStride
            }
            (self.vertices, meshStarts) = (clamped, starts)
            stride = (start + 63) & ~63
            capacity = min(aheadFrames, aheadCapacity / max(stride, 1))
        }

        /// Where layer `layer`'s state of frame `frame` lies in the region.
        package func state(_ frame: Int, _ layer: Int) -> Int { ahead + frame * stride + layer * stateStride }
        /// Where layer `layer`'s mesh of frame `frame` lies in the region.
        package func mesh(_ frame: Int, _ layer: Int) -> Int { ahead + frame * stride + meshStarts[layer] }
    }

    package static func state(_ layer: Int) -> Int { states + layer * stateStride }
    package static func mesh(_ layer: Int) -> Int { meshes + layer * meshCapacity * vertexStride }

    package static func check() {
        precondition(MemoryLayout<segue_plan_t>.size <= 4096 && Int(SEGUE_MAX_LAYERS) * stateStride <= 8192)
        precondition(mesh(Int(SEGUE_MAX_LAYERS)) <= sandbox && sandbox + MemoryLayout<worker_sandbox_note_t>.size <= aheadTimes)
        precondition(aheadProgress + 4 <= ahead && ahead + aheadCapacity <= size)
    }
}

/// What a scanner learned of one file.
package enum ScanResult {
    case plugin(PluginDescription)
    case rejected(reason: String, inDescriptor: Bool)
}

/// The text of a setup request.
package struct SetupRequest: Equatable {
    /// The animator's id: the worker looks it up in the library it loaded.
    package var animator: String
    package var payload: TransitionPayload

    package init(animator: String, payload: TransitionPayload) {
        (self.animator, self.payload) = (animator, payload)
    }

    /// Its binary form (see ``ByteWriter``).
    package func encoded() -> [UInt8] {
        var w = ByteWriter()
        w.string(animator)
        payload.encode(into: &w)
        return w.bytes
    }

    /// Reads what ``encoded()`` wrote, all of it.
    package init(decoding bytes: [UInt8]) throws(ByteReader.Truncated) {
        var r = ByteReader(bytes)
        let animator = try r.string()
        self.init(animator: animator, payload: try TransitionPayload(decoding: &r))
        guard r.isAtEnd else { throw ByteReader.Truncated() }
    }
}
