/* SegueGLibPlayer: libsegue's player as a GInitable, its descriptor a GSource, its events signals. */
#include "segue-glib-private.h"
#include <glib-unix.h>

struct _SegueGLibPlayer {
    GObject parent_instance;
    /* Construct-only. */
    char *config_path;
    char **plugin_dirs;
    gboolean only_given_folders, watch, no_spin;
    SegueGLibSandbox sandbox;
    SegueGLibIsolation isolation;
    guint sample_bound;
    /* Made by init. */
    gboolean initialized;
    GError *init_error;
    segue_player_t *player;
    GSource *source;
    GHashTable *transitions; /* segue_transition_t * -> SegueGLibTransition * (not referenced: they untrack themselves) */
    GQueue pending;          /* of Pending: events dispatched, not yet emitted */
};

/* An event libsegue delivered, waiting to be emitted as a signal: no program code runs inside libsegue's
 * dispatch (which a transition's dispose calls, as GJS's garbage collector may). */
typedef struct {
    segue_event_kind_t kind;
    SegueGLibLogLevel level;
    char *message;
    SegueGLibTransition *transition; /* referenced; NULL when it is gone */
} Pending;

static void initable_iface_init(GInitableIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE(SegueGLibPlayer, segue_glib_player, G_TYPE_OBJECT,
                              G_IMPLEMENT_INTERFACE(G_TYPE_INITABLE, initable_iface_init))

enum {
    PROP_0, PROP_CONFIG_PATH, PROP_PLUGIN_DIRS, PROP_ONLY_GIVEN_FOLDERS, PROP_WATCH, PROP_SANDBOX, PROP_ISOLATION,
    PROP_NO_SPIN, PROP_SAMPLE_BOUND, N_PROPS
};
enum { SIGNAL_LOG, SIGNAL_RELOADED, SIGNAL_CONFIG_ERROR, SIGNAL_FELL_BACK, N_SIGNALS };
static guint signals[N_SIGNALS];

static void set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
    SegueGLibPlayer *self = SEGUE_GLIB_PLAYER(object);
    switch (id) {
    case PROP_CONFIG_PATH: g_free(self->config_path); self->config_path = g_value_dup_string(value); break;
    case PROP_PLUGIN_DIRS: g_strfreev(self->plugin_dirs); self->plugin_dirs = g_value_dup_boxed(value); break;
    case PROP_ONLY_GIVEN_FOLDERS: self->only_given_folders = g_value_get_boolean(value); break;
    case PROP_WATCH: self->watch = g_value_get_boolean(value); break;
    case PROP_SANDBOX: self->sandbox = g_value_get_enum(value); break;
    case PROP_ISOLATION: self->isolation = g_value_get_enum(value); break;
    case PROP_NO_SPIN: self->no_spin = g_value_get_boolean(value); break;
    case PROP_SAMPLE_BOUND: self->sample_bound = g_value_get_uint(value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    }
}

static void get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
    SegueGLibPlayer *self = SEGUE_GLIB_PLAYER(object);
    switch (id) {
    case PROP_CONFIG_PATH: g_value_set_string(value, self->config_path); break;
    case PROP_PLUGIN_DIRS: g_value_set_boxed(value, self->plugin_dirs); break;
    case PROP_ONLY_GIVEN_FOLDERS: g_value_set_boolean(value, self->only_given_folders); break;
    case PROP_WATCH: g_value_set_boolean(value, self->watch); break;
    case PROP_SANDBOX: g_value_set_enum(value, self->sandbox); break;
    case PROP_ISOLATION: g_value_set_enum(value, self->isolation); break;
    case PROP_NO_SPIN: g_value_set_boolean(value, self->no_spin); break;
    case PROP_SAMPLE_BOUND: g_value_set_uint(value, self->sample_bound); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    }
}

/* libsegue's events, during segue_player_dispatch on the player's thread: queued, with the transition a
 * fallback names while it lives (a transition untracks itself before it is freed). */
static void on_event(void *user_data, const segue_event_t *event) {
    SegueGLibPlayer *self = user_data;
    Pending *pending = g_new0(Pending, 1);
    pending->kind = event->kind <= SEGUE_EVENT_FELL_BACK ? (segue_event_kind_t)event->kind : SEGUE_EVENT_LOG;
    pending->level = event->level <= SEGUE_LOG_ERROR ? (SegueGLibLogLevel)event->level : SEGUE_GLIB_LOG_LEVEL_INFO;
    pending->message = g_strdup(event->message ? event->message : "");
    if (pending->kind == SEGUE_EVENT_FELL_BACK && event->transition) {
        SegueGLibTransition *transition = g_hash_table_lookup(self->transitions, event->transition);
        if (transition) pending->transition = g_object_ref(transition);
    }
    g_queue_push_tail(&self->pending, pending);
}

static void pending_free(gpointer data) {
    Pending *pending = data;
    g_clear_object(&pending->transition);
    g_free(pending->message);
    g_free(pending);
}

/* Emits what waits, in libsegue's order; handlers may begin, finish and drop transitions meanwhile. */
static void emit_pending(SegueGLibPlayer *self) {
    Pending *pending;
    while ((pending = g_queue_pop_head(&self->pending))) {
        switch (pending->kind) {
        case SEGUE_EVENT_RELOADED: g_signal_emit(self, signals[SIGNAL_RELOADED], 0, pending->message); break;
        case SEGUE_EVENT_CONFIG_ERROR: g_signal_emit(self, signals[SIGNAL_CONFIG_ERROR], 0, pending->message); break;
        case SEGUE_EVENT_FELL_BACK:
            if (pending->transition) segue_glib_transition_plan_changed(pending->transition);
            g_signal_emit(self, signals[SIGNAL_FELL_BACK], 0, pending->transition, pending->message);
            break;
        default: g_signal_emit(self, signals[SIGNAL_LOG], 0, pending->level, pending->message); break;
        }
        pending_free(pending);
    }
}

static gboolean on_readable(int fd, GIOCondition condition, gpointer data) {
    (void)fd;
    (void)condition;
    SegueGLibPlayer *self = g_object_ref(data);
    gboolean dispatched = segue_player_dispatch(self->player) != SEGUE_E_WRONG_THREAD;
    if (!dispatched) {
        /* Another thread took over the context after init: libsegue answers only its own thread, so the
         * descriptor would stay readable and the loop spin. Said once; the player's events are not delivered. */
        g_critical("SegueGLib: the player's events are dispatched on a thread other than the one that initialized "
                   "it, which runs its main context now; they are no longer delivered (initialize the player on "
                   "the thread that runs its context)");
    }
    emit_pending(self);
    g_object_unref(self);
    return dispatched ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

static gboolean initable_init(GInitable *initable, GCancellable *cancellable, GError **error) {
    (void)cancellable;
    SegueGLibPlayer *self = SEGUE_GLIB_PLAYER(initable);
    if (self->initialized) {
        if (self->init_error) g_propagate_error(error, g_error_copy(self->init_error));
        return self->init_error == NULL;
    }
    self->initialized = TRUE;
    GMainContext *context = g_main_context_ref_thread_default();
    /* libsegue dispatches only on this thread: a context another thread runs would never see its events. */
    if (!g_main_context_acquire(context)) {
        gboolean global = context == g_main_context_default();
        g_main_context_unref(context);
        g_set_error(&self->init_error, SEGUE_GLIB_ERROR, SEGUE_GLIB_ERROR_WRONG_THREAD,
                    "Segue's player could not start: another thread runs the main context its events would be "
                    "delivered on (%s), and the player answers only the thread that initializes it; initialize it "
                    "on that thread, or push a context of this thread's own first (g_main_context_push_thread_default)",
                    global ? "the global default context, as this thread pushed none" : "this thread's default context");
        g_propagate_error(error, g_error_copy(self->init_error));
        return FALSE;
    }
    g_main_context_release(context);
    segue_player_options_t options;
    memset(&options, 0, sizeof options);
    options.struct_size = sizeof options;
    options.plugin_dirs = (const char *const *)self->plugin_dirs;
    options.plugin_dir_count = self->plugin_dirs ? g_strv_length(self->plugin_dirs) : 0;
    if (options.plugin_dir_count == 0) options.plugin_dirs = NULL;
    options.config_path = self->config_path;
    options.isolation = self->isolation;
    options.sandbox = self->sandbox;
    options.flags = (self->only_given_folders ? SEGUE_PLAYER_ONLY_GIVEN_FOLDERS : 0) | (self->watch ? SEGUE_PLAYER_WATCH : 0)
        | (self->no_spin ? SEGUE_PLAYER_NO_SPIN : 0) | (self->config_path ? 0 : SEGUE_PLAYER_STANDARD_CONFIG);
    options.sample_bound_us = self->sample_bound;
    options.on_event = on_event;
    options.user_data = self;
    segue_status_t status = segue_player_new(&options, &self->player);
    if (status != SEGUE_OK) {
        self->player = NULL;
        g_main_context_unref(context);
        segue_glib_fail(&self->init_error, status, "Segue's player could not start");
        g_propagate_error(error, g_error_copy(self->init_error));
        return FALSE;
    }
    /* What the player has to say from its start (a standard config absent or broken) waits behind the
     * descriptor too: it arrives once the program runs its loop, after it has connected its handlers. */
    self->source = g_unix_fd_source_new(segue_player_fd(self->player), G_IO_IN);
    g_source_set_callback(self->source, G_SOURCE_FUNC(on_readable), self, NULL);
    g_source_set_name(self->source, "Segue player");
    g_source_attach(self->source, context);
    g_main_context_unref(context);
    return TRUE;
}

static void initable_iface_init(GInitableIface *iface) {
    iface->init = initable_init;
}

/* Frees libsegue's player (its workers end) as the last reference goes, or earlier by g_object_run_dispose():
 * the transitions made from it are disposed first, as libsegue frees its own with its player. */
static void dispose(GObject *object) {
    SegueGLibPlayer *self = SEGUE_GLIB_PLAYER(object);
    if (self->source) {
        g_source_destroy(self->source);
        g_clear_pointer(&self->source, g_source_unref);
    }
    GList *transitions = g_hash_table_get_values(self->transitions);
    for (GList *each = transitions; each; each = each->next) {
        g_object_ref(each->data);  /* (it untracks itself as it is disposed) */
        g_object_run_dispose(each->data);
        g_object_unref(each->data);
    }
    g_list_free(transitions);
    g_queue_clear_full(&self->pending, pending_free);
    g_clear_pointer(&self->player, segue_player_free);
    G_OBJECT_CLASS(segue_glib_player_parent_class)->dispose(object);
}

static void finalize(GObject *object) {
    SegueGLibPlayer *self = SEGUE_GLIB_PLAYER(object);
    g_hash_table_unref(self->transitions);
    g_clear_error(&self->init_error);
    g_free(self->config_path);
    g_strfreev(self->plugin_dirs);
    G_OBJECT_CLASS(segue_glib_player_parent_class)->finalize(object);
}

static void segue_glib_player_class_init(SegueGLibPlayerClass *class) {
    GObjectClass *object_class = G_OBJECT_CLASS(class);
    object_class->set_property = set_property;
    object_class->get_property = get_property;
    object_class->dispose = dispose;
    object_class->finalize = finalize;
    const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;
    GParamSpec *props[N_PROPS] = { NULL };
    props[PROP_CONFIG_PATH] = g_param_spec_string("config-path", NULL, NULL, NULL, flags);
    props[PROP_PLUGIN_DIRS] = g_param_spec_boxed("plugin-dirs", NULL, NULL, G_TYPE_STRV, flags);
    props[PROP_ONLY_GIVEN_FOLDERS] = g_param_spec_boolean("only-given-folders", NULL, NULL, FALSE, flags);
    props[PROP_WATCH] = g_param_spec_boolean("watch", NULL, NULL, TRUE, flags);
    props[PROP_SANDBOX] = g_param_spec_enum("sandbox", NULL, NULL, SEGUE_GLIB_TYPE_SANDBOX, SEGUE_GLIB_SANDBOX_FROM_CONFIG, flags);
    props[PROP_ISOLATION] = g_param_spec_enum("isolation", NULL, NULL, SEGUE_GLIB_TYPE_ISOLATION, SEGUE_GLIB_ISOLATION_PROCESS, flags);
    props[PROP_NO_SPIN] = g_param_spec_boolean("no-spin", NULL, NULL, FALSE, flags);
    props[PROP_SAMPLE_BOUND] = g_param_spec_uint("sample-bound", NULL, NULL, 0, 100000, 0, flags);
    g_object_class_install_properties(object_class, N_PROPS, props);

    /**
     * SegueGLibPlayer::log:
     * @player: the player
     * @level: how serious
     * @message: the line (a plugin's text escaped)
     *
     * A line for the log: the player's own, or what a plugin logged or printed.
     */
    signals[SIGNAL_LOG] = g_signal_new("log", G_TYPE_FROM_CLASS(class), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                       G_TYPE_NONE, 2, SEGUE_GLIB_TYPE_LOG_LEVEL, G_TYPE_STRING);
    /**
     * SegueGLibPlayer::reloaded:
     * @player: the player
     * @message: what changed
     *
     * Plugins or the config changed and were reloaded. Transitions already
     * begun keep their animator.
     */
    signals[SIGNAL_RELOADED] = g_signal_new("reloaded", G_TYPE_FROM_CLASS(class), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                            G_TYPE_NONE, 1, G_TYPE_STRING);
    /**
     * SegueGLibPlayer::config-error:
     * @player: the player
     * @message: why: the file, line:column, key, what was expected and found
     *
     * The config changed and is invalid; the last good one is kept.
     */
    signals[SIGNAL_CONFIG_ERROR] = g_signal_new("config-error", G_TYPE_FROM_CLASS(class), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                                G_TYPE_NONE, 1, G_TYPE_STRING);
    /**
     * SegueGLibPlayer::fell-back:
     * @player: the player
     * @transition: (nullable): the transition, %NULL when the program has
     *   already dropped it
     * @message: why (the plugin crashed, hung, tried to escape, answered NaN)
     *
     * A transition's plugin failed mid-transition and the built-in default
     * took over from the same point; its properties say so already.
     */
    signals[SIGNAL_FELL_BACK] = g_signal_new("fell-back", G_TYPE_FROM_CLASS(class), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                             G_TYPE_NONE, 2, SEGUE_GLIB_TYPE_TRANSITION, G_TYPE_STRING);
}

static void segue_glib_player_init(SegueGLibPlayer *self) {
    self->watch = TRUE;
    self->transitions = g_hash_table_new(g_direct_hash, g_direct_equal);
}

SegueGLibPlayer *segue_glib_player_new(GError **error) {
    return g_initable_new(SEGUE_GLIB_TYPE_PLAYER, NULL, error, NULL);
}

SegueGLibPlayer *segue_glib_player_new_with_options(const char *config_path, const char *const *plugin_dirs, GError **error) {
    return g_initable_new(SEGUE_GLIB_TYPE_PLAYER, NULL, error, "config-path", config_path, "plugin-dirs", plugin_dirs, NULL);
}

static gboolean usable(SegueGLibPlayer *player, GError **error) {
    if (player->player) return TRUE;
    g_set_error(error, SEGUE_GLIB_ERROR, SEGUE_GLIB_ERROR_INVALID_ARGUMENT, "%s",
                player->init_error ? player->init_error->message
                : player->initialized ? "the player was disposed (g_object_run_dispose)"
                : "the player was not initialized (g_initable_init)");
    return FALSE;
}

char **segue_glib_player_list_animators(SegueGLibPlayer *player) {
    g_return_val_if_fail(SEGUE_GLIB_IS_PLAYER(player), NULL);
    GPtrArray *names = g_ptr_array_new();
    uint32_t count = player->player ? segue_player_animator_count(player->player) : 0;
    for (uint32_t i = 0; i < count; i++) {
        segue_animator_info_t info;
        memset(&info, 0, sizeof info);
        info.struct_size = sizeof info;
        if (segue_player_animator_info(player->player, i, &info) == SEGUE_OK && info.name) g_ptr_array_add(names, g_strdup(info.name));
    }
    g_ptr_array_add(names, NULL);
    return (char **)g_ptr_array_free(names, FALSE);
}

SegueGLibTransition *segue_glib_player_begin(SegueGLibPlayer *player, SegueGLibRequest *request, GError **error) {
    g_return_val_if_fail(SEGUE_GLIB_IS_PLAYER(player), NULL);
    g_return_val_if_fail(SEGUE_GLIB_IS_REQUEST(request), NULL);
    g_return_val_if_fail(error == NULL || *error == NULL, NULL);
    if (!usable(player, error)) return NULL;
    segue_transition_desc_t desc;
    segue_glib_request_fill(request, &desc);
    segue_transition_t *raw = NULL;
    segue_status_t status = segue_transition_begin(player->player, &desc, &raw);
    if (status != SEGUE_OK) {
        segue_glib_fail(error, status, "the transition could not begin");
        return NULL;
    }
    return segue_glib_transition_new(player, raw, request, error);
}

segue_player_t *segue_glib_player_raw(SegueGLibPlayer *player) {
    return player->player;
}

void segue_glib_player_track(SegueGLibPlayer *player, segue_transition_t *raw, SegueGLibTransition *transition) {
    g_hash_table_insert(player->transitions, raw, transition);
}

void segue_glib_player_untrack(SegueGLibPlayer *player, segue_transition_t *raw) {
    g_hash_table_remove(player->transitions, raw);
}
