import Foundation
import Glibc
import PluginHost
import PluginRuntime
import Renderer

/// Frames encoded as a video people share, MP4 (H.264) or WebM (VP9), by
/// `ffmpeg`: each frame's 8-bit RGBA goes down a socket that ffmpeg reads
/// as `pipe:3`. ffmpeg is a child like any other (its own session, a clean
/// environment, its messages relayed marked); a socket rather than a pipe,
/// so that ffmpeg ending early is an error to report, not a SIGPIPE.
final class VideoWriter {
    /// The formats, by file extension, and the encoder settings each takes.
    static let formats: [String: [String]] = [
        "mp4": ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "18", "-movflags", "+faststart"],
        "webm": ["-c:v", "libvpx-vp9", "-pix_fmt", "yuv420p", "-crf", "30", "-b:v", "0"],
    ]

    struct Failure: Error { let message: String }

    private let process: ChildProcess
    private let socket: Int32
    private let width: Int, height: Int
    private let out: String

    /// `ffmpeg` on the PATH, or nil.
    static func ffmpeg() -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/ffmpeg" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts ffmpeg writing `out` (`format`: a key of ``formats``) from `width` × `height` frames at `fps`.
    init(ffmpeg: String, out: String, format: String, width: Int, height: Int, fps: Double, comment: String) throws(Failure) {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw Failure(message: "cannot make a socket for ffmpeg (\(String(cString: strerror(errno))))")
        }
        // Odd sizes padded to even ones: yuv420p halves both.
        let arguments = ["-hide_banner", "-loglevel", "error", "-nostdin", "-f", "rawvideo", "-pix_fmt", "rgba",
                         "-s", "\(width)x\(height)", "-r", fps.formatted(), "-i", "pipe:3",
                         "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2"] + Self.formats[format]!
            + ["-metadata", "comment=\(comment)", "-y", out]
        do {
            process = try ChildProcess(executable: ffmpeg, arguments: arguments, descriptors: [pair[1]], label: "ffmpeg")
        } catch {
            close(pair[0])
            close(pair[1])
            throw Failure(message: "cannot start \(ffmpeg): \(error)")
        }
        close(pair[1])
        (socket, self.width, self.height, self.out) = (pair[0], width, height, out)
    }

    deinit { close(socket) }

    /// Sends `canvas`, `repeats` times over (a hold).
    /// - Throws: ``Failure`` once ffmpeg has stopped reading.
    func add(_ canvas: Canvas, repeats: Int = 1) throws(Failure) {
        let bytes = canvas.rgba8
        for _ in 0..<max(repeats, 1) {
            let sent = bytes.withUnsafeBytes { buffer -> Bool in
                var offset = 0
                while offset < buffer.count {
                    let n = send(socket, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                    if n < 0 && errno == EINTR { continue }
                    guard n > 0 else { return false }
                    offset += n
                }
                return true
            }
            guard sent else { throw Failure(message: "ffmpeg stopped reading \(out)'s frames") }
        }
    }

    /// Ends the input and waits (at most two minutes) for ffmpeg to write the file.
    func finish() throws(Failure) {
        shutdown(socket, Int32(SHUT_WR))
        guard let ended = process.wait(seconds: 120) else {
            process.kill()
            throw Failure(message: "ffmpeg did not finish \(out) within two minutes; it was stopped")
        }
        OutputRelay.drainAll()
        guard ended == .exited(0) else { throw Failure(message: "ffmpeg \(ended) writing \(out) (its messages are above)") }
    }
}
