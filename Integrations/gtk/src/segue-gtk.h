/*
 * SegueGtk: a GTK 4 container whose page switches are Segue transitions.
 *
 * SegueGtkStack holds named pages, as GtkStack does, and shows one at a
 * time. Switching pages plays a Segue animator: the one named in code, else
 * the one the config's rules choose by the pages' names (the file `segue
 * run` and every Segue host read), else the built-in default. Plugin
 * animators run in libsegue's sandboxed workers: one that crashes, hangs or
 * answers nonsense costs only its own transition (the default finishes it).
 *
 * Threads: every function here is for GTK's main thread, as all of GTK.
 * Strings passed in are copied; strings returned are owned by the stack and
 * valid until the next call that changes what they describe.
 *
 * Signals: "transition-finished" (from, to: the pages' names; animator: the
 * one that ran, "default" after a fallback, "none" when no transition
 * played; completed: %FALSE when an interactive transition was cancelled or
 * the switch refused; fell_back; reason: why that animator, in `segue run`'s
 * words, or why none played), emitted once for every switch when it has
 * ended: after a transition, and for a switch made at once or refused.
 *
 * GTK's platform contract, as GtkStack keeps it: with GtkSettings'
 * "gtk-enable-animations" off every switch is immediate (reason "animations
 * are off (gtk-enable-animations)"), and turning it off ends a transition
 * that plays. The stack's accessible role is GTK_ACCESSIBLE_ROLE_GROUP.
 *
 * Drawing: each layer of an animator is the page's or element's real render
 * node, moved with GtkSnapshot transforms (perspective included). A layer
 * with a mesh (CurlUp's page) is drawn through GL when the window's renderer
 * is GL. The cairo renderer cannot draw 3D: there a layer in perspective is
 * drawn with the flat (affine) map of its corners, and a mesh flat at its
 * frame.
 *
 * GtkBuilder: a `<child>` of a SegueGtkStack in a .ui file becomes a page,
 * as in GtkStack: a SegueGtkStackPage with its "name", "child" and any of
 * "title", "icon-name", "needs-attention", or a widget, named by its object id. Properties given after the children
 * ("visible-child-name") apply once they are pages.
 *
 * Build: pkg-config --cflags --libs segue-gtk4
 * Introspection: the SegueGtk-1 namespace (gi.require_version("SegueGtk", "1")).
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SEGUE_GTK_TYPE_STACK (segue_gtk_stack_get_type())
G_DECLARE_FINAL_TYPE(SegueGtkStack, segue_gtk_stack, SEGUE_GTK, STACK, GtkWidget)

/**
 * SegueGtkStackPage:
 *
 * A page of a stack, as GtkStackPage: its child and its name, set when the
 * page is made and never changed; its "title", "icon-name" and
 * "needs-attention", which a switcher shows, and "visible" (its child's),
 * which may change at any time. The stack makes one for each page it adds;
 * a GtkBuilder file makes one to add a named page (`<child><object
 * class="SegueGtkStackPage"><property name="name">inbox</property><property
 * name="title">Inbox</property><property name="child">...`).
 */
#define SEGUE_GTK_TYPE_STACK_PAGE (segue_gtk_stack_page_get_type())
G_DECLARE_FINAL_TYPE(SegueGtkStackPage, segue_gtk_stack_page, SEGUE_GTK, STACK_PAGE, GObject)

/**
 * segue_gtk_stack_page_get_child:
 * @page: a page
 *
 * Returns: (transfer none): the page's widget; the page holds a reference
 *   for its own life.
 */
GtkWidget *segue_gtk_stack_page_get_child(SegueGtkStackPage *page);

/**
 * segue_gtk_stack_page_get_name:
 * @page: a page
 *
 * Returns: (transfer none) (nullable): the page's name, owned by the page
 *   for its own life; %NULL when the page was made without one.
 */
const char *segue_gtk_stack_page_get_name(SegueGtkStackPage *page);

/**
 * segue_gtk_stack_page_get_title:
 * @page: a page
 *
 * Returns: (transfer none) (nullable): the "title" property, owned by the
 *   page until it changes.
 */
const char *segue_gtk_stack_page_get_title(SegueGtkStackPage *page);
/**
 * segue_gtk_stack_page_set_title:
 * @page: a page
 * @title: (nullable): the title a switcher shows
 */
void segue_gtk_stack_page_set_title(SegueGtkStackPage *page, const char *title);

/**
 * segue_gtk_stack_page_get_icon_name:
 * @page: a page
 *
 * Returns: (transfer none) (nullable): the "icon-name" property, owned by
 *   the page until it changes.
 */
const char *segue_gtk_stack_page_get_icon_name(SegueGtkStackPage *page);
/**
 * segue_gtk_stack_page_set_icon_name:
 * @page: a page
 * @icon_name: (nullable): an icon a switcher shows instead of the title
 *   (the title is then its tooltip)
 */
void segue_gtk_stack_page_set_icon_name(SegueGtkStackPage *page, const char *icon_name);

/**
 * segue_gtk_stack_page_get_needs_attention:
 * @page: a page
 *
 * Returns: the "needs-attention" property.
 */
gboolean segue_gtk_stack_page_get_needs_attention(SegueGtkStackPage *page);
/**
 * segue_gtk_stack_page_set_needs_attention:
 * @page: a page
 * @needs_attention: whether a switcher marks the page's button (CSS class
 *   "needs-attention")
 */
void segue_gtk_stack_page_set_needs_attention(SegueGtkStackPage *page, gboolean needs_attention);

/**
 * segue_gtk_stack_page_get_visible:
 * @page: a page
 *
 * Returns: the "visible" property: its child's "visible".
 */
gboolean segue_gtk_stack_page_get_visible(SegueGtkStackPage *page);
/**
 * segue_gtk_stack_page_set_visible:
 * @page: a page
 * @visible: whether the page takes part; sets its child's "visible"
 *
 * An invisible page is left out by switchers and cannot be the visible
 * page: a switch to it is refused ("transition-finished" says so, completed
 * %FALSE). Hiding the visible page shows the first visible page at once;
 * showing a page when none was visible makes it the visible one.
 */
void segue_gtk_stack_page_set_visible(SegueGtkStackPage *page, gboolean visible);

/**
 * segue_gtk_stack_new:
 *
 * A stack with no pages, following the standard config file
 * (`$XDG_CONFIG_HOME/segue/segue.json`) and plugin folders.
 *
 * Returns: (transfer floating): the new stack.
 */
GtkWidget *segue_gtk_stack_new(void);

/**
 * segue_gtk_stack_add_named:
 * @stack: a stack
 * @child: the page; the stack takes a reference and becomes its parent
 * @name: the page's name: unique in the stack; the config's rules match it
 *
 * Adds a page. The first page added becomes the visible one, without a
 * transition. A name already used is refused (g_critical) and @child is not
 * added.
 */
void segue_gtk_stack_add_named(SegueGtkStack *stack, GtkWidget *child, const char *name);

/**
 * segue_gtk_stack_add_titled:
 * @stack: a stack
 * @child: the page; the stack takes a reference and becomes its parent
 * @name: the page's name: unique in the stack; the config's rules match it
 * @title: (nullable): the title a switcher shows (the page's "title")
 *
 * As segue_gtk_stack_add_named(), with a title.
 */
void segue_gtk_stack_add_titled(SegueGtkStack *stack, GtkWidget *child, const char *name, const char *title);

/**
 * segue_gtk_stack_get_pages:
 * @stack: a stack
 *
 * The pages as a list model of SegueGtkStackPage in the order added, whose
 * selection is the visible page, as gtk_stack_get_pages(): it tells of pages
 * added and removed (items-changed) and of each switch (selection-changed);
 * selecting an item shows its page with a transition (an invisible page is
 * not selected). While a caller holds it, the same model is returned.
 *
 * Returns: (transfer full): the model; it holds a reference to @stack.
 */
GtkSelectionModel *segue_gtk_stack_get_pages(SegueGtkStack *stack);

/**
 * segue_gtk_stack_get_page:
 * @stack: a stack
 * @child: one of its pages' widgets
 *
 * Returns: (transfer none) (nullable): the page of @child, owned by the
 *   stack and valid until @child is removed (take a reference to keep it
 *   longer), or %NULL when @child is not a page of @stack.
 */
SegueGtkStackPage *segue_gtk_stack_get_page(SegueGtkStack *stack, GtkWidget *child);

/**
 * segue_gtk_stack_remove:
 * @stack: a stack
 * @child: one of its pages
 *
 * Removes a page: the stack drops its references to @child and to its
 * page. A transition involving it ends first (completed); if it was the
 * visible page, the first remaining page becomes visible.
 */
void segue_gtk_stack_remove(SegueGtkStack *stack, GtkWidget *child);

/**
 * segue_gtk_stack_get_child_by_name:
 * @stack: a stack
 * @name: a page's name
 *
 * Returns: (transfer none) (nullable): the page called @name, or %NULL.
 */
GtkWidget *segue_gtk_stack_get_child_by_name(SegueGtkStack *stack, const char *name);

/**
 * segue_gtk_stack_get_page_name:
 * @stack: a stack
 * @child: one of its pages
 *
 * Returns: (transfer none) (nullable): the name @child was added with, or %NULL.
 */
const char *segue_gtk_stack_get_page_name(SegueGtkStack *stack, GtkWidget *child);

/**
 * segue_gtk_stack_set_visible_child:
 * @stack: a stack
 * @child: one of its pages
 *
 * Shows @child with a transition (the "visible-child" property changes at
 * once; the transition plays after). A switch asked for while a transition
 * plays ends that one first, completed. Going right (a push) is towards a
 * page added later. With animations off (gtk-enable-animations), or the
 * stack not shown, the switch is immediate; to an invisible page it is
 * refused. Either way "transition-finished" says so before this returns.
 */
void segue_gtk_stack_set_visible_child(SegueGtkStack *stack, GtkWidget *child);

/**
 * segue_gtk_stack_set_visible_child_from:
 * @stack: a stack
 * @child: one of its pages
 * @origin: (nullable): the widget the switch comes from (the button, row or
 *   picture clicked), anywhere in the stack's window, or %NULL
 *
 * As segue_gtk_stack_set_visible_child(), telling the animator where the
 * switch comes from: @origin's bounds in the stack's coordinates, measured
 * now, are the transition's anchor rectangle (`segue_anchor_t.rect`), which
 * animators such as Pop open from and Iris grows from (unless the pointer
 * is known: see "Anchor" in docs/gtk.md). @origin is not kept: it may go
 * once this returns. An @origin that is not in the stack's window gives no
 * rectangle (the log says so); the switch plays all the same.
 *
 * Since: 1.4
 */
void segue_gtk_stack_set_visible_child_from(SegueGtkStack *stack, GtkWidget *child, GtkWidget *origin);

/**
 * segue_gtk_stack_get_visible_child:
 * @stack: a stack
 *
 * Returns: (transfer none) (nullable): the visible page (during a
 * transition, the page arriving), or %NULL with no pages.
 */
GtkWidget *segue_gtk_stack_get_visible_child(SegueGtkStack *stack);

/**
 * segue_gtk_stack_set_visible_child_name:
 * @stack: a stack
 * @name: a page's name
 *
 * As segue_gtk_stack_set_visible_child() for the page called @name; an
 * unknown name is refused with a g_warning naming it.
 */
void segue_gtk_stack_set_visible_child_name(SegueGtkStack *stack, const char *name);

/**
 * segue_gtk_stack_get_visible_child_name:
 * @stack: a stack
 *
 * Returns: (transfer none) (nullable): the visible page's name.
 */
const char *segue_gtk_stack_get_visible_child_name(SegueGtkStack *stack);

/**
 * segue_gtk_stack_set_visible_child_full:
 * @stack: a stack
 * @name: a page's name
 * @animator: (nullable): the animator to play ("CurlUp", "default"), or
 *   %NULL for the config's rules and the "animator" property
 * @parameters_json: (nullable): the animator's parameters as a JSON object
 *   (`{"damping": 0.6}`), over the config's; %NULL for none
 *
 * Shows the page called @name with the animator named here. An animator
 * that is not installed, or parameters it refuses (out of range), play the
 * built-in default; the "transition-finished" signal and the log say why.
 * Parameters that are not a JSON object switch at once, with no transition,
 * and a g_warning quoting libsegue's message (where and what it found).
 */
void segue_gtk_stack_set_visible_child_full(SegueGtkStack *stack, const char *name, const char *animator,
                                            const char *parameters_json);

/**
 * segue_gtk_stack_set_animator:
 * @stack: a stack
 * @animator: (nullable): an animator's name for every switch, or %NULL for the config's rules
 */
void segue_gtk_stack_set_animator(SegueGtkStack *stack, const char *animator);
/**
 * segue_gtk_stack_get_animator:
 * @stack: a stack
 *
 * Returns: (transfer none) (nullable): the "animator" property.
 */
const char *segue_gtk_stack_get_animator(SegueGtkStack *stack);

/**
 * segue_gtk_stack_set_config_file:
 * @stack: a stack
 * @path: (nullable) (type filename): a Segue config file, or %NULL for the standard one
 *
 * Which config the stack follows (rules, parameters, plugin folders,
 * sandbox). Read when the next transition begins, then followed as it
 * changes; an invalid file keeps the last good one and logs why.
 */
void segue_gtk_stack_set_config_file(SegueGtkStack *stack, const char *path);
/**
 * segue_gtk_stack_get_config_file:
 * @stack: a stack
 *
 * Returns: (transfer none) (nullable) (type filename): the "config-file" property.
 */
const char *segue_gtk_stack_get_config_file(SegueGtkStack *stack);

/**
 * segue_gtk_stack_get_transition_running:
 * @stack: a stack
 *
 * Returns: whether a transition plays now (interactive ones included).
 */
gboolean segue_gtk_stack_get_transition_running(SegueGtkStack *stack);
/**
 * segue_gtk_stack_get_transition_late:
 * @stack: a stack
 *
 * Whether the frame drawn last held the plugin's states from before, its
 * answer not in within libsegue's sample bound (a busy machine, a slow
 * plugin). The stack samples again at every frame, so a held transition
 * catches up by itself; a program that saves a frame (a screenshot, a test)
 * waits a frame while this is %TRUE. Main thread only.
 *
 * Returns: %TRUE while the transition's last frame was late; %FALSE when it
 *   was the plugin's answer or no transition plays.
 *
 * Since: 1.5
 */
gboolean segue_gtk_stack_get_transition_late(SegueGtkStack *stack);

/**
 * segue_gtk_stack_set_edge_swipe:
 * @stack: a stack
 * @edge_swipe: whether a drag from the left edge goes back to the page before
 *
 * On by default. The drag drives the transition: released past half way
 * (or flicked forwards) it finishes, else it cancels and the page stays.
 */
void segue_gtk_stack_set_edge_swipe(SegueGtkStack *stack, gboolean edge_swipe);
/**
 * segue_gtk_stack_get_edge_swipe:
 * @stack: a stack
 *
 * Returns: the "edge-swipe" property.
 */
gboolean segue_gtk_stack_get_edge_swipe(SegueGtkStack *stack);

/**
 * segue_gtk_stack_begin_interactive:
 * @stack: a stack
 * @name: the page to go to
 *
 * Begins a transition to the page called @name that your code drives, as
 * the edge swipe does: segue_gtk_stack_update_interactive() moves it,
 * segue_gtk_stack_end_interactive() lets it go.
 *
 * Returns: %FALSE when @name is unknown, invisible or the visible page, a
 * transition already plays, or none can (animations off, the stack not
 * shown); nothing is switched then and no signal emitted.
 */
gboolean segue_gtk_stack_begin_interactive(SegueGtkStack *stack, const char *name);

/**
 * segue_gtk_stack_begin_interactive_from:
 * @stack: a stack
 * @name: the page to go to
 * @origin: (nullable): the widget the gesture began on, anywhere in the
 *   stack's window, or %NULL
 *
 * As segue_gtk_stack_begin_interactive(), with @origin's bounds in the
 * stack's coordinates as the transition's anchor rectangle, as
 * segue_gtk_stack_set_visible_child_from() gives it. @origin is not kept.
 *
 * Returns: as segue_gtk_stack_begin_interactive().
 *
 * Since: 1.4
 */
gboolean segue_gtk_stack_begin_interactive_from(SegueGtkStack *stack, const char *name, GtkWidget *origin);

/**
 * segue_gtk_stack_update_interactive:
 * @stack: a stack
 * @fraction: how far, 0 to 1 (clamped), linearly in the animator's time
 *
 * Moves an interactive transition; ignored without one.
 */
void segue_gtk_stack_update_interactive(SegueGtkStack *stack, double fraction);

/**
 * segue_gtk_stack_end_interactive:
 * @stack: a stack
 * @finish: %TRUE to play the rest, %FALSE to play back to the start (cancel)
 * @velocity: how fast the gesture moved when released, in fractions of the
 *   transition per second towards where it goes (0 or more)
 *
 * Lets an interactive transition go. It plays on at the ease-in-out pace
 * of the rest of its duration, or faster and linearly when @velocity is
 * faster. Cancelled, the page before stays visible ("visible-child" goes
 * back to it) and "transition-finished" says so.
 */
void segue_gtk_stack_end_interactive(SegueGtkStack *stack, gboolean finish, double velocity);

/**
 * SegueGtkStackSwitcher:
 *
 * A row of toggle buttons, one per visible page of a SegueGtkStack, as
 * GtkStackSwitcher for a GtkStack (which accepts only a GtkStack): each
 * shows its page's icon ("icon-name", the title as its tooltip), else its
 * title, else its name; a page that needs attention has its button marked
 * (CSS class "needs-attention"); the visible page's button is pressed. A
 * click shows that page with a transition that comes from the button (the
 * anchor's rectangle, as segue_gtk_stack_set_visible_child_from() gives
 * it). It follows the stack's "pages"
 * model: pages added, removed, shown, hidden or retitled. Accessible roles:
 * GTK_ACCESSIBLE_ROLE_TAB_LIST, each button GTK_ACCESSIBLE_ROLE_TAB (its
 * "selected" state the visible page's). CSS name "seguestackswitcher",
 * class "linked".
 */
#define SEGUE_GTK_TYPE_STACK_SWITCHER (segue_gtk_stack_switcher_get_type())
G_DECLARE_FINAL_TYPE(SegueGtkStackSwitcher, segue_gtk_stack_switcher, SEGUE_GTK, STACK_SWITCHER, GtkWidget)

/**
 * segue_gtk_stack_switcher_new:
 *
 * Returns: (transfer floating): a switcher with no stack.
 */
GtkWidget *segue_gtk_stack_switcher_new(void);

/**
 * segue_gtk_stack_switcher_set_stack:
 * @switcher: a switcher
 * @stack: (nullable): the stack to switch; the switcher holds a reference
 *   until another is set or it is disposed
 */
void segue_gtk_stack_switcher_set_stack(SegueGtkStackSwitcher *switcher, SegueGtkStack *stack);
/**
 * segue_gtk_stack_switcher_get_stack:
 * @switcher: a switcher
 *
 * Returns: (transfer none) (nullable): the "stack" property.
 */
SegueGtkStack *segue_gtk_stack_switcher_get_stack(SegueGtkStackSwitcher *switcher);

/**
 * segue_gtk_set_element_name:
 * @widget: a widget inside a page (a picture, a title)
 * @name: (nullable): its element name, or %NULL for none
 *
 * Marks @widget as a named element of its page: animators see each page's
 * elements (name and frame) and may move a picture of one between pages
 * (ImageZoom's shared "photo") or hide it while they play. Two pages share
 * an element when they name one alike.
 */
void segue_gtk_set_element_name(GtkWidget *widget, const char *name);
/**
 * segue_gtk_get_element_name:
 * @widget: a widget
 *
 * Returns: (transfer none) (nullable): the name set with segue_gtk_set_element_name().
 */
const char *segue_gtk_get_element_name(GtkWidget *widget);

G_END_DECLS
