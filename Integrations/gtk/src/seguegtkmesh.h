/*
 * A mesh layer (CurlUp's page) drawn through GL: the page's picture as a
 * texture, its grid of vertices as triangles, lit by their angle to the light
 * and washed out where the page shows its back, as Segue's renderer shades
 * paper, cut to the layer's corner radius and clip (the animator ABI 1.4)
 * in its own coordinates, over the shadow its lifted cells cast. The result is a GdkTexture to append to a GtkSnapshot. Private to
 * SegueGtkStack; main thread only.
 */
#pragma once

#include <gtk/gtk.h>
#include <segue/embed.h>

typedef struct SegueGtkMesh SegueGtkMesh;

/* A painter with a GL context of its own, shared with GTK's; NULL (and why in @error) when GL is not available. */
G_GNUC_INTERNAL SegueGtkMesh *segue_gtk_mesh_new(GdkDisplay *display, GError **error);
G_GNUC_INTERNAL void segue_gtk_mesh_free(SegueGtkMesh *mesh);

/* Uploads @picture (a layer's content at rest) as the layer @slot's texture, replacing the one before. */
G_GNUC_INTERNAL void segue_gtk_mesh_set_picture(SegueGtkMesh *mesh, guint slot, GdkTexture *picture);
/* Whether @slot has a picture. */
G_GNUC_INTERNAL gboolean segue_gtk_mesh_has_picture(SegueGtkMesh *mesh, guint slot);
/* Forgets every picture (a transition ended). */
G_GNUC_INTERNAL void segue_gtk_mesh_clear(SegueGtkMesh *mesh);

/* Draws @slot's picture over @state's mesh (a layer of @columns x @rows cells, vertices in container
 * coordinates) into a new texture of @width x @height logical pixels at @scale. */
G_GNUC_INTERNAL GdkTexture *segue_gtk_mesh_draw(SegueGtkMesh *mesh, guint slot, const segue_layer_state_t *state, uint32_t columns,
                                uint32_t rows, int width, int height, int scale);
