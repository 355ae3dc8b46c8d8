import Dispatch

/// Writes looping animated GIF89a files, one frame at a time, so that memory
/// does not grow with the number of frames.
///
/// Each frame after the first is stored as the rectangle that changed since
/// the frame before, with the pixels that did not change left transparent
/// (disposal "leave in place"), and with its own palette: the exact colours of
/// the changed pixels when there are few enough, else 255 chosen by median cut,
/// optionally dithered (Floyd–Steinberg). A frame identical to the one before
/// adds its delay to that frame instead. Pixels are read as opaque RGB.
public struct GIFEncoder {
    /// The animation's size, in pixels.
    public let width: Int, height: Int
    /// Whether colours that the palette misses are dithered.
    public let dither: Bool
    /// Whether frames after the first store only what changed (true), or every
    /// pixel (false: for comparing with other optimizers on the same frames).
    public let frameDifferences: Bool
    /// The file so far; complete after ``finish(lastDelay:)``.
    public private(set) var bytes: [UInt8] = []
    /// The last frame's pixels as 0x00RRGGBB; empty before the first frame.
    private var previous: [UInt32] = []
    /// Where the last frame's delay is written, so that a repeat or the end can change it.
    private var lastDelayAt: Int?
    private var lzw = LZW()

    /// Starts a file of `width` × `height` (each at most 65,535) that loops
    /// forever, with `comment` (printable ASCII; anything else becomes '?') in
    /// a comment extension when given.
    public init(width: Int, height: Int, dither: Bool = false, frameDifferences: Bool = true, comment: String? = nil) {
        self.width = min(max(width, 1), 0xFFFF)
        self.height = min(max(height, 1), 0xFFFF)
        self.dither = dither
        self.frameDifferences = frameDifferences
        bytes = Array("GIF89a".utf8) + le16(self.width) + le16(self.height)
        bytes += [0x00, 0, 0]  // no global colour table: every frame has its own
        bytes += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01, 0x00, 0x00, 0x00]  // loop forever
        if let comment {
            bytes += [0x21, 0xFE]
            appendSubBlocks(printableASCII(comment))
        }
    }

    /// `data` in sub-blocks of at most 255 bytes, then the empty block.
    private mutating func appendSubBlocks(_ data: [UInt8]) {
        var i = 0
        while i < data.count {
            let n = min(255, data.count - i)
            bytes.append(UInt8(n))
            bytes += data[i..<(i + n)]
            i += n
        }
        bytes.append(0)
    }

    /// Adds a frame drawn on a canvas of the animation's size, shown for
    /// `delay` hundredths of a second. It is converted to 8-bit row by row and
    /// kept only as the next frame's reference; alpha is ignored. A canvas of
    /// another size is cropped, or padded with black.
    /// - Parameter changed: where the canvas may differ from the last frame
    ///   added (``FrameRenderer``'s damage); nil when unknown. Only that part is read.
    public mutating func add(_ canvas: Canvas, delay: Int, changed: PixelRect? = nil) {
        add(pixels: Self.read(canvas, width: width, height: height, changed: changed, over: previous), delay: delay)
    }

    /// A canvas as the encoder takes it: opaque 0x00RRGGBB per pixel, cropped
    /// or padded with black to `width` × `height`; outside `changed`, the
    /// pixels of `previous` (a frame read before, when it is of that size).
    static func read(_ canvas: Canvas, width: Int, height: Int, changed: PixelRect?, over previous: [UInt32]) -> [UInt32] {
        let area = PixelRect(x0: 0, y0: 0, x1: min(width, canvas.width), y1: min(height, canvas.height))
        var current: [UInt32]
        var read = area
        if let changed, previous.count == width * height {
            current = previous
            read = changed.intersection(area)
        } else {
            current = [UInt32](repeating: 0, count: width * height)
        }
        if !read.isEmpty {
            current.withUnsafeMutableBufferPointer { out in
                for y in read.y0..<read.y1 { canvas.packRow(y, from: read.x0, to: read.x1, into: out.baseAddress! + y * width + read.x0) }
            }
        }
        return current
    }

    /// Ends the file, giving the last frame `lastDelay` when set, and returns it.
    public mutating func finish(lastDelay: Int? = nil) -> [UInt8] {
        if let lastDelay, let at = lastDelayAt { setDelay(lastDelay, at: at) }
        bytes.append(0x3B)
        return bytes
    }

    mutating func add(pixels current: [UInt32], delay: Int) {
        let delay = min(max(delay, 0), 0xFFFF)
        // The rectangle that changed; all of it for the first frame.
        var rect = (x0: 0, y0: 0, x1: width - 1, y1: height - 1)
        if frameDifferences, !previous.isEmpty {
            guard let changed = changedRectangle(current) else {
                // Nothing changed: hold the last frame longer.
                if let at = lastDelayAt { setDelay(delay + Int(bytes[at]) | Int(bytes[at + 1]) << 8, at: at) }
                return
            }
            rect = changed
        }
        let w = rect.x1 - rect.x0 + 1, h = rect.y1 - rect.y0 + 1
        // The pixels to draw; nil where the frame before already shows them.
        var drawn = [UInt32](repeating: 0, count: w * h), keep = [Bool](repeating: false, count: w * h)
        var anyKept = false
        for y in 0..<h {
            for x in 0..<w {
                let p = (rect.y0 + y) * width + rect.x0 + x
                drawn[y * w + x] = current[p]
                if frameDifferences, !previous.isEmpty, previous[p] == current[p] {
                    keep[y * w + x] = true
                    anyKept = true
                }
            }
        }
        let palette = Palette(drawn, skipping: anyKept ? keep : nil, maximum: anyKept ? 255 : 256)
        let transparent = palette.colors.count  // the index after the colours, when used
        let indices = palette.indices(of: drawn, width: w, skipping: anyKept ? keep : nil,
                                      transparent: UInt8(truncatingIfNeeded: transparent), dither: dither)
        let entries = palette.colors.count + (anyKept ? 1 : 0)
        var bits = 1
        while 1 << bits < entries { bits += 1 }

        // Graphic control: leave in place, transparency if used, the delay.
        bytes += [0x21, 0xF9, 0x04, 0x04 | (anyKept ? 0x01 : 0x00)]
        lastDelayAt = bytes.count
        bytes += le16(delay) + [anyKept ? UInt8(transparent) : 0, 0x00]
        bytes += [0x2C] + le16(rect.x0) + le16(rect.y0) + le16(w) + le16(h) + [0x80 | UInt8(bits - 1)]
        for k in 0..<(1 << bits) {
            let c = k < palette.colors.count ? palette.colors[k] : 0
            bytes += [UInt8(c >> 16), UInt8((c >> 8) & 0xFF), UInt8(c & 0xFF)]
        }
        let minimumCodeSize = max(bits, 2)
        bytes.append(UInt8(minimumCodeSize))
        appendSubBlocks(lzw.encode(indices, minimumCodeSize: minimumCodeSize))
        previous = current
    }

    /// The bounding rectangle of the pixels that differ from the last frame; nil when none do.
    private func changedRectangle(_ current: [UInt32]) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        var x0 = width, y0 = height, x1 = -1, y1 = -1
        current.withUnsafeBufferPointer { c in
            previous.withUnsafeBufferPointer { p in
                for y in 0..<height {
                    let row = y * width
                    var first = -1, last = -1
                    for x in 0..<width where c[row + x] != p[row + x] {
                        if first < 0 { first = x }
                        last = x
                    }
                    guard first >= 0 else { continue }
                    x0 = min(x0, first)
                    x1 = max(x1, last)
                    y0 = min(y0, y)
                    y1 = y
                }
            }
        }
        return x1 < 0 ? nil : (x0, y0, x1, y1)
    }

    private mutating func setDelay(_ delay: Int, at: Int) {
        let d = min(max(delay, 0), 0xFFFF)
        bytes[at] = UInt8(d & 0xFF)
        bytes[at + 1] = UInt8(d >> 8)
    }

    /// A whole animation at once: `frames` (each the size of the first), each
    /// shown for `delays[i]` hundredths of a second (2 when missing).
    public static func encode(frames: [Canvas], delays: [Int], dither: Bool = false, frameDifferences: Bool = true) -> [UInt8] {
        guard let first = frames.first else { return [] }
        var encoder = GIFEncoder(width: first.width, height: first.height, dither: dither, frameDifferences: frameDifferences)
        for (k, frame) in frames.enumerated() {
            encoder.add(frame, delay: k < delays.count ? delays[k] : 2)
        }
        return encoder.finish()
    }
}

/// A ``GIFEncoder`` that compresses on a thread of its own: each frame is
/// read off its canvas on the caller's thread (so the canvas may be drawn
/// over as soon as ``add(_:delay:changed:)`` returns) and compressed while
/// the caller draws the next; at most one frame waits, so memory stays flat.
public final class BackgroundGIFEncoder: @unchecked Sendable {
    private var encoder: GIFEncoder
    private let queue = DispatchQueue(label: "segue.gif")
    private let waiting = DispatchSemaphore(value: 1)
    /// The last frame read, for the parts of the next one that did not change.
    private var last: [UInt32] = []

    /// Starts a file like ``GIFEncoder/init(width:height:dither:frameDifferences:comment:)``.
    public init(width: Int, height: Int, dither: Bool = false, comment: String? = nil) {
        encoder = GIFEncoder(width: width, height: height, dither: dither, comment: comment)
    }

    /// Reads `canvas` now and adds it as the next frame, shown for `delay` hundredths of a second.
    /// - Parameter changed: where it may differ from the frame before (nil: unknown).
    public func add(_ canvas: Canvas, delay: Int, changed: PixelRect? = nil) {
        let pixels = GIFEncoder.read(canvas, width: encoder.width, height: encoder.height, changed: changed, over: last)
        last = pixels
        waiting.wait()
        queue.async {
            self.encoder.add(pixels: pixels, delay: delay)
            self.waiting.signal()
        }
    }

    /// Waits for the frames added and ends the file (see ``GIFEncoder/finish(lastDelay:)``).
    public func finish(lastDelay: Int? = nil) -> [UInt8] {
        queue.sync { encoder.finish(lastDelay: lastDelay) }
    }
}

/// A frame's colours: exact when the frame has few enough, else chosen by
/// median cut over a histogram of 5 bits per channel.
struct Palette {
    /// 0x00RRGGBB, at most `maximum` of them.
    private(set) var colors: [UInt32] = []
    /// Whether `colors` holds every colour of the frame exactly.
    private(set) var exact = true
    /// For an exact palette: each colour's index, by its 15-bit key.
    private var exactIndex: [UInt8] = []

    static func key15(_ c: UInt32) -> Int { Int((c >> 19) & 0x1F) << 10 | Int((c >> 11) & 0x1F) << 5 | Int((c >> 3) & 0x1F) }

    init(_ pixels: [UInt32], skipping skip: [Bool]?, maximum: Int) {
        // One pass: count per 15-bit bin, and whether a bin holds more than one colour.
        var count = [Int32](repeating: 0, count: 32_768)
        var first = [UInt32](repeating: 0, count: 32_768)
        var mixed = false
        var sums = [SIMD4<Int64>](repeating: .zero, count: 32_768)
        for (p, c) in pixels.enumerated() where skip?[p] != true {
            let k = Self.key15(c)
            if count[k] == 0 { first[k] = c } else if first[k] != c { mixed = true }
            count[k] += 1
            sums[k] &+= SIMD4(Int64(c >> 16), Int64((c >> 8) & 0xFF), Int64(c & 0xFF), 0)
        }
        let bins = (0..<32_768).filter { count[$0] > 0 }
        if !mixed, bins.count <= maximum {
            exactIndex = [UInt8](repeating: 0, count: 32_768)
            for (i, k) in bins.enumerated() {
                colors.append(first[k])
                exactIndex[k] = UInt8(i)
            }
            return
        }
        exact = false
        colors = Self.medianCut(bins: bins, count: count, sums: sums, maximum: maximum)
    }

    /// Splits the colour space into `maximum` boxes of bins, each time the box
    /// with the widest channel extent weighted by its pixels, at its weighted median.
    private static func medianCut(bins: [Int], count: [Int32], sums: [SIMD4<Int64>], maximum: Int) -> [UInt32] {
        func channel(_ k: Int, _ c: Int) -> Int { (k >> (10 - 5 * c)) & 0x1F }
        struct Box { var bins: ArraySlice<Int>; var pixels: Int64; var extent: Int; var axis: Int }
        func box(_ b: ArraySlice<Int>) -> Box {
            var lo = [31, 31, 31], hi = [0, 0, 0], n: Int64 = 0
            for k in b {
                for c in 0..<3 { lo[c] = min(lo[c], channel(k, c)); hi[c] = max(hi[c], channel(k, c)) }
                n += Int64(count[k])
            }
            let extents = (0..<3).map { hi[$0] - lo[$0] }
            let axis = extents.firstIndex(of: extents.max()!)!
            return Box(bins: b, pixels: n, extent: extents[axis], axis: axis)
        }
        var storage = bins
        var boxes = [box(storage[...])]
        while boxes.count < maximum {
            // The box most worth splitting: wide and heavy.
            guard let pick = boxes.indices.filter({ boxes[$0].extent > 0 && boxes[$0].bins.count > 1 })
                .max(by: { Double(boxes[$0].extent) * Double(boxes[$0].pixels).squareRoot()
                          < Double(boxes[$1].extent) * Double(boxes[$1].pixels).squareRoot() }) else { break }
            let b = boxes[pick]
            let range = b.bins.indices
            storage[range].sort { channel($0, b.axis) < channel($1, b.axis) }
            var seen: Int64 = 0, cut = range.lowerBound + 1
            for i in range {
                seen += Int64(count[storage[i]])
                if seen * 2 >= b.pixels { cut = min(max(i + 1, range.lowerBound + 1), range.upperBound - 1); break }
            }
            boxes[pick] = box(storage[range.lowerBound..<cut])
            boxes.append(box(storage[cut..<range.upperBound]))
        }
        return boxes.map { b in
            var s = SIMD4<Int64>.zero
            for k in b.bins { s &+= sums[k] }
            let n = max(b.pixels, 1)
            return UInt32((s[0] + n / 2) / n) << 16 | UInt32((s[1] + n / 2) / n) << 8 | UInt32((s[2] + n / 2) / n)
        }
    }

    /// Each pixel's palette index (`transparent` where skipped), row by row.
    func indices(of pixels: [UInt32], width: Int, skipping skip: [Bool]?, transparent: UInt8, dither: Bool) -> [UInt8] {
        var out = [UInt8](repeating: transparent, count: pixels.count)
        if exact {
            for (p, c) in pixels.enumerated() where skip?[p] != true { out[p] = exactIndex[Self.key15(c)] }
            return out
        }
        // Nearest colour, cached by 6 bits per channel.
        var cache = [Int16](repeating: -1, count: 1 << 18)
        func nearest(_ r: Int, _ g: Int, _ b: Int) -> Int {
            let key = (r >> 2) << 12 | (g >> 2) << 6 | (b >> 2)
            if cache[key] >= 0 { return Int(cache[key]) }
            var best = 0, bestDistance = Int.max
            for (i, c) in colors.enumerated() {
                let dr = Int(c >> 16) - r, dg = Int((c >> 8) & 0xFF) - g, db = Int(c & 0xFF) - b
                let d = 2 * dr * dr + 4 * dg * dg + 3 * db * db
                if d < bestDistance { (best, bestDistance) = (i, d) }
            }
            cache[key] = Int16(best)
            return best
        }
        guard dither else {
            for (p, c) in pixels.enumerated() where skip?[p] != true {
                out[p] = UInt8(nearest(Int(c >> 16), Int((c >> 8) & 0xFF), Int(c & 0xFF)))
            }
            return out
        }
        // Floyd–Steinberg over the drawn pixels, in sixteenths.
        let height = pixels.count / max(width, 1)
        var error = [SIMD3<Int32>](repeating: .zero, count: (width + 2) * 2)
        for y in 0..<height {
            let row = (y & 1) * (width + 2), next = ((y + 1) & 1) * (width + 2)
            for x in 0..<(width + 2) { error[next + x] = .zero }
            for x in 0..<width {
                let p = y * width + x
                guard skip?[p] != true else { continue }
                let c = pixels[p]
                let e = error[row + x + 1] / 16
                let r = min(max(Int(c >> 16) + Int(e.x), 0), 255), g = min(max(Int((c >> 8) & 0xFF) + Int(e.y), 0), 255)
                let b = min(max(Int(c & 0xFF) + Int(e.z), 0), 255)
                let i = nearest(r, g, b)
                out[p] = UInt8(i)
                let q = colors[i]
                let d = SIMD3<Int32>(Int32(r) - Int32(q >> 16), Int32(g) - Int32((q >> 8) & 0xFF), Int32(b) - Int32(q & 0xFF))
                error[row + x + 2] &+= d &* 7
                error[next + x] &+= d &* 3
                error[next + x + 1] &+= d &* 5
                error[next + x + 2] &+= d
            }
        }
        return out
    }
}

/// GIF's variable-width LZW: codes from minimumCodeSize + 1 bits up to 12, a
/// clear code first and as soon as code 4095 is taken, an end code last.
/// The string table is an open-addressing hash of (prefix, index) → code, small
/// enough to stay in the processor's cache (at most 4,096 codes in 8,192
/// slots), kept between frames to spare the allocation.
struct LZW {
    private static let slots = 8192
    private var keys = [Int32](repeating: -1, count: slots)  // prefix << 8 | index; -1 when free
    private var codes = [Int16](repeating: 0, count: slots)

    mutating func encode(_ pixels: [UInt8], minimumCodeSize: Int) -> [UInt8] {
        let clear = 1 << minimumCodeSize, end = clear + 1
        var out = BitWriter()
        var next = end + 1, width = minimumCodeSize + 1
        out.write(clear, bits: width)
        keys.withUnsafeMutableBufferPointer { $0.update(repeating: -1) }
        guard var prefix = pixels.first.map(Int.init) else {
            out.write(end, bits: width)
            out.flush()
            return out.bytes
        }
        keys.withUnsafeMutableBufferPointer { keys in
            codes.withUnsafeMutableBufferPointer { codes in
                pixels.withUnsafeBufferPointer { pixels in
                    for i in 1..<pixels.count {
                        let byte = Int(pixels[i])
                        let key = Int32(prefix << 8 | byte)
                        var slot = Int((UInt32(bitPattern: key) &* 2_654_435_761) >> 19)  // 13 bits
                        var found = -1
                        while keys[slot] >= 0 {
                            if keys[slot] == key {
                                found = Int(codes[slot])
                                break
                            }
                            slot = (slot + 1) & (Self.slots - 1)
                        }
                        if found >= 0 {
                            prefix = found
                            continue
                        }
                        out.write(prefix, bits: width)
                        keys[slot] = key
                        codes[slot] = Int16(next)
                        if next >= 1 << width { width += 1 }
                        next += 1
                        if next == 4096 {
                            // The table is full: start afresh.
                            out.write(clear, bits: width)
                            keys.update(repeating: -1)
                            next = end + 1
                            width = minimumCodeSize + 1
                        }
                        prefix = byte
                    }
                }
            }
        }
        out.write(prefix, bits: width)
        out.write(end, bits: width)
        out.flush()
        return out.bytes
    }
}

/// `v` as two bytes, least significant first.
func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }

/// `text` for a file's comment: printable ASCII kept, anything else as '?'.
func printableASCII(_ text: String) -> [UInt8] {
    text.unicodeScalars.map { $0.value >= 0x20 && $0.value < 0x7F ? UInt8($0.value) : 0x3F }
}
