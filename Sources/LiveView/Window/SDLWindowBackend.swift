import Dispatch
import Foundation
import Glibc
import HostContainer
import Renderer

/// Why no window could be opened.
public struct WindowError: Error, CustomStringConvertible {
    /// What is missing and what to do about it.
    public let description: String
}

/// The live view in a window, through SDL2 loaded at run time with `dlopen`
/// (`libSDL2-2.0.so.0`, Debian's `libsdl2-2.0-0`): no build-time dependency,
/// X11 and Wayland alike. Frames are streamed into a texture (only the
/// damaged rectangle uploaded) and presented with vsync where the renderer
/// has it; drawn at the window's pixel density, so HiDPI displays get sharp
/// frames. Closing the window ends the view.
///
/// SDL wants its video calls on the main thread: make and use the back end there.
public final class SDLWindowBackend: LiveBackend {
    public private(set) var scale: Double
    public private(set) var pacesItself: Bool
    public let printsStatus = false
    /// The SDL video driver in use (x11, wayland, dummy...).
    public private(set) var driver = ""

    private let sdl: SDL
    private let window: OpaquePointer
    private let renderer: OpaquePointer
    private var texture: OpaquePointer?
    private var textureSize = (0, 0)
    private let stage: Rect
    private var title = ""
    /// When the last frames were presented: a renderer that claims vsync but
    /// presents far faster than any display refreshes (SDL's software renderer,
    /// a dummy driver) does not pace the loop after all.
    private var presents: [Double] = []

    /// Opens a window for a stage of `stage` points.
    /// - Throws: ``WindowError`` when SDL2 is missing or no window can be opened (no display).
    /// - Parameter zoom: the window's size in points over the stage's.
    public init(stage: Rect, zoom: Double = 1, title: String = "segue show") throws(WindowError) {
        self.stage = stage
        let sdl = try SDL.load()
        self.sdl = sdl
        guard sdl.initialize(0x20) == 0 else {  // SDL_INIT_VIDEO
            throw WindowError(description: "SDL cannot start video: \(sdl.error())")
        }
        driver = sdl.currentVideoDriver().map { String(cString: $0) } ?? ""
        // Without a display SDL may fall back to drawing nowhere; that is no window, unless asked for by name.
        if ["offscreen", "dummy", "evdev"].contains(driver), getenv("SDL_VIDEODRIVER") == nil {
            sdl.quit()
            throw WindowError(description: "no display to open a window on (SDL found only its \(driver) video driver): set DISPLAY or WAYLAND_DISPLAY, or use --terminal")
        }
        // Centred, shown, resizable, high pixel density.
        guard let window = title.withCString({ sdl.createWindow($0, 0x2FFF_0000, 0x2FFF_0000, Int32((stage.width * zoom).rounded()), Int32((stage.height * zoom).rounded()), 0x4 | 0x20 | 0x2000) }) else {
            let why = sdl.error()
            sdl.quit()
            throw WindowError(description: "SDL cannot open a window: \(why)")
        }
        self.window = window
        // Accelerated with vsync; else whatever renderer there is (software under Xvfb).
        guard let renderer = sdl.createRenderer(window, -1, 0x2 | 0x4) ?? sdl.createRenderer(window, -1, 0) else {
            let why = sdl.error()
            sdl.destroyWindow(window)
            sdl.quit()
            throw WindowError(description: "SDL cannot draw in the window: \(why)")
        }
        self.renderer = renderer
        var info = SDL.RendererInfo()
        pacesItself = withUnsafeMutableBytes(of: &info) { sdl.getRendererInfo(renderer, $0.baseAddress!) } == 0 && info.flags & 0x4 != 0
        scale = 1
        scale = density()
    }

    deinit {
        if let texture { sdl.destroyTexture(texture) }
        sdl.destroyRenderer(renderer)
        sdl.destroyWindow(window)
        sdl.quit()
    }

    /// Pixels per point: the renderer's output over the window's size, times the window's size over the stage's.
    private func density() -> Double {
        var (w, h): (Int32, Int32) = (0, 0)
        _ = sdl.getRendererOutputSize(renderer, &w, &h)
        guard w > 0, h > 0 else { return 1 }
        return min(Double(w) / stage.width, Double(h) / stage.height)
    }

    /// The window's size in its own units (points on HiDPI).
    private var windowSize: (Double, Double) {
        var (w, h): (Int32, Int32) = (0, 0)
        sdl.getWindowSize(window, &w, &h)
        return (Double(max(w, 1)), Double(max(h, 1)))
    }

    public func events(waitingUntil deadline: Double) -> [LiveInput] {
        var inputs: [LiveInput] = []
        var event = SDL.Event()
        let (ww, wh) = windowSize
        let toStage = min(ww / stage.width, wh / stage.height)
        func point(_ x: Int32, _ y: Int32) -> (Double, Double) { (Double(x) / toStage, Double(y) / toStage) }
        while true {
            if withUnsafeMutableBytes(of: &event, { sdl.pollEvent($0.baseAddress!) }) == 0 {
                // Nothing yet: wait a little (until the frame's slot) for more.
                let left = deadline - MonotonicClock().now
                guard inputs.isEmpty, left > 0.001 else { break }
                usleep(UInt32(min(left, 0.002) * 1e6))
                continue
            }
            let time = Double(event.u32(4)) / 1000
            switch event.u32(0) {
            case 0x100:  // SDL_QUIT
                inputs.append(.close)
            case 0x200:  // SDL_WINDOWEVENT
                if event.u8(12) == 14 { inputs.append(.close) }  // SDL_WINDOWEVENT_CLOSE
                if event.u8(12) == 6 { scale = density() }  // SDL_WINDOWEVENT_SIZE_CHANGED
            case 0x300:  // SDL_KEYDOWN: the keys that type no text
                switch event.i32(20) {
                case 0x4000_004F: inputs.append(.key(.right))
                case 0x4000_0050: inputs.append(.key(.left))
                case 27: inputs.append(.key(.escape))
                default: break
                }
            case 0x303:  // SDL_TEXTINPUT
                let text = event.string(12, 32)
                for c in text where c.isASCII { inputs.append(.key(.character(c))) }
            case 0x400:  // SDL_MOUSEMOTION, with the first button held
                if event.u32(16) & 1 != 0 {
                    let (x, y) = point(event.i32(20), event.i32(24))
                    inputs.append(.pointer(.moved, x: x, y: y, time: time))
                }
            case 0x401, 0x402:  // SDL_MOUSEBUTTONDOWN / UP, first button
                if event.u8(16) == 1 {
                    let (x, y) = point(event.i32(20), event.i32(24))
                    inputs.append(.pointer(event.u32(0) == 0x401 ? .down : .up, x: x, y: y, time: time))
                }
            default:
                break
            }
        }
        return inputs
    }

    public func present(_ canvas: Canvas, damage: PixelRect, status: String) -> Double {
        if textureSize != (canvas.width, canvas.height) || texture == nil {
            if let texture { sdl.destroyTexture(texture) }
            // SDL_PIXELFORMAT_ABGR8888 (bytes R, G, B, A in memory: the canvas's own), streaming, copied
            // without blending (the frame is opaque; its pixels are premultiplied).
            texture = sdl.createTexture(renderer, 0x1676_2004, 1, Int32(canvas.width), Int32(canvas.height))
            if let texture { _ = sdl.setTextureBlendMode(texture, 0) }
            textureSize = (canvas.width, canvas.height)
        }
        guard let texture else { return 0 }
        let area = textureSize == (canvas.width, canvas.height) ? damage : PixelRect(x0: 0, y0: 0, x1: canvas.width, y1: canvas.height)
        if !area.isEmpty {
            // The damaged rows straight from the canvas: no pass of their own.
            canvas.pixels.withUnsafeBytes { bytes in
                let rect = SDL.Rect(x: Int32(area.x0), y: Int32(area.y0), w: Int32(area.width), h: Int32(area.height))
                _ = withUnsafeBytes(of: rect) {
                    sdl.updateTexture(texture, $0.baseAddress, bytes.baseAddress! + (area.y0 * canvas.width + area.x0) * 4, Int32(canvas.width * 4))
                }
            }
        }
        _ = sdl.renderClear(renderer)
        _ = sdl.renderCopy(renderer, texture, nil, nil)
        let handed = MonotonicClock().now
        sdl.renderPresent(renderer)
        let presented = MonotonicClock().now
        if pacesItself {
            presents.append(presented)
            if presents.count == 12 {
                pacesItself = (presents.last! - presents.first!) / 11 > 0.004
                presents = []
            }
        }
        if status != title {
            title = status
            ("segue show - " + status).withCString { sdl.setWindowTitle(window, $0) }
        }
        // With vsync, SDL_RenderPresent waits for the refresh.
        return pacesItself ? presented - handed : 0
    }
}

/// The SDL2 functions the window uses, looked up in the library at run time.
struct SDL {
    // SDL_Window, SDL_Renderer and SDL_Texture are opaque.

    /// `SDL_Event`: a 56-byte union; read by offset (SDL_events.h).
    struct Event {
        var bytes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0)
        func u32(_ offset: Int) -> UInt32 { withUnsafeBytes(of: bytes) { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) } }
        func i32(_ offset: Int) -> Int32 { withUnsafeBytes(of: bytes) { $0.loadUnaligned(fromByteOffset: offset, as: Int32.self) } }
        func u8(_ offset: Int) -> UInt8 { withUnsafeBytes(of: bytes) { $0[offset] } }
        func string(_ offset: Int, _ limit: Int) -> String {
            withUnsafeBytes(of: bytes) { raw in
                let slice = raw[offset..<min(offset + limit, raw.count)]
                return String(decoding: slice.prefix { $0 != 0 }, as: UTF8.self)
            }
        }
    }

    /// `SDL_Rect`.
    struct Rect { var x, y, w, h: Int32 }

    /// `SDL_RendererInfo`.
    struct RendererInfo {
        var name: UnsafePointer<CChar>? = nil
        var flags: UInt32 = 0
        var formatCount: UInt32 = 0
        var formats: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        var maxWidth: Int32 = 0, maxHeight: Int32 = 0
    }

    let initialize: @convention(c) (UInt32) -> Int32
    let quit: @convention(c) () -> Void
    let getError: @convention(c) () -> UnsafePointer<CChar>?
    let currentVideoDriver: @convention(c) () -> UnsafePointer<CChar>?
    let createWindow: @convention(c) (UnsafePointer<CChar>?, Int32, Int32, Int32, Int32, UInt32) -> OpaquePointer?
    let destroyWindow: @convention(c) (OpaquePointer) -> Void
    let setWindowTitle: @convention(c) (OpaquePointer, UnsafePointer<CChar>?) -> Void
    let getWindowSize: @convention(c) (OpaquePointer, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Void
    let createRenderer: @convention(c) (OpaquePointer, Int32, UInt32) -> OpaquePointer?
    let destroyRenderer: @convention(c) (OpaquePointer) -> Void
    let getRendererInfo: @convention(c) (OpaquePointer, UnsafeMutableRawPointer) -> Int32
    let getRendererOutputSize: @convention(c) (OpaquePointer, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Int32
    let createTexture: @convention(c) (OpaquePointer, UInt32, Int32, Int32, Int32) -> OpaquePointer?
    let destroyTexture: @convention(c) (OpaquePointer) -> Void
    let updateTexture: @convention(c) (OpaquePointer, UnsafeRawPointer?, UnsafeRawPointer, Int32) -> Int32
    let setTextureBlendMode: @convention(c) (OpaquePointer, Int32) -> Int32
    let renderClear: @convention(c) (OpaquePointer) -> Int32
    let renderCopy: @convention(c) (OpaquePointer, OpaquePointer, UnsafeRawPointer?, UnsafeRawPointer?) -> Int32
    let renderPresent: @convention(c) (OpaquePointer) -> Void
    let pollEvent: @convention(c) (UnsafeMutableRawPointer) -> Int32

    func error() -> String { getError().map { String(cString: $0) } ?? "unknown error" }

    /// The library's name, as Debian's libsdl2-2.0-0 installs it.
    static let library = "libSDL2-2.0.so.0"

    /// Loads SDL2 and looks up every function, or says what is missing.
    static func load() throws(WindowError) -> SDL {
        guard let handle = dlopen(library, RTLD_NOW | RTLD_LOCAL) else {
            let why = dlerror().map { String(cString: $0) } ?? library
            throw WindowError(description: "cannot load SDL2 (\(why)): install it (Debian, Ubuntu: apt-get install libsdl2-2.0-0)")
        }
        var missing: [String] = []
        func find<T>(_ name: String, as type: T.Type) -> T {
            guard let symbol = dlsym(handle, name) else {
                missing.append(name)
                return unsafeBitCast(dlsym(handle, "SDL_GetError") ?? UnsafeMutableRawPointer(bitPattern: 1)!, to: T.self)
            }
            return unsafeBitCast(symbol, to: T.self)
        }
        let sdl = SDL(
            initialize: find("SDL_Init", as: (@convention(c) (UInt32) -> Int32).self),
            quit: find("SDL_Quit", as: (@convention(c) () -> Void).self),
            getError: find("SDL_GetError", as: (@convention(c) () -> UnsafePointer<CChar>?).self),
            currentVideoDriver: find("SDL_GetCurrentVideoDriver", as: (@convention(c) () -> UnsafePointer<CChar>?).self),
            createWindow: find("SDL_CreateWindow", as: (@convention(c) (UnsafePointer<CChar>?, Int32, Int32, Int32, Int32, UInt32) -> OpaquePointer?).self),
            destroyWindow: find("SDL_DestroyWindow", as: (@convention(c) (OpaquePointer) -> Void).self),
            setWindowTitle: find("SDL_SetWindowTitle", as: (@convention(c) (OpaquePointer, UnsafePointer<CChar>?) -> Void).self),
            getWindowSize: find("SDL_GetWindowSize", as: (@convention(c) (OpaquePointer, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Void).self),
            createRenderer: find("SDL_CreateRenderer", as: (@convention(c) (OpaquePointer, Int32, UInt32) -> OpaquePointer?).self),
            destroyRenderer: find("SDL_DestroyRenderer", as: (@convention(c) (OpaquePointer) -> Void).self),
            getRendererInfo: find("SDL_GetRendererInfo", as: (@convention(c) (OpaquePointer, UnsafeMutableRawPointer) -> Int32).self),
            getRendererOutputSize: find("SDL_GetRendererOutputSize", as: (@convention(c) (OpaquePointer, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Int32).self),
            createTexture: find("SDL_CreateTexture", as: (@convention(c) (OpaquePointer, UInt32, Int32, Int32, Int32) -> OpaquePointer?).self),
            destroyTexture: find("SDL_DestroyTexture", as: (@convention(c) (OpaquePointer) -> Void).self),
            updateTexture: find("SDL_UpdateTexture", as: (@convention(c) (OpaquePointer, UnsafeRawPointer?, UnsafeRawPointer, Int32) -> Int32).self),
            setTextureBlendMode: find("SDL_SetTextureBlendMode", as: (@convention(c) (OpaquePointer, Int32) -> Int32).self),
            renderClear: find("SDL_RenderClear", as: (@convention(c) (OpaquePointer) -> Int32).self),
            renderCopy: find("SDL_RenderCopy", as: (@convention(c) (OpaquePointer, OpaquePointer, UnsafeRawPointer?, UnsafeRawPointer?) -> Int32).self),
            renderPresent: find("SDL_RenderPresent", as: (@convention(c) (OpaquePointer) -> Void).self),
            pollEvent: find("SDL_PollEvent", as: (@convention(c) (UnsafeMutableRawPointer) -> Int32).self))
        guard missing.isEmpty else {
            throw WindowError(description: "\(library) lacks \(missing.joined(separator: ", ")): SDL 2.0.22 or later is needed")
        }
        return sdl
    }
}
