import Glibc
import HostContainer
import PluginRuntime
import Timing

/// Where a validation is: the context of the matrix and the plugin call under
/// way, kept in shared memory by the child that runs the checks, so that the
/// parent can say where a plugin crashed or hung. Writing costs a few stores,
/// not a system call, so it does not disturb the timing check.
package final class ValidationProgress: @unchecked Sendable {
    private let memory: SharedMemory

    /// A plugin call.
    package enum Call: UInt32, CustomStringConvertible {
        case setup = 1, evaluate, end
        package var description: String { ["", "setup", "evaluate", "end"][Int(rawValue)] }
    }

    /// What the record says.
    package struct Snapshot: Equatable {
        package var context: Int
        package var label: String
        package var call: Call
        package var t: Double?
    }

    /// Enough for the record.
    package static let size = 4096
    private static let labelCapacity = size - 64

    package init(memory: SharedMemory) {
        self.memory = memory
    }

    /// A new context begins.
    func enter(context: Int, label: String) {
        let bytes = Array(label.utf8.prefix(Self.labelCapacity))
        _ = memory.write(bytes, at: 64, capacity: Self.labelCapacity)
        memory.base.storeBytes(of: UInt32(bytes.count), toByteOffset: 16, as: UInt32.self)
        memory.base.storeBytes(of: UInt32(context + 1), toByteOffset: 20, as: UInt32.self)
    }

    /// The plugin is about to be called.
    func calling(_ call: Call, t: Double?) {
        memory.base.storeBytes(of: t ?? .nan, toByteOffset: 8, as: Double.self)
        memory.base.storeBytes(of: call.rawValue, toByteOffset: 0, as: UInt32.self)
        calls &+= 1
        memory.base.storeBytes(of: calls, toByteOffset: 24, as: UInt32.self)
    }
    private var calls: UInt32 = 0

    /// How many plugin calls the child has begun (it wraps): the parent's
    /// deadline is for one call, so a slow plugin is timed, not taken for a hang.
    package static func calls(_ memory: SharedMemory) -> UInt32 {
        memory.base.load(fromByteOffset: 24, as: UInt32.self)
    }

    /// What a child wrote, read after it died; nil when it never reached a plugin call.
    package static func read(_ memory: SharedMemory) -> Snapshot? {
        let raw = memory.copy(at: 0, count: size, capacity: size)
        func u32(_ at: Int) -> UInt32 { raw.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: UInt32.self) } }
        guard let call = Call(rawValue: u32(0)), u32(20) > 0 else { return nil }
        let t = raw.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 8, as: Double.self) }
        let length = min(Int(u32(16)), labelCapacity)
        return Snapshot(context: Int(u32(20)) - 1, label: PluginText.escaped(raw[64..<(64 + length)]), call: call,
                        t: t.isNaN ? nil : t)
    }
}

/// Reports each call to the progress record before passing it on.
final class TracedAnimator: TransitionAnimator {
    let inner: any TransitionAnimator
    let progress: ValidationProgress
    var name: String { inner.name }
    var source: AnimatorSource { inner.source }
    /// The kinds the animator declares: without them the container would
    /// play each window's context as a switch to a stand-in, and the checks
    /// run out of process would see another transition than `--in-process`.
    var kinds: TransitionKinds { inner.kinds }
    var failure: String? { inner.failure }

    init(_ inner: any TransitionAnimator, progress: ValidationProgress) {
        (self.inner, self.progress) = (inner, progress)
    }

    func setup(_ context: TransitionContext) -> AnimatorSetup {
        progress.calling(.setup, t: nil)
        return inner.setup(context)
    }

    func evaluate(at t: Double, layers: LayerStates) {
        progress.calling(.evaluate, t: t)
        inner.evaluate(at: t, layers: layers)
    }

    func animationEnded(_ completed: Bool) {
        progress.calling(.end, t: nil)
        inner.animationEnded(completed)
    }
}
