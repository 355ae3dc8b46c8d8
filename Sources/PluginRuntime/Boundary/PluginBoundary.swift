import AnimatorABI
import Glibc

/// The trust boundary: the one place that reads memory a plugin or a worker
/// process wrote. What crosses it is copied into plain values before anything
/// checks or uses it; no pointer or size is ever read back from memory the
/// other side can write; text is escaped (``PluginText``). Each check, and
/// its message, is written once, here:
///
/// - descriptors: ``descriptor(at:host:)`` in the process that runs the
///   plugin, and ``validated(_:)`` on what a scanner process answers;
/// - plans: ``plan(result:copyingFrom:)``;
/// - layer states: ``takeLayerStates(from:into:count:)`` (from a worker's
///   shared memory) and ``evaluateInPlace(_:count:_:)`` (written in place by
///   a plugin in this process);
/// - text: ``text(cString:limit:)`` (a log message) and
///   ``text(in:at:length:capacity:)`` (a worker's answer) and
///   ``lines(in:at:length:capacity:)`` (a worker's list);
/// - answers in a scanner's shared memory:
///   ``scanAnswer(in:slot:)``;
/// - what a worker's sandbox recorded: ``SandboxRecord``.
///
/// Nothing here keeps state; each function may be called from any thread
/// (the memory it reads is the caller's to keep alive). The container's own
/// rules for a plan (its duration, element indexes, mesh sizes) apply to every
/// animator, built-in or plugin, and stay in the core.
package enum PluginBoundary {
    /// Reads the plugin descriptor at `pointer` (what the entry point
    /// returned) and validates it: its animators, each with an escaped, valid
    /// description, or why the descriptor breaks the ABI's rules.
    package static func descriptor(at pointer: UnsafeRawPointer, host: UnsafePointer<segue_host_t>) -> Result<[LoadedAnimator], LoadFailure> {
        DescriptorReader(host: host).readPlugin(pointer).flatMap { animators in
            validated(PluginDescription(animators: animators.map(\.description))).map { valid in
                zip(animators, valid.animators).map { loaded, clean in loaded.with(description: clean) }
            }
        }
    }

    /// The NUL-terminated text a plugin passed at `pointer`, read no further
    /// than `limit` bytes (a longer one is cut there) and escaped.
    package static func text(cString pointer: UnsafePointer<CChar>, limit: Int) -> String {
        PluginText.escaped(UnsafeRawBufferPointer(start: pointer, count: strnlen(pointer, limit)))
    }

    /// A private copy of text a worker wrote in `memory` at `offset`: at most
    /// `capacity` bytes, whatever `length` (the worker's claim) says; escaped.
    package static func text(in memory: SharedMemory, at offset: Int, length: UInt32, capacity: Int) -> String {
        PluginText.escaped(memory.copy(at: offset, count: Int(length), capacity: capacity))
    }

    /// A private copy of the lines a worker wrote in `memory` at `offset`
    /// (at most `capacity` bytes, whatever `length` claims), split at each
    /// newline before each line is escaped: a list such as a worker's
    /// animator ids, which escaping the whole text would fuse into one line.
    package static func lines(in memory: SharedMemory, at offset: Int, length: UInt32, capacity: Int) -> [String] {
        memory.copy(at: offset, count: Int(length), capacity: capacity)
            .split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
            .map { PluginText.escaped($0) }
    }

    /// The scanner's answer in `slot`: a UInt32 length and that many bytes of
    /// a ``ScanResult``, with the result's text escaped and a description
    /// validated; nil when the length overruns the slot or the bytes do not
    /// decode (the scanner is then not to be believed about anything).
    package static func scanAnswer(in memory: SharedMemory, slot: Int) -> ScanAnswer? {
        let at = WorkerLayout.scanSlot(slot), capacity = WorkerLayout.scanSlotCapacity - 4
        let length = Int(memory.base.load(fromByteOffset: at, as: UInt32.self))
        guard length <= capacity, let result = try? ScanResult(decoding: memory.copy(at: at + 4, count: length, capacity: capacity)) else {
            return nil
        }
        switch result {
        case .rejected(let reason, let inDescriptor):
            var failure = LoadFailure(PluginText.escaped(reason))
            failure.inDescriptor = inDescriptor
            return .rejected(failure)
        case .plugin(let description):
            // The scanner ran the plugin's code: what it says is checked again here.
            switch validated(description) {
            case .success(let valid): return .plugin(valid)
            case .failure(let why): return .rejected(why)
            }
        }
    }

    /// What a scanner said about one file, made safe to use.
    package enum ScanAnswer {
        /// A valid description.
        case plugin(PluginDescription)
        /// Why the file is not a plugin: the scanner's reason, escaped, or the
        /// host's own finding about the description the scanner sent.
        case rejected(LoadFailure)
    }
}

extension LoadedAnimator {
    /// The same animator with `description` (its escaped, validated copy).
    fileprivate func with(description: AnimatorDescription) -> LoadedAnimator {
        LoadedAnimator(description: description, raw: raw, host: host, setup: setup, evaluate: evaluate, end: end)
    }
}
