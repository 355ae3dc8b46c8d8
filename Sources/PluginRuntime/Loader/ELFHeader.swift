import Glibc
import SystemCalls

/// The facts of an ELF file the host checks before any process maps it, so
/// that a file that is not a whole shared library for this machine gets a
/// plain reason instead of the dynamic loader's terse one, or a SIGBUS: the
/// header, and the file's length against its program and section headers (a
/// library truncated mid-copy is caught here).
package struct ELFHeader {
    let is64Bit: Bool
    let isLittleEndian: Bool
    let type: UInt16
    let machine: UInt16
    /// The bytes the headers say the file needs, and the bytes it has.
    let neededLength: UInt64
    let length: UInt64

    static let sharedObjectType: UInt16 = 3  // ET_DYN

    /// The ELF machine number this host was built for.
    static var hostMachine: UInt16 {
        #if arch(x86_64)
        62
        #elseif arch(arm64)
        183
        #elseif arch(riscv64)
        243
        #else
        0
        #endif
    }

    static func machineName(_ machine: UInt16) -> String {
        switch machine {
        case 3: "x86 (32-bit)"
        case 40: "ARM (32-bit)"
        case 62: "x86-64"
        case 183: "AArch64"
        case 243: "RISC-V"
        default: "machine \(machine)"
        }
    }

    /// Reads the headers of the file at `path` with plain reads (nothing is mapped).
    /// - Returns: the header, or why the file is not an ELF file for this host.
    package static func read(path: String) -> Result<ELFHeader, LoadFailure> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(LoadFailure("cannot be opened: \(Errno.current)")) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(LoadFailure("cannot be examined: \(Errno.current)")) }
        let length = UInt64(info.st_size)
        let bytes = readBytes(fd, at: 0, count: 64)
        guard bytes.count >= 20, bytes[0..<4] == [0x7F, 0x45, 0x4C, 0x46] else {
            return .failure(LoadFailure("not a shared library: it does not start with the ELF magic bytes 7f 45 4c 46 (found \(describeStart(bytes)))"))
        }
        let little = bytes[5] == 1, wide = bytes[4] == 2
        func integer(_ b: [UInt8], _ at: Int, _ size: Int) -> UInt64 {
            guard at + size <= b.count else { return 0 }
            var v: UInt64 = 0
            for k in 0..<size { v |= UInt64(b[at + (little ? k : size - 1 - k)]) << (8 * UInt64(k)) }
            return v
        }
        var needed = UInt64(bytes.count)
        if wide && bytes.count == 64 {
            // Elf64_Ehdr: e_phoff 32, e_shoff 40, e_phentsize 54, e_phnum 56, e_shentsize 58, e_shnum 60.
            let phoff = integer(bytes, 32, 8), shoff = integer(bytes, 40, 8)
            let phentsize = integer(bytes, 54, 2), phnum = min(integer(bytes, 56, 2), 4096)
            let shentsize = integer(bytes, 58, 2), shnum = integer(bytes, 60, 2)
            needed = max(needed, phoff &+ phentsize &* phnum, shnum == 0 ? 0 : shoff &+ shentsize &* shnum)
            if phentsize >= 56, phoff < length {
                let table = readBytes(fd, at: off_t(phoff), count: Int(min(phentsize * phnum, length - phoff)))
                for i in 0..<Int(phnum) where (i + 1) * Int(phentsize) <= table.count {
                    let entry = Array(table[(i * Int(phentsize))..<((i + 1) * Int(phentsize))])
                    // Elf64_Phdr: p_type 0, p_offset 8, p_filesz 32.
                    guard integer(entry, 0, 4) == 1 else { continue }  // PT_LOAD
                    needed = max(needed, integer(entry, 8, 8) &+ integer(entry, 32, 8))
                }
            }
        }
        return .success(ELFHeader(is64Bit: wide, isLittleEndian: little, type: UInt16(integer(bytes, 16, 2)),
                                  machine: UInt16(integer(bytes, 18, 2)), neededLength: needed, length: length))
    }

    /// Why this file is not a shared library this host can load, or nil.
    package var problem: String? {
        if type != ELFHeader.sharedObjectType {
            let kind = [1: "a relocatable object (.o)", 2: "an executable", 4: "a core dump"][Int(type)] ?? "ELF type \(type)"
            return "not a shared library: it is \(kind); build it with -shared"
        }
        if machine != ELFHeader.hostMachine || !is64Bit {
            return "wrong architecture: built for \(ELFHeader.machineName(machine))\(is64Bit ? "" : ", 32-bit"), but this host is \(ELFHeader.machineName(ELFHeader.hostMachine)), 64-bit"
        }
        if neededLength > length {
            return "truncated: the file is \(length) bytes but its ELF headers describe \(neededLength) (was it copied while still being written?)"
        }
        return nil
    }

    private static func readBytes(_ fd: Int32, at offset: off_t, count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: count)
        let got = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, offset) }
        return got > 0 ? Array(buffer.prefix(got)) : []
    }

    private static func describeStart(_ bytes: [UInt8]) -> String {
        if bytes.isEmpty { return "an empty file" }
        let head = bytes.prefix(8)
        if head.allSatisfy({ (0x20..<0x7F).contains($0) || $0 == 0x0A || $0 == 0x09 }) {
            return "text \"\(PluginText.escaped(head))\""
        }
        return head.map { b in (b < 16 ? "0" : "") + String(b, radix: 16) }.joined(separator: " ")
    }
}
