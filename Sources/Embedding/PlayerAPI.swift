import AnimatorABI
import EmbedABI
import Foundation
import Glibc
import HostContainer
import PluginHost
import PluginRuntime

// The player's half of the C API (segue/embed.h): making and freeing a
// player, its descriptor and dispatch, its animators. Everything a program
// passes is checked here before anything else sees it; the words of every
// refusal go to segue_error_message.

/// The API version this library implements.
let apiVersion = (UInt32(SEGUE_API_VERSION_MAJOR) << 16) | UInt32(SEGUE_API_VERSION_MINOR)

@c(segue_api_version)
public func segueAPIVersion() -> UInt32 { apiVersion }

@c(segue_error_message)
public func segueErrorMessage() -> UnsafePointer<CChar>? { LastError.message }

/// `path` from the current folder, as watching and reports want it.
private func absolute(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.path
}

/// Answers `status` with `message` for segue_error_message.
func refuse(_ status: segue_status_t, _ message: String) -> segue_status_t {
    LastError.set(message)
    return status
}

/// The player behind a handle, on its main thread; else nil, with the refusal in `status`.
func player(_ handle: OpaquePointer?, _ function: String, _ status: inout segue_status_t) -> Player? {
    guard let handle else {
        status = refuse(SEGUE_E_INVALID_ARGUMENT, "\(function): player is NULL")
        return nil
    }
    let player = Unmanaged<Player>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
    guard pthread_equal(pthread_self(), player.mainThread) != 0 else {
        status = refuse(SEGUE_E_WRONG_THREAD, "\(function): called from a thread that is not the player's main thread (the one that called segue_player_new); nothing was done")
        return nil
    }
    return player
}

@c(segue_player_new)
public func seguePlayerNew(_ options: UnsafePointer<segue_player_options_t>?,
                           _ out: UnsafeMutablePointer<OpaquePointer?>?) -> segue_status_t {
    guard let out else { return refuse(SEGUE_E_INVALID_ARGUMENT, "segue_player_new: out is NULL") }
    out.pointee = nil
    let given: segue_player_options_t
    switch CStruct.read(options, "options", minimum: CStruct.playerOptions10) {
    case .failure(let why): return refuse(SEGUE_E_INVALID_ARGUMENT, "segue_player_new: \(why.message)")
    case .success(let read): given = read
    }
    var settings = PlayerSettings()
    do throws(CStruct.Refusal) {
        if given.plugin_dir_count > 0 {
            guard let dirs = given.plugin_dirs else { throw .init("options.plugin_dirs is NULL but plugin_dir_count is \(given.plugin_dir_count)") }
            guard given.plugin_dir_count <= 256 else { throw .init("options.plugin_dir_count is \(given.plugin_dir_count): expected at most 256 folders") }
            settings.folders = try (0..<Int(given.plugin_dir_count)).map { i throws(CStruct.Refusal) in
                absolute(try CStruct.path(dirs[i], "options.plugin_dirs[\(i)]"))
            }
        }
        settings.configPath = try given.config_path.map { p throws(CStruct.Refusal) in absolute(try CStruct.path(p, "options.config_path")) }
        settings.workerPath = try given.worker_path.map { p throws(CStruct.Refusal) in try CStruct.path(p, "options.worker_path") }
        switch given.isolation {
        case SEGUE_ISOLATION_PROCESS.rawValue: settings.isolation = .process
        case SEGUE_ISOLATION_NONE.rawValue: settings.isolation = PluginIsolation.none
        case SEGUE_ISOLATION_FROM_CONFIG.rawValue: settings.isolation = nil
        default: throw .init("options.isolation is \(given.isolation): expected SEGUE_ISOLATION_PROCESS (0), _NONE (1) or _FROM_CONFIG (2)")
        }
        switch given.sandbox {
        case SEGUE_SANDBOX_FROM_CONFIG.rawValue: settings.sandbox = nil
        case SEGUE_SANDBOX_STRICT.rawValue: settings.sandbox = .strict
        case SEGUE_SANDBOX_OFF.rawValue: settings.sandbox = .off
        default: throw .init("options.sandbox is \(given.sandbox): expected SEGUE_SANDBOX_FROM_CONFIG (0), _STRICT (1) or _OFF (2)")
        }
        let known = SEGUE_PLAYER_ONLY_GIVEN_FOLDERS | SEGUE_PLAYER_WATCH | SEGUE_PLAYER_ALLOW_INSECURE_PLUGINS | SEGUE_PLAYER_NO_SPIN
            | SEGUE_PLAYER_STANDARD_CONFIG
        guard given.flags & ~known == 0 else {
            throw .init("options.flags has unknown bits 0x\(String(given.flags & ~known, radix: 16)): expected SEGUE_PLAYER_* flags only")
        }
        settings.onlyGivenFolders = given.flags & SEGUE_PLAYER_ONLY_GIVEN_FOLDERS != 0
        settings.watches = given.flags & SEGUE_PLAYER_WATCH != 0
        settings.allowsInsecurePlugins = given.flags & SEGUE_PLAYER_ALLOW_INSECURE_PLUGINS != 0
        settings.spinsForWorkers = given.flags & SEGUE_PLAYER_NO_SPIN == 0
        settings.followsStandardConfig = given.flags & SEGUE_PLAYER_STANDARD_CONFIG != 0
        guard given.sample_bound_us <= 100_000 else {
            throw .init("options.sample_bound_us is \(given.sample_bound_us): expected at most 100000 (0 for the standard 4000)")
        }
        if given.sample_bound_us > 0 { settings.sampleBound = Double(given.sample_bound_us) / 1e6 }
        guard given.workers_memory == 0 || given.workers_memory >= SandboxPolicy.minimumMemoryLimit else {
            throw .init("options.workers_memory is \(given.workers_memory): expected 0 (the config's, else 4 GiB) or at least \(SandboxPolicy.minimumMemoryLimit) (256 MiB)")
        }
        if given.workers_memory > 0 { settings.workersMemory = given.workers_memory }
    } catch {
        return refuse(SEGUE_E_INVALID_ARGUMENT, "segue_player_new: \(error.message)")
    }
    let made: Player
    do throws(PlayerError) {
        made = try Player(settings)
    } catch {
        switch error {
        case .config(let why): return refuse(SEGUE_E_CONFIG, "segue_player_new: \(why)")
        case .invalid(let why): return refuse(SEGUE_E_INVALID_ARGUMENT, "segue_player_new: \(why)")
        case .system(let why): return refuse(SEGUE_E_SYSTEM, "segue_player_new: \(why)")
        }
    }
    made.onEvent = given.on_event
    made.userData = given.user_data
    out.pointee = OpaquePointer(Unmanaged.passRetained(made).toOpaque())
    return SEGUE_OK
}

@c(segue_player_free)
public func seguePlayerFree(_ handle: OpaquePointer?) {
    var status = SEGUE_OK
    guard handle != nil, let player = player(handle, "segue_player_free", &status) else { return }
    guard !player.isDispatching else {
        _ = refuse(SEGUE_E_INVALID_ARGUMENT, "segue_player_free: called from within on_event; free the player after segue_player_dispatch returns")
        return
    }
    player.close()
    Unmanaged<Player>.fromOpaque(UnsafeRawPointer(handle!)).release()
}

@c(segue_player_fd)
public func seguePlayerFD(_ handle: OpaquePointer?) -> Int32 {
    guard let handle else { return -1 }
    return Unmanaged<Player>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue().events.descriptor
}

@c(segue_player_dispatch)
public func seguePlayerDispatch(_ handle: OpaquePointer?) -> segue_status_t {
    var status = SEGUE_OK
    guard let player = player(handle, "segue_player_dispatch", &status) else { return status }
    guard !player.isDispatching else {
        return refuse(SEGUE_E_INVALID_ARGUMENT, "segue_player_dispatch: called from within on_event; events are delivered by the call already running")
    }
    player.isDispatching = true
    defer { player.isDispatching = false }
    player.dispatch { event in
        guard let onEvent = player.onEvent else { return }
        event.message.withCString { text in
            var delivered = segue_event_t(struct_size: UInt32(MemoryLayout<segue_event_t>.size), kind: event.kind, level: event.level,
                                          message: text, transition: event.transition.map(OpaquePointer.init))
            onEvent(player.userData, &delivered)
        }
    }
    return SEGUE_OK
}

@c(segue_player_animator_count)
public func seguePlayerAnimatorCount(_ handle: OpaquePointer?) -> UInt32 {
    var status = SEGUE_OK
    guard let player = player(handle, "segue_player_animator_count", &status) else { return 0 }
    return UInt32(player.catalog.entries.count)
}

@c(segue_player_animator_info)
public func seguePlayerAnimatorInfo(_ handle: OpaquePointer?, _ index: UInt32,
                                    _ info: UnsafeMutablePointer<segue_animator_info_t>?) -> segue_status_t {
    var status = SEGUE_OK
    guard let player = player(handle, "segue_player_animator_info", &status),
          let entry = entry(index, of: player, "segue_player_animator_info", &status) else { return status }
    return describe(entry, into: info, "segue_player_animator_info")
}

/// Animator `index` of the player's catalog; else nil, with the refusal in `status`.
private func entry(_ index: UInt32, of player: Player, _ function: String, _ status: inout segue_status_t) -> Catalog.Entry? {
    let entries = player.catalog.entries
    guard Int(index) < entries.count else {
        status = refuse(SEGUE_E_NOT_FOUND, "\(function): index \(index) is past the last animator (there are \(entries.count))")
        return nil
    }
    return entries[Int(index)]
}

@c(segue_player_find_animator)
public func seguePlayerFindAnimator(_ handle: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                    _ info: UnsafeMutablePointer<segue_animator_info_t>?) -> segue_status_t {
    var status = SEGUE_OK
    guard let player = player(handle, "segue_player_find_animator", &status) else { return status }
    let wanted: String
    do throws(CStruct.Refusal) {
        wanted = try CStruct.text(name, "name", limit: 256)
    } catch {
        return refuse(SEGUE_E_INVALID_ARGUMENT, "segue_player_find_animator: \(error.message)")
    }
    guard let index = player.catalog.index(of: wanted) else {
        let names = player.catalog.entries.map(\.descriptor.name)
        return refuse(SEGUE_E_NOT_FOUND, "segue_player_find_animator: no animator named '\(PluginText.escaped(wanted))'\(NameSuggestion.hint(for: wanted, in: names)); there are \(names.joined(separator: ", "))")
    }
    return describe(player.catalog.entries[index], into: info, "segue_player_find_animator")
}

private func describe(_ entry: Catalog.Entry, into info: UnsafeMutablePointer<segue_animator_info_t>?, _ function: String) -> segue_status_t {
    guard let info else { return refuse(SEGUE_E_INVALID_ARGUMENT, "\(function): info is NULL") }
    let size: Int
    switch CStruct.size(of: info, "info", minimum: CStruct.animatorInfo10) {
    case .failure(let why): return refuse(SEGUE_E_INVALID_ARGUMENT, "\(function): \(why.message)")
    case .success(let s): size = s
    }
    var value = segue_animator_info_t()
    value.name = entry.name.pointer
    value.id = entry.id.pointer
    value.version = entry.version.pointer
    value.description = entry.summary.pointer
    value.file = entry.file?.pointer
    value.param_count = UInt32(entry.parameters.count)
    value.kinds = entry.descriptor.kinds.rawValue
    CStruct.write(value, to: info, size: size)
    return SEGUE_OK
}

@c(segue_player_animator_param)
public func seguePlayerAnimatorParam(_ handle: OpaquePointer?, _ index: UInt32, _ paramIndex: UInt32,
                                     _ param: UnsafeMutablePointer<segue_param_t>?) -> segue_status_t {
    var status = SEGUE_OK
    guard let player = player(handle, "segue_player_animator_param", &status),
          let entry = entry(index, of: player, "segue_player_animator_param", &status) else { return status }
    guard Int(paramIndex) < entry.parameters.count else {
        return refuse(SEGUE_E_NOT_FOUND, "segue_player_animator_param: \(entry.descriptor.name) has \(entry.parameters.count) parameters; there is no parameter \(paramIndex)")
    }
    guard let param else { return refuse(SEGUE_E_INVALID_ARGUMENT, "segue_player_animator_param: param is NULL") }
    let size: Int
    switch CStruct.size(of: param, "param", minimum: MemoryLayout<segue_param_t>.size) {
    case .failure(let why): return refuse(SEGUE_E_INVALID_ARGUMENT, "segue_player_animator_param: \(why.message)")
    case .success(let s): size = s
    }
    let p = entry.parameters[Int(paramIndex)]
    var value = segue_param_t()
    value.name = p.name.pointer
    value.explanation = p.explanation.pointer
    value.type = p.descriptor.abiType.rawValue
    value.default_value = p.descriptor.defaultValue
    value.min_value = p.descriptor.minimum
    value.max_value = p.descriptor.maximum
    value.choices = p.choicePointers.map { UnsafePointer($0) }
    value.choice_count = UInt32(p.choices.count)
    CStruct.write(value, to: param, size: size)
    return SEGUE_OK
}

