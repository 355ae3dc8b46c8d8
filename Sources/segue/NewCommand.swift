import AnimatorABI
import Foundation
import PluginHost
import PluginRuntime

/// `segue new NAME`: a ready-to-build animator folder, like `cargo new`: the
/// animator (a cross-fade to start from), a build file whose default target
/// builds `libNAME.so` and whose `install` target puts it in the user's plugin
/// folder, and a README of three commands. Languages: those whose templates
/// are proven by the tests, each from its example in `Examples/`.
enum NewCommand {
    static let about = """
    Writes a folder (DIR, default ./NAME) holding an animator named NAME that
    builds as it is: its source, a Makefile (make builds libNAME.so, make
    install copies it into your plugin folder) and a README of the three
    commands that build, preview and validate it. NAME is the animator's short
    name, as configs select it: a letter, then letters, digits, '-' or '_'.
    It refuses a folder that exists and is not empty.
    """

    /// The languages there are templates for.
    static let languages = ["c", "cpp", "rust", "swift", "zig"]

    static func main(_ arguments: [String]) throws(UsageError) -> ExitCode {
        guard let args = try Arguments.unlessHelp(arguments, command: Commands.new) else { return .success }
        let name = args.operand
        guard PluginBoundary.isValidName(name), name.utf8.count <= Int(SEGUE_MAX_NAME) else {
            throw args.usage("new: '\(PluginText.escaped(name))' is not an animator name: expected a letter, then letters, digits, '-' or '_' (at most \(SEGUE_MAX_NAME) bytes)")
        }
        let language = args.single("--lang") ?? "c"  // the parser checked it is one of `languages`
        let folder = PluginFolders.absolute(args.single("--dir") ?? name)
        if let existing = try? FileManager.default.contentsOfDirectory(atPath: folder), !existing.isEmpty {
            printError("segue: \(folder) exists and is not empty: segue new writes only into a new or empty folder")
            return .failure
        }
        guard let include = headerFolder() else {
            printError("segue: cannot find segue_animator.h beside this segue (PREFIX/include, or the source tree): install the SDK (Scripts/install-sdk.sh)")
            return .failure
        }
        var files = template(language, name: name, include: include)
        if language == "swift" {
            // The header goes into the package as a C target, so the package needs no Segue checkout.
            let headers = ["segue_animator.h"] + ((try? FileManager.default.contentsOfDirectory(atPath: include + "/segue")) ?? [])
                .filter { $0.hasSuffix(".h") }.sorted().map { "segue/" + $0 }
            for header in headers {
                guard let text = try? String(contentsOfFile: include + "/" + header, encoding: .utf8) else {
                    printError("segue: cannot read \(include)/\(header)")
                    return .failure
                }
                files.append(("Sources/AnimatorABI/include/" + header, text))
            }
        }
        if language == "rust" {
            // The header's types for Rust: bindgen's bindings, from the SDK or the source tree.
            let sdk = URL(fileURLWithPath: include).deletingLastPathComponent().path + "/share/segue/rust/bindings.rs"
            let tree = URL(fileURLWithPath: include).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
                + "/Examples/rust-animator/src/bindings.rs"
            guard let bindings = [sdk, tree].lazy.compactMap({ try? String(contentsOfFile: $0, encoding: .utf8) }).first else {
                printError("segue: cannot find the header's Rust bindings (\(sdk) or \(tree)): install the SDK (Scripts/install-sdk.sh)")
                return .failure
            }
            files.append(("src/bindings.rs", bindings))
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (file, text) in files {
                try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: folder + "/" + file).deletingLastPathComponent().path,
                                                        withIntermediateDirectories: true)
                try text.write(toFile: folder + "/" + file, atomically: true, encoding: .utf8)
            }
        } catch {
            printError("segue: cannot write \(folder): \(error.localizedDescription)")
            return .failure
        }
        print("wrote \(folder): \(files.map(\.0).sorted().joined(separator: ", "))")
        print("next: cd \(folder) && make && segue validate lib\(name).so")
        return .success
    }

    /// The folder holding `segue_animator.h`: the installation's PREFIX/include
    /// (segue in PREFIX/bin), else the source tree this segue was built in.
    static func headerFolder() -> String? {
        let executable = URL(fileURLWithPath: PluginSearchPath.currentExecutable()).resolvingSymlinksInPath()
        let bin = executable.deletingLastPathComponent()
        let candidates = [
            bin.deletingLastPathComponent().appendingPathComponent("include"),
            // .build/TRIPLE/CONFIGURATION/segue, in the package's root
            bin.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Sources/AnimatorABI/include"),
        ]
        return candidates.map(\.path).first { FileManager.default.fileExists(atPath: $0 + "/segue_animator.h") }
    }

    /// NAME as a C identifier and as the id's last part.
    static func identifier(_ name: String) -> String { name.replacingOccurrences(of: "-", with: "_") }
    static func idPart(_ name: String) -> String { name.lowercased().replacingOccurrences(of: "_", with: "-") }

    /// The files of a new animator in `language`, by file name.
    static func template(_ language: String, name: String, include: String) -> [(String, String)] {
        let id = "org.example.\(idPart(name))/1"
        let source: (file: String, text: String, build: String, compile: String)
        switch language {
        case "cpp":
            source = ("\(identifier(name)).cpp", cppSource(name: name, id: id), "$(CXX) $(CXXFLAGS)",
                      "CXXFLAGS ?= -std=c++17 -O2 -Wall -Wextra -Wpedantic -fno-exceptions -fno-rtti")
        case "rust":
            return rustTemplate(name: name, id: id)
        case "swift":
            return swiftTemplate(name: name, id: id)
        case "zig":
            source = ("\(identifier(name)).zig", zigSource(name: name, id: id), "$(ZIG) build-lib -dynamic -O ReleaseSafe -lc",
                      "ZIG ?= $(shell command -v zig 2>/dev/null || echo python3 -m ziglang)")
        default:
            source = ("\(identifier(name)).c", cSource(name: name, id: id), "$(CC) $(CFLAGS)", "CFLAGS ?= -std=c11 -O2 -Wall -Wextra")
        }
        let link = language == "zig"
            ? "\(source.build) $(SEGUE_CFLAGS) \(source.file) -femit-bin=$@"
            : "\(source.build) $(SEGUE_CFLAGS) -shared -fPIC -Wl,-z,defs -o $@ \(source.file) -lm"
        let makefile = """
        # Builds the \(name) animator.
        #   make            # lib\(name).so
        #   make install    # into your plugin folder, ~/.local/share/segue/plugins
        # The header: from pkg-config when the SDK is installed, else where segue new found it.
        SEGUE_CFLAGS ?= $(shell pkg-config --cflags segue-animator 2>/dev/null || echo -I\(include))
        \(source.compile)
        \(pluginFolder)

        lib\(name).so: \(source.file)
        \t\(link)

        \(installRule(name))

        clean:
        \trm -f lib\(name).so lib\(name).so.o

        .PHONY: clean install

        """
        return [(source.file, source.text), ("Makefile", makefile), ("README.md", readme(name, language: language))]
    }

    /// Where `make install` puts the animator: the user's plugin folder.
    static let pluginFolder = """
        XDG_DATA_HOME ?= $(HOME)/.local/share
        PLUGINDIR ?= $(XDG_DATA_HOME)/segue/plugins
        """

    /// The Makefile rule installing lib`name`.so (copied beside, then renamed, so a running segue never reads half a file).
    static func installRule(_ name: String) -> String {
        """
        install: lib\(name).so
        \tmkdir -p "$(PLUGINDIR)"
        \tcp lib\(name).so "$(PLUGINDIR)/.lib\(name).so.tmp"
        \tchmod 755 "$(PLUGINDIR)/.lib\(name).so.tmp"
        \tmv -f "$(PLUGINDIR)/.lib\(name).so.tmp" "$(PLUGINDIR)/lib\(name).so"
        """
    }

    /// The README: what it is, then the three commands that build, preview and validate it.
    static func readme(_ name: String, language: String, note: String = "", building: String = "") -> String {
        """
        # \(name)

        A Segue animator, written by `segue new \(name) --lang \(language)`: a cross-fade to start from.
        \(note)
        ```sh
        make                                               # builds lib\(name).so\(building)
        segue preview \(name) --plugins . --out \(name).gif  # see it
        segue validate lib\(name).so                       # check it; then: make install
        ```

        """
    }

    /// A Cargo crate (no registry crate: it builds offline) and a Makefile around it.
    static func rustTemplate(name: String, id: String) -> [(String, String)] {
        let crate = identifier(name).lowercased()
        let cargo = """
        [package]
        name = "\(crate)"
        version = "0.1.0"
        edition = "2021"
        publish = false

        [dependencies]

        [lib]
        crate-type = ["cdylib"]
        path = "src/lib.rs"

        """
        let makefile = """
        # Builds the \(name) animator.
        #   make            # lib\(name).so
        #   make test       # bindgen's layout tests
        #   make install    # into your plugin folder, ~/.local/share/segue/plugins
        CARGO ?= cargo
        CARGO_TARGET_DIR ?= $(CURDIR)/target
        export CARGO_TARGET_DIR
        \(pluginFolder)

        lib\(name).so: Cargo.toml src/lib.rs src/bindings.rs
        \t$(CARGO) build --release --offline
        \tcp "$(CARGO_TARGET_DIR)/release/lib\(crate).so" $@

        test:
        \t$(CARGO) test --offline

        \(installRule(name))

        clean:
        \trm -f lib\(name).so
        \t$(CARGO) clean

        .PHONY: clean install test

        """
        let source = """
        //! \(name): a Segue animator in Rust. The from view fades out while the to view fades in.
        #![allow(non_upper_case_globals, non_camel_case_types, non_snake_case, dead_code)]

        mod bindings {
            #![allow(unused_imports)]
            include!("bindings.rs");
        }

        use bindings::*;
        use std::os::raw::c_char;
        use std::panic::{catch_unwind, AssertUnwindSafe};
        use std::sync::atomic::{AtomicPtr, Ordering};

        #[repr(transparent)]
        struct Shared<T>(T);
        unsafe impl<T> Sync for Shared<T> {}

        const fn text(bytes: &'static [u8]) -> *const c_char {
            bytes.as_ptr() as *const c_char
        }

        static DURATION: Shared<segue_param_t> = Shared(segue_param_t {
            struct_size: std::mem::size_of::<segue_param_t>() as u32,
            name: text(b"duration\\0"),
            explanation: text(b"Length of the transition, in seconds.\\0"),
            type_: segue_param_type_SEGUE_PARAM_NUMBER as u32,
            default_value: 0.3,
            min_value: 0.05,
            max_value: 10.0,
            choices: std::ptr::null(),
            choice_count: 0,
        });
        static PARAMS: Shared<[*const segue_param_t; 1]> = Shared([&DURATION.0]);
        const VERSION: segue_version_t = segue_version_t { major: SEGUE_ABI_VERSION_MAJOR, minor: SEGUE_ABI_VERSION_MINOR };
        static HOST: AtomicPtr<segue_host_t> = AtomicPtr::new(std::ptr::null_mut());

        unsafe extern "C" fn setup(_: *const segue_animator_t, ctx: *const segue_context_t, plan: *mut segue_plan_t) -> segue_setup_result_t {
            catch_unwind(AssertUnwindSafe(|| {
                let (ctx, plan) = (&*ctx, &mut *plan);
                plan.duration = *ctx.params;
                plan.layer_count = 2;
                plan.layers[0].kind = segue_layer_kind_SEGUE_LAYER_FROM_VIEW as u32;
                plan.layers[1].kind = segue_layer_kind_SEGUE_LAYER_TO_VIEW as u32;
                segue_setup_result_SEGUE_SETUP_ANIMATE
            }))
            .unwrap_or(segue_setup_result_SEGUE_SETUP_DECLINE)
        }

        unsafe extern "C" fn evaluate(
            _: *const segue_animator_t, ctx: *const segue_context_t, plan: *const segue_plan_t, t: f64,
            states: *const *mut segue_layer_state_t, _count: u32,
        ) {
            let _ = catch_unwind(AssertUnwindSafe(|| {
                let (ctx, plan) = (&*ctx, &*plan);
                let curve = (*HOST.load(Ordering::Acquire)).curve_value.expect("curve_value");
                let f = curve(segue_curve_SEGUE_CURVE_EASE_IN_OUT, t / plan.duration);
                let (from, to) = (&mut **states, &mut **states.add(1));
                from.frame = ctx.from_initial_frame;
                from.alpha = 1.0 - f;
                to.frame = ctx.to_final_frame;
                to.alpha = f;
            }));
        }

        static ANIMATOR: Shared<segue_animator_t> = Shared(segue_animator_t {
            abi_version: VERSION,
            struct_size: std::mem::size_of::<segue_animator_t>() as u32,
            id: text(b"\(id)\\0"),
            name: text(b"\(name)\\0"),
            version: text(b"0.1.0\\0"),
            description: text(b"Fades the from view out while the to view fades in.\\0"),
            params: &PARAMS.0 as *const _ as *const *const segue_param_t,
            param_count: 1,
            setup: Some(setup),
            evaluate: Some(evaluate),
            end: None,
        });
        static ANIMATORS: Shared<[*const segue_animator_t; 1]> = Shared([&ANIMATOR.0]);
        static PLUGIN: Shared<segue_plugin_t> = Shared(segue_plugin_t {
            abi_version: VERSION,
            struct_size: std::mem::size_of::<segue_plugin_t>() as u32,
            animators: &ANIMATORS.0 as *const _ as *const *const segue_animator_t,
            animator_count: 1,
        });

        #[no_mangle]
        pub unsafe extern "C" fn segue_animator_entry(host: *const segue_host_t) -> *const segue_plugin_t {
            catch_unwind(|| {
                if host.is_null() || (*host).abi_version.major != SEGUE_ABI_VERSION_MAJOR {
                    return std::ptr::null();
                }
                HOST.store(host as *mut _, Ordering::Release);
                &PLUGIN.0 as *const segue_plugin_t
            })
            .unwrap_or(std::ptr::null())
        }

        """
        let readme = readme(name, language: "rust", note: "`src/bindings.rs` is bindgen's translation of the Segue header.\n",
                            building: " (cargo, offline)")
        return [("Cargo.toml", cargo), ("Makefile", makefile), ("src/lib.rs", source), ("README.md", readme)]
    }

    /// A SwiftPM package: the header as a C target of its own, the animator exported with @c.
    static func swiftTemplate(name: String, id: String) -> [(String, String)] {
        let package = """
        // swift-tools-version:6.2
        // \(name): a Segue animator in Swift. Build it with the Swift toolchain segue was built with
        // (Swift has no stable ABI on Linux). The header is a C target of the package: no Segue checkout needed.
        import PackageDescription

        let package = Package(
            name: "\(name)",
            products: [.library(name: "\(name)", type: .dynamic, targets: ["\(name)"])],
            targets: [
                .target(name: "AnimatorABI"),
                .target(name: "\(name)", dependencies: ["AnimatorABI"]),
            ]
        )

        """
        let makefile = """
        # Builds the \(name) animator.
        #   make            # lib\(name).so
        #   make install    # into your plugin folder, ~/.local/share/segue/plugins
        SWIFT ?= swift
        \(pluginFolder)

        lib\(name).so: Package.swift Sources/\(name)/\(name).swift
        \t$(SWIFT) build -c release --product \(name)
        \tcp "$$($(SWIFT) build -c release --show-bin-path)/lib\(name).so" $@

        \(installRule(name))

        clean:
        \trm -rf lib\(name).so .build

        .PHONY: clean install

        """
        let source = """
        // \(name): a Segue animator in Swift. The from view fades out while the to view fades in.
        import AnimatorABI

        /// A C string that lives as long as the program: what the ABI needs.
        private func cString(_ s: StaticString) -> UnsafePointer<CChar> {
            UnsafeRawPointer(s.utf8Start).assumingMemoryBound(to: CChar.self)
        }

        /// Places `value` in memory that is never freed: descriptors live as long as the process.
        private func permanent<T>(_ value: T) -> UnsafePointer<T> {
            let p = UnsafeMutablePointer<T>.allocate(capacity: 1)
            p.initialize(to: value)
            return UnsafePointer(p)
        }

        nonisolated(unsafe) private var host: UnsafePointer<segue_host_t>?

        private func setup(_ self_: UnsafePointer<segue_animator_t>?, _ ctx: UnsafePointer<segue_context_t>?,
                           _ plan: UnsafeMutablePointer<segue_plan_t>?) -> segue_setup_result_t {
            guard let ctx, let plan else { return SEGUE_SETUP_DECLINE }
            plan.pointee.duration = ctx.pointee.params[0]
            plan.pointee.layer_count = 2
            plan.pointee.layers.0.kind = UInt32(SEGUE_LAYER_FROM_VIEW.rawValue)
            plan.pointee.layers.1.kind = UInt32(SEGUE_LAYER_TO_VIEW.rawValue)
            return SEGUE_SETUP_ANIMATE
        }

        private func evaluate(_ self_: UnsafePointer<segue_animator_t>?, _ ctx: UnsafePointer<segue_context_t>?,
                              _ plan: UnsafePointer<segue_plan_t>?, _ t: Double,
                              _ states: UnsafePointer<UnsafeMutablePointer<segue_layer_state_t>?>?, _ count: UInt32) {
            guard let ctx, let plan, let states, count == 2, let from = states[0], let to = states[1],
                  let curve = host?.pointee.curve_value else { return }
            let f = curve(SEGUE_CURVE_EASE_IN_OUT, t / plan.pointee.duration)
            from.pointee.frame = ctx.pointee.from_initial_frame
            from.pointee.alpha = 1 - f
            to.pointee.frame = ctx.pointee.to_final_frame
            to.pointee.alpha = f
        }

        nonisolated(unsafe) private let plugin: UnsafePointer<segue_plugin_t> = {
            var animator = segue_animator_t()
            animator.abi_version = segue_version_t(major: UInt32(SEGUE_ABI_VERSION_MAJOR), minor: UInt32(SEGUE_ABI_VERSION_MINOR))
            animator.struct_size = UInt32(MemoryLayout<segue_animator_t>.size)
            animator.id = cString("\(id)")
            animator.name = cString("\(name)")
            animator.version = cString("0.1.0")
            animator.description = cString("Fades the from view out while the to view fades in.")
            let duration = permanent(segue_param_t(
                struct_size: UInt32(MemoryLayout<segue_param_t>.size), name: cString("duration"),
                explanation: cString("Length of the transition, in seconds."), type: UInt32(SEGUE_PARAM_NUMBER.rawValue),
                default_value: 0.3, min_value: 0.05, max_value: 10, choices: nil, choice_count: 0))
            animator.params = permanent(Optional(duration))
            animator.param_count = 1
            animator.setup = setup
            animator.evaluate = evaluate
            return permanent(segue_plugin_t(
                abi_version: animator.abi_version, struct_size: UInt32(MemoryLayout<segue_plugin_t>.size),
                animators: permanent(Optional(permanent(animator))), animator_count: 1))
        }()

        /// The one export: the host calls it once, on its main thread.
        @c(segue_animator_entry)
        public func segueAnimatorEntry(_ h: UnsafePointer<segue_host_t>?) -> UnsafePointer<segue_plugin_t>? {
            guard let h, segue_version_is_compatible(h.pointee.abi_version) else { return nil }
            host = h
            return plugin
        }

        """
        let readme = readme(name, language: "swift", note: "Build it with the Swift toolchain segue was built with.\n",
                            building: " (swift build -c release)")
        return [("Package.swift", package), ("Makefile", makefile), ("Sources/\(name)/\(name).swift", source),
                ("Sources/AnimatorABI/abi.c", "// The Segue header, as a C module for the animator's Swift code.\n#include \"segue_animator.h\"\n"),
                ("README.md", readme)]
    }

    static func cSource(name: String, id: String) -> String {
        """
        /* \(name): a Segue animator. The from view fades out while the to view fades in. */
        #include "segue_animator.h"

        static const segue_host_t *host;

        static const segue_param_t duration = {
            .struct_size = sizeof(segue_param_t),
            .name = "duration",
            .explanation = "Length of the transition, in seconds.",
            .type = SEGUE_PARAM_NUMBER,
            .default_value = 0.3, .min_value = 0.05, .max_value = 10,
        };
        static const segue_param_t *const params[] = { &duration };

        static segue_setup_result_t setup(const segue_animator_t *self, const segue_context_t *ctx, segue_plan_t *plan) {
            (void)self;
            plan->duration = ctx->params[0];
            plan->layer_count = 2;
            plan->layers[0].kind = SEGUE_LAYER_FROM_VIEW;
            plan->layers[1].kind = SEGUE_LAYER_TO_VIEW;
            return SEGUE_SETUP_ANIMATE;
        }

        static void evaluate(const segue_animator_t *self, const segue_context_t *ctx, const segue_plan_t *plan,
                             double t, segue_layer_state_t *const *states, uint32_t layer_count) {
            (void)self;
            (void)layer_count;
            double f = host->curve_value(SEGUE_CURVE_EASE_IN_OUT, t / plan->duration);
            states[0]->frame = ctx->from_initial_frame;
            states[0]->alpha = 1 - f;
            states[1]->frame = ctx->to_final_frame;
            states[1]->alpha = f;
        }

        static const segue_animator_t animator = {
            .abi_version = SEGUE_ABI_VERSION_INIT,
            .struct_size = sizeof(segue_animator_t),
            .id = "\(id)",
            .name = "\(name)",
            .version = "0.1.0",
            .description = "Fades the from view out while the to view fades in.",
            .params = params,
            .param_count = 1,
            .setup = setup,
            .evaluate = evaluate,
        };
        static const segue_animator_t *const animators[] = { &animator };
        static const segue_plugin_t plugin = {
            .abi_version = SEGUE_ABI_VERSION_INIT,
            .struct_size = sizeof(segue_plugin_t),
            .animators = animators,
            .animator_count = 1,
        };

        SEGUE_EXPORT const segue_plugin_t *segue_animator_entry(const segue_host_t *h) {
            if (!segue_version_is_compatible(h->abi_version)) return NULL;
            host = h;
            return &plugin;
        }

        """
    }

    static func cppSource(name: String, id: String) -> String {
        """
        // \(name): a Segue animator in C++17. The from view fades out while the to view fades in.
        #include "segue_animator.h"

        namespace {

        const segue_host_t *host = nullptr;

        segue_param_t durationParam() {
            segue_param_t p{};
            p.struct_size = sizeof(segue_param_t);
            p.name = "duration";
            p.explanation = "Length of the transition, in seconds.";
            p.type = SEGUE_PARAM_NUMBER;
            p.default_value = 0.3;
            p.min_value = 0.05;
            p.max_value = 10;
            return p;
        }
        const segue_param_t duration = durationParam();
        const segue_param_t *const params[] = {&duration};

        struct Animator {
            static segue_setup_result_t setup(const segue_animator_t *, const segue_context_t *ctx, segue_plan_t *plan) noexcept {
                plan->duration = ctx->params[0];
                plan->layer_count = 2;
                plan->layers[0].kind = SEGUE_LAYER_FROM_VIEW;
                plan->layers[1].kind = SEGUE_LAYER_TO_VIEW;
                return SEGUE_SETUP_ANIMATE;
            }

            static void evaluate(const segue_animator_t *, const segue_context_t *ctx, const segue_plan_t *plan, double t,
                                 segue_layer_state_t *const *states, uint32_t) noexcept {
                const double f = host->curve_value(SEGUE_CURVE_EASE_IN_OUT, t / plan->duration);
                states[0]->frame = ctx->from_initial_frame;
                states[0]->alpha = 1 - f;
                states[1]->frame = ctx->to_final_frame;
                states[1]->alpha = f;
            }
        };

        segue_animator_t makeAnimator() {
            segue_animator_t a{};
            a.abi_version = SEGUE_ABI_VERSION_INIT;
            a.struct_size = sizeof(segue_animator_t);
            a.id = "\(id)";
            a.name = "\(name)";
            a.version = "0.1.0";
            a.description = "Fades the from view out while the to view fades in.";
            a.params = params;
            a.param_count = 1;
            a.setup = Animator::setup;
            a.evaluate = Animator::evaluate;
            return a;
        }
        const segue_animator_t animator = makeAnimator();
        const segue_animator_t *const animators[] = {&animator};

        segue_plugin_t makePlugin() {
            segue_plugin_t p{};
            p.abi_version = SEGUE_ABI_VERSION_INIT;
            p.struct_size = sizeof(segue_plugin_t);
            p.animators = animators;
            p.animator_count = 1;
            return p;
        }
        const segue_plugin_t plugin = makePlugin();

        }  // namespace

        extern "C" SEGUE_EXPORT const segue_plugin_t *segue_animator_entry(const segue_host_t *h) {
            if (!segue_version_is_compatible(h->abi_version)) return nullptr;
            host = h;
            return &plugin;
        }

        """
    }

    static func zigSource(name: String, id: String) -> String {
        """
        //! \(name): a Segue animator in Zig (0.14). The from view fades out while the to view fades in.
        const c = @cImport(@cInclude("segue_animator.h"));

        var host: ?*const c.segue_host_t = null;

        const duration = c.segue_param_t{
            .struct_size = @sizeOf(c.segue_param_t),
            .name = "duration",
            .explanation = "Length of the transition, in seconds.",
            .type = c.SEGUE_PARAM_NUMBER,
            .default_value = 0.3,
            .min_value = 0.05,
            .max_value = 10,
            .choices = null,
            .choice_count = 0,
        };
        const params = [_][*c]const c.segue_param_t{&duration};

        fn setup(_: [*c]const c.segue_animator_t, ctx: [*c]const c.segue_context_t, plan: [*c]c.segue_plan_t) callconv(.c) c.segue_setup_result_t {
            plan.*.duration = ctx.*.params[0];
            plan.*.layer_count = 2;
            plan.*.layers[0].kind = c.SEGUE_LAYER_FROM_VIEW;
            plan.*.layers[1].kind = c.SEGUE_LAYER_TO_VIEW;
            return c.SEGUE_SETUP_ANIMATE;
        }

        fn evaluate(_: [*c]const c.segue_animator_t, ctx: [*c]const c.segue_context_t, plan: [*c]const c.segue_plan_t, t: f64, states: [*c]const [*c]c.segue_layer_state_t, _: u32) callconv(.c) void {
            const f = host.?.curve_value.?(c.SEGUE_CURVE_EASE_IN_OUT, t / plan.*.duration);
            states[0].*.frame = ctx.*.from_initial_frame;
            states[0].*.alpha = 1 - f;
            states[1].*.frame = ctx.*.to_final_frame;
            states[1].*.alpha = f;
        }

        const version = c.segue_version_t{ .major = c.SEGUE_ABI_VERSION_MAJOR, .minor = c.SEGUE_ABI_VERSION_MINOR };
        const animator = c.segue_animator_t{
            .abi_version = version,
            .struct_size = @sizeOf(c.segue_animator_t),
            .id = "\(id)",
            .name = "\(name)",
            .version = "0.1.0",
            .description = "Fades the from view out while the to view fades in.",
            .params = &params,
            .param_count = params.len,
            .setup = setup,
            .evaluate = evaluate,
            .end = null,
        };
        const animators = [_][*c]const c.segue_animator_t{&animator};
        const plugin = c.segue_plugin_t{
            .abi_version = version,
            .struct_size = @sizeOf(c.segue_plugin_t),
            .animators = &animators,
            .animator_count = animators.len,
        };

        export fn segue_animator_entry(h: [*c]const c.segue_host_t) [*c]const c.segue_plugin_t {
            if (h == null or h.*.abi_version.major != c.SEGUE_ABI_VERSION_MAJOR) return null;
            host = h;
            return &plugin;
        }

        """
    }
}
