/// A rectangle of pixels all of one colour: premultiplied RGBA, as stored.
struct SolidRun: Equatable, Sendable {
    let rect: PixelRect
    let word: UInt32
}

/// Rectangles of a band whose pixels are each one colour, not stored yet: the
/// background where nothing opaque covers it, and what plain quads drawn over
/// it made of it. A plain quad over such a run changes the run's colour, not
/// pixels (a cross-fade of two plain views is one fill, not three passes);
/// a run is stored where anything else is about to be drawn over it, and
/// what is left at the end of the band.
struct PendingRuns {
    private var runs: [SolidRun] = []
    private let target: DrawingTarget

    /// Runs of `word` over `rects` (no two overlapping), in `target`.
    init(_ rects: [PixelRect], word: UInt32?, in target: DrawingTarget) {
        self.target = target
        if let word { runs = rects.map { SolidRun(rect: $0, word: word) } }
    }

    /// Draws `solid` within `clip`: over the runs it lies on, their colour
    /// becomes `solid`'s over theirs (what blending it pixel by pixel would
    /// store); an opaque one's pixels elsewhere become a run of their own.
    /// Returns the parts of `clip` it has not drawn, which are left to the
    /// quad itself (its edges, and what it covers that was stored already).
    mutating func draw(_ solid: SolidRun, within clip: PixelRect) -> [PixelRect] {
        let rect = solid.rect.intersection(clip)
        guard !rect.isEmpty, solid.word >> 24 == 255 || runs.contains(where: { !$0.rect.intersection(rect).isEmpty }) else { return [clip] }
        var drawn: [PixelRect] = [], kept: [SolidRun] = []
        for run in runs {
            let common = run.rect.intersection(rect)
            guard !common.isEmpty else { kept.append(run); continue }
            kept += run.rect.subtracting(common).map { SolidRun(rect: $0, word: run.word) }
            if solid.word >> 24 < 255 { kept.append(SolidRun(rect: common, word: Pixel.over(solid.word, run.word))) }
            drawn.append(common)
        }
        if solid.word >> 24 == 255 {
            // Opaque: whatever was beneath, the whole rectangle is its colour now.
            kept.append(SolidRun(rect: rect, word: solid.word))
            drawn = [rect]
        }
        runs = kept
        var rest = [clip]
        for part in drawn { rest = rest.flatMap { $0.subtracting(part) } }
        return rest
    }

    /// Stores the runs' pixels within `rect`, which something else is about to be drawn over.
    mutating func store(within rect: PixelRect) {
        guard runs.contains(where: { !$0.rect.intersection(rect).isEmpty }) else { return }
        var kept: [SolidRun] = []
        for run in runs {
            let common = run.rect.intersection(rect)
            guard !common.isEmpty else { kept.append(run); continue }
            fill(SolidRun(rect: common, word: run.word))
            kept += run.rect.subtracting(common).map { SolidRun(rect: $0, word: run.word) }
        }
        runs = kept
    }

    /// Stores every run left.
    mutating func storeAll() {
        runs.forEach(fill)
        runs = []
    }

    private func fill(_ run: SolidRun) {
        for y in run.rect.y0..<run.rect.y1 { DrawingTarget.fill(target.row(y) + run.rect.x0, with: run.word, count: run.rect.width) }
    }
}
