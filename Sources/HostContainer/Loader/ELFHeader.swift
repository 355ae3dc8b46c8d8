import Foundation

/// The few facts of an ELF header the loader checks before `dlopen`, so that a
/// file that is not a shared library for this machine gets a plain reason
/// instead of the dynamic loader's terse one.
struct ELFHeader {
    let is64Bit: Bool
    let isLittleEndian: Bool
    let type: UInt16
    let machine: UInt16

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

    /// Reads the header of the file at `path`.
    /// - Returns: the header, or why the file is not an ELF file for this host.
    static func read(path: String) -> Result<ELFHeader, LoadFailure> {
        guard let file = FileHandle(forReadingAtPath: path) else {
            return .failure(LoadFailure("cannot be opened: \(String(cString: strerror(errno)))"))
        }
        defer { try? file.close() }
        let bytes = [UInt8]((try? file.read(upToCount: 64)) ?? Data())
        guard bytes.count >= 20, bytes[0..<4] == [0x7F, 0x45, 0x4C, 0x46] else {
            return .failure(LoadFailure("not a shared library: it does not start with the ELF magic bytes 7f 45 4c 46 (found \(describeStart(bytes)))"))
        }
        let little = bytes[5] == 1
        func u16(_ at: Int) -> UInt16 {
            little ? UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 : UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1])
        }
        return .success(ELFHeader(is64Bit: bytes[4] == 2, isLittleEndian: little, type: u16(16), machine: u16(18)))
    }

    /// Why this header does not describe a shared library this host can load, or nil.
    var problem: String? {
        if type != ELFHeader.sharedObjectType {
            let kind = [1: "a relocatable object (.o)", 2: "an executable", 4: "a core dump"][Int(type)] ?? "ELF type \(type)"
            return "not a shared library: it is \(kind); build it with -shared"
        }
        if machine != ELFHeader.hostMachine || !is64Bit {
            return "wrong architecture: built for \(ELFHeader.machineName(machine))\(is64Bit ? "" : ", 32-bit"), but this host is \(ELFHeader.machineName(ELFHeader.hostMachine)), 64-bit"
        }
        return nil
    }

    private static func describeStart(_ bytes: [UInt8]) -> String {
        if bytes.isEmpty { return "an empty file" }
        let head = bytes.prefix(8)
        if head.allSatisfy({ (0x20..<0x7F).contains($0) || $0 == 0x0A || $0 == 0x09 }) {
            let text = String(decoding: head, as: UTF8.self).replacingOccurrences(of: "\n", with: "\\n")
            return "text \"\(text)\""
        }
        return head.map { String(format: "%02x", $0) }.joined(separator: " ")
    }
}
