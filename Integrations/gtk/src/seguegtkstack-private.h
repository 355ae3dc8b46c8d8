/* What SegueGtkStack's files share: its pages, the transition that plays, the instance. Private. */
#pragma once

#include "segue-gtk.h"
#include "seguegtkmesh.h"

#include <segue/embed.h>

/* The elements a page may name, and the vertices of the largest mesh. */
enum { MAX_ELEMENTS = 16 };

/* A page: its widget, the name it was added with, what a switcher shows of it (seguegtkstackpage.c). */
struct _SegueGtkStackPage {
    GObject parent_instance;
    GtkWidget *widget;
    char *name;
    char *title, *icon_name;
    gboolean needs_attention;
};
typedef SegueGtkStackPage Page;

/* A transition that plays: libsegue's handle and plan, its sampler, and its pace. */
typedef struct {
    segue_transition_t *handle;
    segue_plan_info_t plan;
    Page *from, *to;
    /* libsegue's sampler: the layers' states and meshes, the plan followed through a takeover, back to front. */
    segue_sampler_t *sampler;
    uint32_t layer_count; /* of the last sample */
    /* Each side's elements: the widgets, the names and frames libsegue was given, a picture of each at rest. */
    GtkWidget *elements[2][MAX_ELEMENTS];
    segue_element_t described[2][MAX_ELEMENTS];
    uint32_t element_count[2];
    GdkPaintable *pictures[2][MAX_ELEMENTS];
    /* Elements the plan hides, and their opacity before. */
    GtkWidget *hidden[SEGUE_MAX_HIDDEN_ELEMENTS];
    double hidden_opacity[SEGUE_MAX_HIDDEN_ELEMENTS];
    uint32_t hidden_count;
    double width, height;
    /* Time: a played transition starts at its first frame; an interactive one is at `fraction` until
     * released, then heads for `target` from `origin` over `seconds` (eased, or linear after a flick). */
    gint64 started;
    gboolean interactive, released, linear;
    double fraction, origin, target, seconds;
    gboolean sampled;
    /* The last sample held the plugin's states from before (SEGUE_LATE): its answer is not in yet. */
    gboolean late;
} Playing;

/* The "pages" selection model (seguegtkstackpages.c). */
G_DECLARE_FINAL_TYPE(SegueGtkStackPages, pages_model, SEGUE_GTK, STACK_PAGES, GObject)
G_GNUC_INTERNAL SegueGtkStackPages *pages_model_new(SegueGtkStack *stack);

struct _SegueGtkStack {
    GtkWidget parent_instance;
    GPtrArray *pages; /* Page *, in the order added */
    /* The model "pages" gave out while someone holds it (it holds the stack), else NULL. */
    SegueGtkStackPages *pages_model;
    /* The settings followed for gtk-enable-animations while the stack is in a window. */
    GtkSettings *settings;
    gulong settings_handler;
    Page *visible;
    char *animator;
    char *config_file;
    gboolean edge_swipe;
    segue_player_t *player;
    guint player_source;
    /* The player could not start (said once); tried again when config-file changes. */
    gboolean player_failed;
    Playing *playing;
    guint tick;
    SegueGtkMesh *mesh;
    gboolean mesh_failed;
    /* The swipe: whether a drag began at the edge, and its last two offsets in time for the release speed. */
    gboolean edge_press, swiping;
    double last_x, last_time, speed;
    /* The pointer's last position over the stack, in its coordinates, while it is over it: each
     * transition's anchor point. */
    gboolean pointer_known;
    double pointer_x, pointer_y;
};

/* The model is going: the stack stops telling it of changes (seguegtkstack.c). */
G_GNUC_INTERNAL void segue_gtk_stack_forget_pages(SegueGtkStack *self, SegueGtkStackPages *pages);

/* Draws the transition that plays, each layer in its place (seguegtkdraw.c). */
G_GNUC_INTERNAL void segue_gtk_stack_snapshot_transition(SegueGtkStack *self, GtkSnapshot *snapshot);
