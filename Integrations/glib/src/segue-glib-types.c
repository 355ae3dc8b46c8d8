/* The error domain, the enumerations and the page's shading: libsegue's, as GLib types. */
#include "segue-glib-private.h"

G_DEFINE_QUARK(segue-glib-error-quark, segue_glib_error)

G_DEFINE_ENUM_TYPE(SegueGLibError, segue_glib_error,
    G_DEFINE_ENUM_VALUE(SEGUE_GLIB_ERROR_FAILED, "failed"),
    G_DEFINE_ENUM_VALUE(SEGUE_GLIB_ERROR_INVALID_ARGUMENT, "invalid-argument"),
    G_DEFINE_ENUM_VALUE(SEGUE_GLIB_ERROR_NOT_FOUND, "not-found"),
    G_DEFINE_ENUM_VALUE(SEGUE_GLIB_ERROR_CONFIG, "config"),
    G_DEFINE_ENUM_VALUE(SEGUE_GLIB_ERROR_WRONG_THREAD, "wrong-thread"),
    G_DEFINE_ENUM_VALUE(SEGUE_GLIB_ERROR_ENDED, "ended"),
    G_DEFINE_ENUM_VALUE(SEGUE_GLIB_ERROR_BUFFER_TOO_SMALL, "buffer-too-small"),
    G_DEFINE_ENUM_VALUE(SEGUE_GLIB_ERROR_SYSTEM, "system"))

G_DEFINE_ENUM_TYPE(SegueGLibSandbox, segue_glib_sandbox,
    G_DEFINE_ENUM_VALUE(SEGUE_GLIB_SANDBOX_FROM_CONFIG, "from-config"),
    G_DEFINE_ENUM_VALUE(SEGUE_GLIB_SANDBOX_STRICT, "strict"),
    G_DEFINE_ENUM_VALUE(SEGUE_GLIB_SANDBOX_OFF, "off"))

G_DEFINE_ENUM_TYPE(SegueGLibIsolation, segue_glib_isolation,
    G_DEFINE_ENUM_VALUE(SEGUE_GLIB_ISOLATION_PROCESS, "process"),
    G_DEFINE_ENUM_VALUE(SEGUE_GLIB_ISOLATION_NONE, "none"),
    G_DEFINE_ENUM_VALUE(SEGUE_GLIB_ISOLATION_FROM_CONFIG, "from-config"))

G_DEFINE_ENUM_TYPE(SegueGLibTransitionKind, segue_glib_transition_kind,
    G_DEFINE_ENUM_VALUE(SEGUE_GLIB_TRANSITION_KIND_SWITCH, "switch"),
    G_DEFINE_ENUM_VALUE(SEGUE_GLIB_TRANSITION_KIND_APPEAR, "appear"),
    G_DEFINE_ENUM_VALUE(SEGUE_GLIB_TRANSITION_KIND_DISAPPEAR, "disappear"))

G_DEFINE_ENUM_TYPE(SegueGLibSide, segue_glib_side,
    G_DEFINE_ENUM_VALUE(SEGUE_GLIB_SIDE_FROM, "from"),
    G_DEFINE_ENUM_VALUE(SEGUE_GLIB_SIDE_TO, "to"))

G_DEFINE_ENUM_TYPE(SegueGLibLogLevel, segue_glib_log_level,
    G_DEFINE_ENUM_VALUE(SEGUE_GLIB_LOG_LEVEL_DEBUG, "debug"),
    G_DEFINE_ENUM_VALUE(SEGUE_GLIB_LOG_LEVEL_INFO, "info"),
    G_DEFINE_ENUM_VALUE(SEGUE_GLIB_LOG_LEVEL_WARNING, "warning"),
    G_DEFINE_ENUM_VALUE(SEGUE_GLIB_LOG_LEVEL_ERROR, "error"))

G_DEFINE_ENUM_TYPE(SegueGLibWindowType, segue_glib_window_type,
    G_DEFINE_ENUM_VALUE(SEGUE_GLIB_WINDOW_TYPE_NORMAL, "normal"),
    G_DEFINE_ENUM_VALUE(SEGUE_GLIB_WINDOW_TYPE_DIALOG, "dialog"),
    G_DEFINE_ENUM_VALUE(SEGUE_GLIB_WINDOW_TYPE_UTILITY, "utility"),
    G_DEFINE_ENUM_VALUE(SEGUE_GLIB_WINDOW_TYPE_NOTIFICATION, "notification"),
    G_DEFINE_ENUM_VALUE(SEGUE_GLIB_WINDOW_TYPE_MENU, "menu"),
    G_DEFINE_ENUM_VALUE(SEGUE_GLIB_WINDOW_TYPE_TOOLTIP, "tooltip"),
    G_DEFINE_ENUM_VALUE(SEGUE_GLIB_WINDOW_TYPE_SPLASH, "splash"),
    G_DEFINE_ENUM_VALUE(SEGUE_GLIB_WINDOW_TYPE_DOCK, "dock"))

/* The animator ABI's values, which the request copies as they are. */
G_STATIC_ASSERT(SEGUE_GLIB_WINDOW_TYPE_DIALOG == (int)SEGUE_WINDOW_DIALOG && SEGUE_GLIB_WINDOW_TYPE_DOCK == (int)SEGUE_WINDOW_DOCK);

gboolean segue_glib_fail(GError **error, segue_status_t status, const char *what) {
    int code = status < 0 && status >= SEGUE_E_SYSTEM ? -status : SEGUE_GLIB_ERROR_FAILED;
    const char *message = segue_error_message();
    /* libsegue's words name the call, the argument, key or file; `what` only when it has none. */
    if (message && *message) g_set_error_literal(error, SEGUE_GLIB_ERROR, code, message);
    else g_set_error(error, SEGUE_GLIB_ERROR, code, "%s (libsegue said no more)", what);
    return FALSE;
}

void segue_glib_page_back(double red, double green, double blue, double alpha, double *out_red, double *out_green,
                          double *out_blue) {
    float colour[4] = { (float)red, (float)green, (float)blue, (float)alpha };
    segue_page_back(colour, colour);
    if (out_red) *out_red = colour[0];
    if (out_green) *out_green = colour[1];
    if (out_blue) *out_blue = colour[2];
}

const char *segue_glib_page_shading_glsl(void) {
    return segue_page_shading_glsl();
}

const char *segue_glib_mesh_texels_glsl(void) {
    return "vec4 segue_mesh_texel(sampler2D mesh, vec2 vertices, float x, float y) {\n"
           "    return texture2DLod(mesh, vec2((x + 0.5) / (2.0 * vertices.x), (y + 0.5) / vertices.y), 0.0);\n"
           "}\n"
           "vec2 segue_mesh_point(sampler2D mesh, vec2 vertices, vec2 at) {\n"
           "    vec4 t = floor(segue_mesh_texel(mesh, vertices, 2.0 * at.x, at.y) * 255.0 + 0.5);\n"
           "    return vec2(t.r * 256.0 + t.g, t.b * 256.0 + t.a) / 8.0 - 4096.0;\n"
           "}\n"
           "vec2 segue_mesh_light(sampler2D mesh, vec2 vertices, vec2 at) {\n"
           "    return segue_mesh_texel(mesh, vertices, 2.0 * at.x + 1.0, at.y).rg;\n"
           "}\n";
}
