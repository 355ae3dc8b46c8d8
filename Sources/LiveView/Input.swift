/// A key the live view acts on, as a back end reads it.
public enum LiveKey: Equatable, Sendable {
    case left, right, escape
    /// A printable character: digits, letters, space, `?`, `,` and `.`.
    case character(Character)
}

/// Where a pointer gesture is.
public enum PointerPhase: Equatable, Sendable {
    case down, moved, up
}

/// Input for the live view, in stage points (the container's coordinates;
/// the overlays lie over it) and wall-clock seconds.
public enum LiveInput: Equatable, Sendable {
    case key(LiveKey)
    /// A press, drag or release of the primary button; `time` (monotonic
    /// seconds) gives a release its speed.
    case pointer(PointerPhase, x: Double, y: Double, time: Double)
    /// The window was closed, or the terminal hung up, or a signal asked to end.
    case close
}
