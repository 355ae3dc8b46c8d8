import Glibc

/// What `segue_error_message` answers: the words of the calling thread's last
/// call that did not answer `SEGUE_OK`. Each thread has a buffer of its own,
/// made on its first message; a message known in advance (a late sample, say)
/// is a static string, so that even those calls allocate nothing.
enum LastError {
    /// The longest message kept, in bytes with the NUL; longer ones are cut.
    static let capacity = 2048

    private final class Slot {
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: LastError.capacity)
        var current: UnsafePointer<CChar>

        init() {
            buffer[0] = 0
            current = UnsafePointer(buffer)
        }

        deinit { buffer.deallocate() }
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { slot in
            if let slot { Unmanaged<Slot>.fromOpaque(slot).release() }
        }
        return key
    }()

    private static var slot: Slot {
        if let existing = pthread_getspecific(key) { return Unmanaged<Slot>.fromOpaque(existing).takeUnretainedValue() }
        let made = Slot()
        pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque())
        return made
    }

    /// The message now, for this thread.
    static var message: UnsafePointer<CChar> { slot.current }

    /// Sets this thread's message to `text`, cut to ``capacity``.
    static func set(_ text: String) {
        let slot = slot
        var count = 0
        for byte in text.utf8 where count < capacity - 1 {
            slot.buffer[count] = CChar(bitPattern: byte)
            count += 1
        }
        slot.buffer[count] = 0
        slot.current = UnsafePointer(slot.buffer)
    }

    /// Sets this thread's message to a string known in advance, without copying it.
    static func set(_ text: StaticString) {
        text.withUTF8Buffer { bytes in
            slot.current = UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self)
        }
    }
}
