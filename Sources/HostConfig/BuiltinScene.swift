import Foundation

extension SegueConfig {
    /// The label the built-in scene goes by in messages.
    public static let builtinSceneLabel = "<built-in scene>"

    /// The scene `segue run` plays without a config: five sender children
    /// (photo, video, file, contact and clipboard senders), a grid and a detail
    /// child that share an `image` element, and rules that exercise all three
    /// bundled animators and the built-in default, and a script that ends with
    /// the interactive way back from the detail (a drag from the left edge):
    /// once cancelled, once finished by the edge-pan rule; then a calculator
    /// window opens over the photo and closes (Pop opens it, CurlUp curls it
    /// away). Plugin folders are left to
    /// the defaults. It is written in the config format, and parsed like any config.
    public static let builtinScene: SegueConfig = {
        do {
            return try parse(Data(builtinSceneJSON.utf8), file: builtinSceneLabel, baseDirectory: "/")
        } catch {
            fatalError("the built-in scene is a valid config: \(error)")
        }
    }()

    /// The children a run of this config uses: its own, or the built-in
    /// scene's when it gives none.
    public var sceneChildren: [Child] { children.isEmpty ? Self.builtinScene.children : children }

    /// The windows a run of this config presents: its own, or the built-in
    /// scene's when it gives no children.
    public var sceneWindows: [Child] { children.isEmpty ? Self.builtinScene.windows : windows }

    /// The built-in scene's JSON text, printed by `segue run --print-config`.
    public static let builtinSceneJSON = """
    {
      "children": [
        {"name": "photo", "elements": [{"name": "photo.title", "frame": [24, 380, 342, 84], "label": "Photo"}]},
        {"name": "video", "elements": [{"name": "video.title", "frame": [24, 380, 342, 84], "label": "Video"}]},
        {"name": "file", "elements": [{"name": "file.title", "frame": [24, 380, 342, 84], "label": "File"}]},
        {"name": "contact", "elements": [{"name": "contact.title", "frame": [24, 380, 342, 84], "label": "Contact"}]},
        {"name": "clipboard", "elements": [{"name": "clipboard.title", "frame": [24, 380, 342, 84], "label": "Clipboard"}]},
        {"name": "grid", "color": "#F4F1EA", "elements": [
          {"name": "image", "frame": [16, 120, 171, 171], "image": 1},
          {"name": "label", "frame": [16, 299, 171, 24], "label": "Sunset"},
          {"name": "cell1.image", "frame": [203, 120, 171, 171], "image": 2},
          {"name": "cell2.image", "frame": [16, 339, 171, 171], "image": 3},
          {"name": "cell3.image", "frame": [203, 339, 171, 171], "image": 4}
        ]},
        {"name": "detail", "color": "#2B2D42", "elements": [
          {"name": "image", "frame": [0, 100, 390, 390], "image": 1},
          {"name": "label", "frame": [16, 506, 358, 32], "label": "Sunset"}
        ]}
      ],
      "windows": [
        {"name": "calculator", "color": "#3E8ED0", "frame": [45, 197, 300, 450], "elements": [
          {"name": "calculator.display", "frame": [16, 16, 268, 96], "label": "1,234"},
          {"name": "calculator.keys", "frame": [16, 128, 268, 306], "label": "7 8 9"}
        ]}
      ],
      "rules": [
        {"to": "video", "animator": "SpringSlide"},
        {"to": "file", "animator": "CurlUp"},
        {"from": "file", "to": "contact", "animator": "SpringSlide", "parameters": {"damping": 0.3}},
        {"from": "grid", "to": "detail", "animator": "ImageZoom"},
        {"from": "detail", "to": "grid", "animator": "ImageZoom"},
        {"appear": "calc*", "animator": "Pop"},
        {"disappear": "calculator", "animator": "CurlUp"}
      ],
      "script": [
        "video", "file", "contact", "clipboard", "grid", "detail",
        {"select": "grid", "interactive": [0.1, 0.25, 0.4, 0.3], "release": "cancel"},
        {"select": "grid", "interactive": [0.15, 0.35, 0.55], "release": "gesture", "velocity": 0.8},
        "photo",
        {"present": "calculator"},
        {"dismiss": "calculator"}
      ]
    }
    """
}
