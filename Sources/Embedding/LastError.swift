import Glibc
import ProcessShims

/// What `segue_error_message` answers: the words of the calling thread's last
/// call that did not answer `SEGUE_OK`. Each thread's message lives in
/// thread-local storage of its own (C's `_Thread_local`), and a message known
/// in advance (a late sample, say) is a static string, so that no call that
/// answers a status allocates, not even a thread's first.
enum LastError {
    /// The longest message kept, in bytes with the NUL; longer ones are cut.
    static let capacity = Int(PROCESS_SHIMS_MESSAGE_CAPACITY)

    /// The message now, for this thread ("" when there was none).
    static var message: UnsafePointer<CChar> {
        // The buffer starts zeroed: "" until a first message.
        process_shims_thread_message().pointee ?? UnsafePointer(process_shims_thread_message_buffer()!)
    }

    /// Sets this thread's message to `text`, cut to ``capacity``.
    static func set(_ text: String) {
        let buffer = process_shims_thread_message_buffer()!
        var count = 0
        for byte in text.utf8 where count < capacity - 1 {
            buffer[count] = CChar(bitPattern: byte)
            count += 1
        }
        buffer[count] = 0
        process_shims_thread_message().pointee = UnsafePointer(buffer)
    }

    /// Sets this thread's message to a string known in advance, without copying it.
    static func set(_ text: StaticString) {
        text.withUTF8Buffer { bytes in
            process_shims_thread_message().pointee = UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self)
        }
    }
}
