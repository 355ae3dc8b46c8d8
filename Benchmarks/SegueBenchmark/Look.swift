import Foundation
import HostConfig
import HostContainer
import Renderer

/// What ABI 1.4's look costs Segue's renderer: one frame of a window (the
/// built-in scene's photo view, with its elements, scaled to 80% and turned
/// a little, as an opening draws it) over the grid, drawn plain, then rounded
/// (corner radius 24, its content masked), then rounded with a shadow
/// (radius 30, offset 12), then cut to a circle (an iris) with the shadow.
/// With `SEGUE_LOOK_PICTURES=FOLDER` it writes each frame there as a PNG
/// (`look-K-xSCALE.png`), to compare one build's pictures with another's.
func lookBenchmark(rounds: Int = 31) {
    let pictures = ProcessInfo.processInfo.environment["SEGUE_LOOK_PICTURES"]
    print("\nA window's frame at 390x844 with ABI 1.4's look (ms, median of \(rounds); every pixel drawn):")
    print("  look                          scale 1    scale 2")
    let looks: [(String, (View) -> Void)] = [
        ("plain", { _ in }),
        ("corners 24", { $0.cornerRadius = 24; $0.masksToBounds = true }),
        ("corners 24 + shadow 30", {
            $0.cornerRadius = 24; $0.masksToBounds = true
            $0.shadow = Shadow(radius: 30, offsetX: 0, offsetY: 12, color: Color(red: 0, green: 0, blue: 0, alpha: 0.5))
        }),
        ("circle clip + shadow 30", {
            $0.clip = .ellipse(Rect(x: 45, y: 260, width: 300, height: 300))
            $0.shadow = Shadow(radius: 30, offsetX: 0, offsetY: 12, color: Color(red: 0, green: 0, blue: 0, alpha: 0.5))
        }),
    ]
    for (k, (label, apply)) in looks.enumerated() {
        var figures: [String] = []
        for scale in [1.0, 2.0] {
            let controllers = Scene.viewControllers(for: SegueConfig.builtinScene.children, size: Rect.phonePortrait)
            let root = View(frame: Rect.phonePortrait)
            root.backgroundColor = .white
            let beneath = controllers.first { $0.name == "grid" }!.view, window = controllers.first { $0.name == "photo" }!.view
            root.addSubview(beneath)
            root.addSubview(window)
            let (c, s) = (0.8 * cos(0.05), 0.8 * sin(0.05))
            window.transform = Transform3D([c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
            apply(window)
            let frames = FrameRenderer(renderer: ViewRenderer(scale: scale))
            frames.render(root, everything: true)
            if let pictures {
                try? Data(PNG.encode(frames.canvas)).write(to: URL(fileURLWithPath: "\(pictures)/look-\(k)-x\(Int(scale)).png"))
            }
            figures.append(String(format: "%8.3f", median(runs: rounds) { frames.render(root, everything: true) } * 1000))
        }
        print("  \(label.padding(toLength: 28, withPad: " ", startingAt: 0))  " + figures.joined(separator: "   "))
    }
}
