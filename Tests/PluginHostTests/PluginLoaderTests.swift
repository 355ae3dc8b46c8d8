import AnimatorABI
import Foundation
@testable import PluginHost
import TestSupport
import Testing
@testable import Timing

@testable import HostContainer
@testable import PluginRuntime

/// Every rejection reason, each with a crafted bad file: the loader never
/// crashes, and every reason names what was expected and what was found.
struct PluginLoaderTests {
    func rejection(_ file: String) throws -> String {
        switch PluginLoader.load(path: file) {
        case .success(let animators): throw LoadedUnexpectedly(names: animators.map(\.description.name))
        case .failure(let rejection):
            #expect(rejection.file == URL(fileURLWithPath: file).resolvingSymlinksInPath().path)
            return rejection.reason
        }
    }

    struct LoadedUnexpectedly: Error { let names: [String] }

    @Test func aTextFileNamedSoIsNotASharedLibrary() throws {
        let folder = makeTemporaryFolder()
        let file = folder + "/x.so"
        try "hello, plugin host\n".write(toFile: file, atomically: false, encoding: .utf8)
        let reason = try rejection(file)
        #expect(reason == #"not a shared library: it does not start with the ELF magic bytes 7f 45 4c 46 (found text "hello, p")"#)
    }

    @Test func aBrokenLinkCannotBeOpened() throws {
        let file = makeTemporaryFolder() + "/libgone.so"
        try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: "/nonexistent/libgone.so")
        let registry = AnimatorRegistry(folders: [(file as NSString).deletingLastPathComponent])
        #expect(registry.rejections.map(\.reason) == ["cannot be opened: No such file or directory"])
    }

    @Test func anEmptyFileIsNotASharedLibrary() throws {
        let file = makeTemporaryFolder() + "/empty.so"
        _ = FileManager.default.createFile(atPath: file, contents: Data())
        #expect(try rejection(file).hasSuffix("(found an empty file)"))
    }

    @Test func aLibraryBuiltForAnotherMachineIsTheWrongArchitecture() throws {
        let (folder, built) = try CPlugin.fixture("arch")
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: built)))
        let other: UInt16 = ELFHeader.hostMachine == 183 ? 62 : 183  // e_machine: x86-64 or AArch64
        bytes[18] = UInt8(other & 0xFF)
        bytes[19] = UInt8(other >> 8)
        let file = folder + "/libother.so"
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        #expect(try rejection(file) == "wrong architecture: built for \(ELFHeader.machineName(other)), but this host is \(ELFHeader.machineName(ELFHeader.hostMachine)), 64-bit")
    }

    @Test func aRelocatableObjectIsNotASharedLibrary() throws {
        let folder = makeTemporaryFolder()
        let object = folder + "/fade.so"
        let result = try run("/usr/bin/env", ["cc", "-c", "-fPIC", "-I", Paths.header, "-o", object, CPlugin.fixtureSource])
        #expect(result.status == 0)
        #expect(try rejection(object) == "not a shared library: it is a relocatable object (.o); build it with -shared")
    }

    @Test func aSystemLibraryHasNoEntryPoint() throws {
        let file = makeTemporaryFolder() + "/libsystem-copy.so"
        try FileManager.default.copyItem(atPath: try systemLibrary(), toPath: file)
        let reason = try rejection(file)
        #expect(reason.hasPrefix("no entry point: the library does not export 'segue_animator_entry'"), "\(reason)")
    }

    @Test func aPluginWithoutTheEntrySymbolHasNoEntryPoint() throws {
        let (_, file) = try CPlugin.fixture("noentry", "FAULT_NO_ENTRY")
        #expect(try rejection(file).hasPrefix("no entry point"))
    }

    @Test func anEntryThatReturnsNullRefusesToLoadAndItsLogReachesTheHost() throws {
        let (_, file) = try CPlugin.fixture("entrynull", "FAULT_ENTRY_NULL")
        let messages = LogCapture()
        PluginLoader.setLogHandler { messages.append($0) }
        #expect(try rejection(file) == "'segue_animator_entry' returned NULL: the plugin refused to load (see its log messages)")
        let logged = messages.all.filter { $0.plugin == file }
        #expect(logged.map(\.message) == ["this fixture refuses to load"])
        #expect(logged.map(\.level) == [.error])
    }

    final class LogCapture: @unchecked Sendable {
        private let lock = NSLock()
        private var messages: [PluginLogMessage] = []
        func append(_ m: PluginLogMessage) { lock.withLock { messages.append(m) } }
        var all: [PluginLogMessage] { lock.withLock { messages } }
    }

    @Test func aPluginBuiltForAnotherABIMajorIsRefused() throws {
        let (_, file) = try CPlugin.fixture("abi2", "FAULT_ABI_MAJOR")
        #expect(try rejection(file) == "ABI major mismatch: segue_plugin_t was built for ABI 2.0, but this host speaks ABI 1.x; rebuild the plugin against this host's segue_animator.h")
    }

    @Test func anAnimatorBuiltForAnotherABIMajorIsRefused() throws {
        let (_, file) = try CPlugin.fixture("animabi2", "FAULT_ANIMATOR_ABI_MAJOR")
        #expect(try rejection(file).hasPrefix("ABI major mismatch: animators[0] (segue_animator_t) was built for ABI 2.0"))
    }

    @Test(arguments: [
        ("nullname", "FAULT_NULL_NAME", "malformed descriptor: animators[0].name is NULL"),
        ("longname", "FAULT_LONG_NAME", "malformed descriptor: animators[0].name is longer than 63 bytes (the most this ABI allows)"),
        ("badid", #"FIXTURE_ID="NoDots""#, #"malformed descriptor: animators[0].id is "NoDots"; expected a reverse-DNS name, a slash and a revision, like "com.example.spring-slide/1""#),
        ("badshort", #"FIXTURE_NAME="9Lives""#, #"malformed descriptor: animators[0].name is "9Lives"; expected a letter then letters, digits, '-' or '_', like "SpringSlide""#),
        ("nulleval", "FAULT_NULL_EVALUATE", "malformed descriptor: animators[0].evaluate (TestFade) is NULL; it is required"),
        ("defrange", "FAULT_DEFAULT_OUT_OF_RANGE", "malformed descriptor: animators[0].params[0] (TestFade) 'level' has default 5.0 outside [min, max] = [0.0, 1.0]"),
        ("pname", "FAULT_PARAM_BAD_NAME", #"malformed descriptor: animators[0].params[0] (TestFade).name is "9lives"; expected an identifier: a letter or '_', then letters, digits or '_'"#),
        ("pdup", "FAULT_DUPLICATE_PARAM", "malformed descriptor: animators[0].params[1] (TestFade) repeats the parameter name 'level'"),
        ("choice", "FAULT_CHOICE_RANGE", "malformed descriptor: animators[0].params[1] (TestFade) 'pick' is a choice of 2, so min must be 0 and max 1; found 0.0 and 5.0"),
        ("noanim", "FAULT_NO_ANIMATORS", "malformed descriptor: segue_plugin_t.animator_count is 0; a plugin exports at least one animator"),
        ("size8", "FAULT_PLUGIN_STRUCT_SIZE", "malformed descriptor: segue_plugin_t.struct_size is 8, expected at least 28 (the struct as ABI 1.0 introduced it, through its last required member)"),
    ])
    func malformedDescriptorsAreRejectedWithTheMemberNamed(label: String, define: String, reason: String) throws {
        let (_, file) = try CPlugin.fixture(label, define)
        #expect(try rejection(file) == reason)
    }

    @Test func aValidCPluginLoadsWithItsParameters() throws {
        let (_, file) = try CPlugin.fixture("valid")
        let animators = try PluginLoader.load(path: file).get()
        #expect(animators.map(\.description.name) == ["TestFade"])
        let p = try #require(animators.first?.description.parameters.first)
        #expect(p.name == "level" && p.kind == .number && p.defaultValue == 0.5 && p.minimum == 0 && p.maximum == 1)
    }

    @Test func duplicateIdsAndNamesKeepTheFirstFoundAndReportTheRest() throws {
        let folder = makeTemporaryFolder()
        let first = try CPlugin.build(CPlugin.fixtureSource, name: "a-first", into: folder)
        let sameID = try CPlugin.build(CPlugin.fixtureSource, name: "b-same-id", defines: [#"FIXTURE_NAME="Other""#], into: folder)
        let sameName = try CPlugin.build(CPlugin.fixtureSource, name: "c-same-name",
                                         defines: [#"FIXTURE_ID="org.segue.test.other/1""#], into: folder)
        let registry = AnimatorRegistry(folders: [folder])
        #expect(registry.animators.map(\.file) == [first])
        #expect(registry.rejections == [
            PluginRejection(file: sameID, reason: "duplicate id: animator 'org.segue.test.fade/1' (Other) is also provided by \(first), which was found first and is used"),
            PluginRejection(file: sameName, reason: "duplicate short name: 'TestFade' (org.segue.test.other/1) is also the name of org.segue.test.fade/1 in \(first), which was found first and is used"),
        ])
    }

    @Test func foldersAreSearchedInOrderAndAFileIsReadOnce() throws {
        let one = makeTemporaryFolder(), two = makeTemporaryFolder()
        let inTwo = try CPlugin.build(CPlugin.fixtureSource, name: "fade", into: two)
        _ = try CPlugin.build(CPlugin.fixtureSource, name: "fade", into: one)
        let registry = AnimatorRegistry(folders: [two, one, two])
        #expect(registry.animators.map(\.file) == [inTwo], "the folder given first wins")
        #expect(registry.rejections.count == 1, "the copy in the later folder is a duplicate; the repeated folder is not")

        // A link to it, met before or after the file itself, is the same file: read once, no duplicate,
        // known by the path where it was met first.
        let three = makeTemporaryFolder()
        let alias = three + "/libalias.so"
        try FileManager.default.createSymbolicLink(atPath: alias, withDestinationPath: inTwo)
        for (order, first) in [([two, three], inTwo), ([three, two], alias)] {
            let linked = AnimatorRegistry(folders: order)
            #expect(linked.animators.map(\.file) == [first], "\(order)")
            #expect(linked.rejections.isEmpty, "\(linked.rejections)")
        }
    }

    @Test func aMissingFolderIsAWarningNotACrash() {
        let registry = AnimatorRegistry(folders: ["/nonexistent/segue-plugins"])
        #expect(registry.animators.isEmpty && registry.rejections.isEmpty)
        #expect(registry.warnings == ["plugin folder /nonexistent/segue-plugins does not exist"])
    }

    @Test func aLayerStateIsExactlyItsABIStruct() {
        // PluginAnimator hands plugins pointers into the container's LayerState storage.
        #expect(MemoryLayout<LayerState>.size == MemoryLayout<segue_layer_state_t>.size)
        #expect(MemoryLayout<LayerState>.stride == MemoryLayout<segue_layer_state_t>.stride)
        #expect(MemoryLayout<Vec3>.stride == MemoryLayout<segue_vec3_t>.stride)
    }

    @Test func theHostTableServesCurvesAndSprings() throws {
        // The host table's log, curves and spring are what plugins call: check them through the C ABI.
        let (_, file) = try CPlugin.fixture("logging")
        let animator = try #require(try PluginLoader.load(path: file).get().first)
        let host = animator.host.pointee
        #expect(host.struct_size == UInt32(MemoryLayout.size(ofValue: host)))
        #expect(String(cString: host.host_name) == "segue")
        #expect(host.curve_value(SEGUE_CURVE_EASE_IN_OUT, 0.5) == TimingCurve.easeInEaseOut.value(at: 0.5))
        var spring = segue_spring_t()
        #expect(host.spring_init(&spring, 1, 0.75, 0.5))
        #expect(spring.omega0 == Spring(duration: 1, dampingRatio: 0.75, initialVelocity: 0.5)!.omega0)
        #expect(host.spring_value(&spring, 0.3) == Spring(duration: 1, dampingRatio: 0.75, initialVelocity: 0.5)!.value(at: 0.3))
        #expect(!host.spring_init(&spring, 1, 2, 0.5), "a damping ratio above 1 is refused")
        // ABI 1.2: a physical spring, overdamped ones included, evaluated by the same spring_value.
        #expect(host.struct_size >= UInt32(MemoryLayout<segue_host_t>.offset(of: \.spring_init_physical)! + MemoryLayout<Int>.size),
                "SEGUE_HOST_HAS(host, spring_init_physical)")
        for (k, c, m) in [(100.0, 10.0, 1.0), (100, 40, 1)] {
            let physical = try #require(Spring(stiffness: k, damping: c, mass: m, initialVelocity: 0.5))
            #expect(host.spring_init_physical(&spring, k, c, m, 0.5))
            #expect(spring.duration == physical.duration && spring.damping_ratio == physical.dampingRatio && spring.omega0 == physical.omega0)
            #expect(host.spring_value(&spring, 0.2) == physical.value(at: 0.2))
        }
        #expect(!host.spring_init_physical(&spring, 100, 0, 1, 0) && spring.omega0 == 0, "an undamped spring never settles: refused, zeroed")
        #expect(!host.spring_init_physical(&spring, .nan, 10, 1, 0) && !host.spring_init_physical(nil, 100, 10, 1, 0))
    }
}
