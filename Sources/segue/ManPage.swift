import Foundation
import PluginRuntime

/// The man page, `docs/segue.1`, made from the command table: a synopsis
/// line and a section per command, each its `--help` after USAGE, between the parts that
/// are about the tool as a whole. `segue --man-page > docs/segue.1` writes it;
/// a test keeps the checked-in page current.
enum ManPage {
    static var text: String {
        var page = ".TH SEGUE 1 \"Segue \(SegueVersion.string)\" \"Segue\" \"User Commands\"\n"
        page += ".SH NAME\n"
        page += #"segue \- a plugin host for view-transition animators"#
        page += "\n.SH SYNOPSIS\n"
        for command in Commands.all {
            page += ".B segue \(escape(command.name))\n\(escape(command.synopsis.joined(separator: " ")))\n.br\n"
        }
        page += ".B segue help\n"
        page += #"\fICOMMAND\fR"#
        page += "\n"
        page += description + "\n.SH COMMANDS\n"
        for command in Commands.all {
            page += ".SS segue \(escape(command.name))\n\(escape(command.summary)).\n.PP\n.nf\n"
            page += command.body.split(separator: "\n", omittingEmptySubsequences: false).map { escape(String($0)) }.joined(separator: "\n") + "\n.fi\n"
        }
        return page + whole + "\n"
    }

    /// `text` safe in roff: backslashes and hyphens escaped, no line starting with a control character.
    static func escape(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: #"\"#, with: #"\e"#).replacingOccurrences(of: "-", with: #"\-"#)
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? #"\&"# + escaped : escaped
    }

    /// What Segue is.
    static let description = #"""
    .SH DESCRIPTION
    Segue re-creates the iOS 7 custom container view controller transition
    pattern, a container of child views switching between them with animated
    transitions, and makes its animators plugins: shared libraries (\fI.so\fR)
    written against a small, versioned C ABI, found in plugin folders and chosen
    by name in a config file. When no plugin matches, or one declines or
    misbehaves, a built-in default animator runs and Segue says why. Plugin code
    runs in worker processes by default, so a plugin that crashes, hangs, exits
    or prints costs at most its own transition.
    .PP
    Every command takes \fB\-\-help\fR (also \fBsegue help\fR \fICOMMAND\fR).
    The README and docs/ of the source tree are the full manual; this page is its summary.
    """#

    /// Locations, environment, files, exit status: about the tool as a whole.
    static let whole = #"""
    .SH PLUGIN LOCATIONS
    Folders are searched in this order, earlier ones winning a name clash:
    \fB\-\-plugins\fR folders; \fBSEGUE_PLUGIN_PATH\fR; the config's
    \fBplugins\fR; the user folder \fI$XDG_DATA_HOME/segue/plugins\fR
    (\fI~/.local/share/segue/plugins\fR); the installation's
    \fIPREFIX/lib/segue/plugins\fR; the plugins built beside the executable.
    .SH ENVIRONMENT
    .TP
    .B SEGUE_PLUGIN_PATH
    Colon-separated plugin folders, searched after \fB\-\-plugins\fR.
    .TP
    .B SEGUE_PLUGIN_SYSTEM_PATH
    When set, replaces the installation's and the bundled folders (empty: none).
    .TP
    .B XDG_DATA_HOME
    Where the user folder is (default \fI~/.local/share\fR).
    .TP
    .B SEGUE_REGISTRY_CACHE
    The registry cache file, or \fBoff\fR (default
    \fI$XDG_CACHE_HOME/segue/registry\-ARCH.bin\fR).
    .TP
    .B SEGUE_ALLOW_INSECURE_PLUGINS
    \fB1\fR has the effect of \fB\-\-allow\-insecure\-plugins\fR.
    .TP
    .B SEGUE_SANDBOX
    \fBstrict\fR or \fBoff\fR: the sandbox, unless \fB\-\-sandbox\fR says.
    .TP
    .B SEGUE_WORKER
    The \fBsegue\-worker\fR executable, when it is not beside \fBsegue\fR or in
    \fI../libexec/segue\fR.
    .SH FILES
    .TP
    .I PREFIX/lib/segue/plugins
    The bundled animators of an installation: SpringSlide, CurlUp, ImageZoom.
    .TP
    .I PREFIX/libexec/segue/segue\-worker
    The process that runs plugin code.
    .TP
    .I PREFIX/include/segue_animator.h
    The C ABI; \fBpkg\-config \-\-cflags segue\-animator\fR, and
    \fBpkg\-config \-\-variable=plugindir segue\-animator\fR for where plugins install.
    .TP
    .I PREFIX/lib/libsegue.so.1, PREFIX/include/segue/embed.h
    libsegue, for programs that play animators on their own views;
    \fBpkg\-config \-\-cflags \-\-libs segue\fR.
    .SH EXIT STATUS
    0 ok; 1 failure (a bad config, a failed validation); 2 usage.
    A watch ended by SIGINT or SIGTERM exits 0.
    .SH SEE ALSO
    .BR pkg\-config (1)
    """#
}
