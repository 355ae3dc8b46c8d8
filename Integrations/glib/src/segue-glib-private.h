/* What the library's files share, not installed. */
#pragma once

#include "segue-glib.h"
#include <segue/embed.h>
#include <string.h>

/* Sets *error from libsegue's last status on this thread (its message), and answers FALSE. */
gboolean segue_glib_fail(GError **error, segue_status_t status, const char *what);

/* The player's libsegue player, NULL when not initialized. */
segue_player_t *segue_glib_player_raw(SegueGLibPlayer *player);
/* The transition the player knows for libsegue's, for "fell-back"; registered while it lives. */
void segue_glib_player_track(SegueGLibPlayer *player, segue_transition_t *raw, SegueGLibTransition *transition);
void segue_glib_player_untrack(SegueGLibPlayer *player, segue_transition_t *raw);

/* Fills desc from the request; the strings and element arrays stay the request's until its next fill or its end. */
void segue_glib_request_fill(SegueGLibRequest *request, segue_transition_desc_t *desc);
/* The name of element `index` of a side, or NULL. */
const char *segue_glib_request_element_name(SegueGLibRequest *request, SegueGLibSide side, guint index);

/* A transition over libsegue's, owning it; NULL with *error when its sampler cannot be made. */
SegueGLibTransition *segue_glib_transition_new(SegueGLibPlayer *player, segue_transition_t *raw, SegueGLibRequest *request,
                                               GError **error);
/* The default took over: say so with "notify" for the properties that changed. */
void segue_glib_transition_plan_changed(SegueGLibTransition *transition);
