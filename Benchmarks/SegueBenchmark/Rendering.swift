import Foundation
import HostContainer
import Renderer

/// Rendering figures: frames per second for a 390x844 transition of each
/// animator at scale 1, and the time to encode a 60-frame GIF and a filmstrip.
func renderingBenchmark(registry: AnimatorRegistry) {
    print("\nRendering 390x844 at scale 1 (median of 3 runs):")
    let cases = [("default", "photo", "video"), ("SpringSlide", "photo", "video"),
                 ("CurlUp", "video", "file"), ("ImageZoom", "grid", "detail")]
    var sixty: [Canvas] = []
    for (name, from, to) in cases {
        var config = SegueConfig(file: "benchmark")
        config.rules = [SegueConfig.Rule(from: from, to: to, animator: name, label: "benchmark")]
        let delegate = ConfigDrivenDelegate(config: config, registry: registry)
        let preview = TransitionPreview(children: SegueConfig.builtinScene.children, size: Scene.defaultSize,
                                        from: from, to: to, renderer: ViewRenderer())
        var count = 0
        let seconds = median(runs: 3) {
            let frames = (try? preview.animation(fps: 60, delegate: delegate).frames) ?? []
            count = frames.count
            if sixty.count < 60 { sixty += frames.prefix(60 - sixty.count).map(\.canvas) }
        }
        print("  \(name.padding(toLength: 12, withPad: " ", startingAt: 0)) \(count) frames in \(String(format: "%.3f", seconds)) s: \(String(format: "%.0f", Double(count) / seconds)) frames/s")
    }
    let delays = [Int](repeating: 2, count: sixty.count)
    var size = 0
    let gif = median(runs: 3) { size = GIF.encode(frames: sixty, delays: delays).count }
    print("  GIF of \(sixty.count) frames: \(String(format: "%.3f", gif)) s to encode, \(size / 1024) KiB")
    var pngSize = 0
    let png = median(runs: 3) { pngSize = PNG.encode(sixty[0]).count }
    print("  PNG of one 390x844 frame: \(String(format: "%.1f", png * 1000)) ms to encode, \(pngSize / 1024) KiB")
}
