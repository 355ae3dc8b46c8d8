/*
 * sdl-player: an SDL2 program that plays Segue animators between screens of
 * its own, through libsegue. The program draws its screens itself, as
 * textures; libsegue chooses each transition's animator by the config's rules,
 * runs it sandboxed and answers layer states; the program draws each layer as
 * textured triangles (segue_layer_project, SDL_RenderGeometryRaw), so meshes
 * (CurlUp) and perspective (CardFlip) need no 3D renderer.
 *
 *   sdl-player [--config FILE] [--plugins DIR]...            a window: Left and Right switch screens, q quits
 *   sdl-player --frames DIR [--config FILE] [--plugins DIR]...
 *       plays a fixed tour of the screens with SDL's software renderer and
 *       writes the frame at 40% of each transition to DIR/NN-FROM-TO.bmp,
 *       with one line per transition on standard output:
 *       frame|FILE|FROM|TO|ANIMATOR|FELL_BACK|T|MEDIAN_MS|P99_MS
 *       (the frame times: sampling and drawing 120 frames of the transition)
 *
 * Build: make (cc sdl_player.c $(pkg-config --cflags --libs segue sdl2) -lm)
 */
#define _POSIX_C_SOURCE 200809L
#include <SDL.h>
#include <segue/embed.h>

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { WIDTH = 360, HEIGHT = 640, DIVISIONS = 16, MAX_ELEMENTS = 2 };

/* A screen of the program's own: a background and named elements, all flat colours. */
typedef struct {
    const char *name;
    SDL_Color background;
    int element_count;
    struct { const char *name; SDL_Rect frame; SDL_Color color; } elements[MAX_ELEMENTS];
} screen_t;

static const screen_t screens[] = {
    { "home", { 0x2f, 0x6f, 0xd0, 255 }, 2, {
        { "photo", { 24, 140, 150, 110 }, { 0xe8, 0x4a, 0x3c, 255 } },
        { "title", { 24, 40, 312, 48 }, { 0xf4, 0xf4, 0xf4, 255 } } } },
    { "photos", { 0x2e, 0xa0, 0x5a, 255 }, 2, {
        { "photo", { 0, 0, 360, 270 }, { 0xe8, 0x4a, 0x3c, 255 } },
        { "caption", { 24, 300, 312, 60 }, { 0x1d, 0x1d, 0x1d, 255 } } } },
    { "settings", { 0xf0, 0x9a, 0x1e, 255 }, 1, {
        { "toggle", { 250, 120, 80, 40 }, { 0xff, 0xff, 0xff, 255 } } } },
};
enum { SCREEN_COUNT = sizeof screens / sizeof screens[0] };

static segue_player_t *player;
static SDL_Renderer *renderer;

static void fail(const char *what, const char *why) {
    fprintf(stderr, "sdl-player: %s: %s\n", what, why);
    exit(1);
}

static void on_event(void *user_data, const segue_event_t *event) {
    (void)user_data;
    fprintf(stderr, "%s\n", event->message);
}

static SDL_Surface *surface(int w, int h, SDL_Color c) {
    SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
    if (!s) fail("SDL_CreateRGBSurfaceWithFormat", SDL_GetError());
    SDL_FillRect(s, NULL, SDL_MapRGBA(s->format, c.r, c.g, c.b, c.a));
    return s;
}

/* A screen as a surface, without the elements a transition hides. */
static SDL_Surface *screen_surface(const screen_t *screen, const bool *hidden) {
    SDL_Surface *s = surface(WIDTH, HEIGHT, screen->background);
    for (int i = 0; i < screen->element_count; i++) {
        if (hidden && hidden[i]) continue;
        SDL_Color c = screen->elements[i].color;
        SDL_FillRect(s, &screen->elements[i].frame, SDL_MapRGBA(s->format, c.r, c.g, c.b, c.a));
    }
    return s;
}

static SDL_Surface *element_surface(const screen_t *screen, uint32_t element) {
    return surface(screen->elements[element].frame.w, screen->elements[element].frame.h, screen->elements[element].color);
}

/* A texture of `s`, which it frees; with `back`, each colour washed out as Segue shades a page's back
   (segue_page_back). */
static SDL_Texture *texture(SDL_Surface *s, bool back) {
    if (back) {
        SDL_LockSurface(s);
        for (int y = 0; y < s->h; y++) {
            Uint32 *row = (Uint32 *)((Uint8 *)s->pixels + y * s->pitch);
            for (int x = 0; x < s->w; x++) {
                Uint8 r, g, b, a;
                SDL_GetRGBA(row[x], s->format, &r, &g, &b, &a);
                float c[4] = { r / 255.0f, g / 255.0f, b / 255.0f, a / 255.0f };
                segue_page_back(c, c);
                row[x] = SDL_MapRGBA(s->format, (Uint8)(c[0] * 255 + 0.5f), (Uint8)(c[1] * 255 + 0.5f), (Uint8)(c[2] * 255 + 0.5f), a);
            }
        }
        SDL_UnlockSurface(s);
    }
    SDL_Texture *t = SDL_CreateTextureFromSurface(renderer, s);
    SDL_FreeSurface(s);
    SDL_SetTextureBlendMode(t, SDL_BLENDMODE_BLEND);
    return t;
}

static SDL_Texture *screen_texture(const screen_t *screen, const bool *hidden) { return texture(screen_surface(screen, hidden), false); }

/* A transition being played: libsegue's handle and sampler (which owns the layers' states), its plan,
   a texture per plan layer. */
typedef struct {
    segue_transition_t *handle;
    segue_sampler_t *sampler;
    segue_plan_info_t plan;
    SDL_Texture *textures[SEGUE_MAX_LAYERS];
    /* For a layer with a mesh: its content seen from behind, washed out as Segue's renderer shows a page's back. */
    SDL_Texture *backs[SEGUE_MAX_LAYERS];
    int from, to;
} playing_t;

static void release_textures(playing_t *p) {
    for (int i = 0; i < SEGUE_MAX_LAYERS; i++) {
        if (p->textures[i]) SDL_DestroyTexture(p->textures[i]);
        if (p->backs[i]) SDL_DestroyTexture(p->backs[i]);
        p->textures[i] = p->backs[i] = NULL;
    }
}

/* Textures for the plan's layers: the screens without their hidden elements, the element snapshots. */
static void prepare_textures(playing_t *p) {
    release_textures(p);
    p->plan.struct_size = sizeof p->plan;
    segue_transition_plan(p->handle, &p->plan);
    bool hidden[2][MAX_ELEMENTS] = { { false } };
    for (uint32_t i = 0; i < p->plan.hidden_count; i++) {
        if (p->plan.hidden[i].element < MAX_ELEMENTS) hidden[p->plan.hidden[i].side == SEGUE_SIDE_TO][p->plan.hidden[i].element] = true;
    }
    for (uint32_t i = 0; i < p->plan.layer_count; i++) {
        const segue_layer_request_t *layer = &p->plan.layers[i];
        bool mesh = layer->mesh_columns > 0;
        for (int back = 0; back <= (int)mesh; back++) {
            SDL_Surface *s;
            switch (layer->kind) {
            case SEGUE_LAYER_FROM_VIEW: s = screen_surface(&screens[p->from], hidden[0]); break;
            case SEGUE_LAYER_TO_VIEW: s = screen_surface(&screens[p->to], hidden[1]); break;
            case SEGUE_LAYER_FROM_ELEMENT_SNAPSHOT: s = element_surface(&screens[p->from], layer->element); break;
            default: s = element_surface(&screens[p->to], layer->element); break;
            }
            *(back ? &p->backs[i] : &p->textures[i]) = texture(s, back);
        }
    }
}

static void begin(playing_t *p, int from, int to) {
    memset(p, 0, sizeof *p);
    p->from = from;
    p->to = to;
    segue_element_t elements[2][MAX_ELEMENTS];
    const segue_element_t *pointers[2][MAX_ELEMENTS];
    segue_transition_desc_t desc;
    memset(&desc, 0, sizeof desc);
    desc.struct_size = sizeof desc;
    desc.bounds = (segue_rect_t){ 0, 0, WIDTH, HEIGHT };
    segue_view_t *views[2] = { &desc.from, &desc.to };
    int sides[2] = { from, to };
    for (int s = 0; s < 2; s++) {
        const screen_t *screen = &screens[sides[s]];
        views[s]->name = screen->name;
        views[s]->frame = desc.bounds;
        for (int i = 0; i < screen->element_count; i++) {
            SDL_Rect r = screen->elements[i].frame;
            elements[s][i] = (segue_element_t){ sizeof(segue_element_t), screen->elements[i].name, { r.x, r.y, r.w, r.h } };
            pointers[s][i] = &elements[s][i];
        }
        views[s]->elements = pointers[s];
        views[s]->element_count = (uint32_t)screen->element_count;
    }
    desc.going_right = to > from;
    if (segue_transition_begin(player, &desc, &p->handle) != SEGUE_OK) fail("segue_transition_begin", segue_error_message());
    if (segue_sampler_new(p->handle, &p->sampler) != SEGUE_OK) fail("segue_sampler_new", segue_error_message());
    /* The plan for its duration; the textures are made at the first draw, which says the plan is new. */
    p->plan.struct_size = sizeof p->plan;
    segue_transition_plan(p->handle, &p->plan);
}

/* Samples at t and draws the layers, back to front; returns the sample's status (SEGUE_LATE: the plugin's
 * states from before, its answer not in yet). */
static segue_status_t draw(playing_t *p, double t) {
    uint32_t layer_count = 0;
    bool changed = false;
    segue_status_t status = segue_sampler_sample(p->sampler, t, &layer_count, &changed);
    if (status < 0) fail("segue_sampler_sample", segue_error_message());
    if (changed) prepare_textures(p);  /* the default took over: its plan's layers */
    SDL_SetRenderDrawColor(renderer, 255, 255, 255, 255);
    SDL_RenderClear(renderer);
    enum { MOST = (SEGUE_MAX_MESH_DIVISIONS + 1) * (SEGUE_MAX_MESH_DIVISIONS + 1) };
    static float xy[2 * MOST], uv[2 * MOST], shades[MOST];
    static SDL_Color colors[MOST];
    static int32_t indices[6 * SEGUE_MAX_MESH_DIVISIONS * SEGUE_MAX_MESH_DIVISIONS];
    static int32_t front[sizeof indices / sizeof indices[0]], back[sizeof indices / sizeof indices[0]];
    segue_rect_t bounds = { 0, 0, WIDTH, HEIGHT };
    for (uint32_t k = 0; k < layer_count; k++) {
        segue_drawn_layer_t layer = { .struct_size = sizeof layer };
        if (segue_sampler_layer(p->sampler, k, &layer) != SEGUE_OK || !layer.visible) continue;
        uint32_t i = layer.plan_index, columns, rows;
        uint32_t count = segue_layer_project(&layer.state, &layer.request, &bounds, DIVISIONS, xy, uv, MOST, &columns, &rows);
        if (count == 0) continue;  /* behind the eye */
        uint32_t n = segue_grid_indices(columns, rows, indices, sizeof indices / sizeof indices[0]);
        Uint8 alpha = (Uint8)(layer.state.alpha * 255 + 0.5);
        if (!layer.has_mesh) {
            SDL_Color tint = { 255, 255, 255, alpha };
            SDL_RenderGeometryRaw(renderer, p->textures[i], xy, 2 * sizeof(float), &tint, 0, uv, 2 * sizeof(float), (int)count,
                                  indices, (int)n, sizeof(int32_t));
            continue;
        }
        /* A mesh: each vertex lit as Segue's renderer lights a page (segue_mesh_light); triangles that turn
           their back to the viewer show the washed-out back. */
        uint32_t fronts = 0, backs = 0;
        for (uint32_t t = 0; t < n; t += 3) {
            const float *a = &xy[2 * indices[t]], *b = &xy[2 * indices[t + 1]], *c = &xy[2 * indices[t + 2]];
            float area = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
            int32_t *into = area >= 0 ? &back[backs] : &front[fronts];
            into[0] = indices[t], into[1] = indices[t + 1], into[2] = indices[t + 2];
            if (area >= 0) backs += 3; else fronts += 3;
        }
        for (int side = 0; side < 2; side++) {
            if (segue_mesh_light(&layer.state, &layer.request, side, shades, MOST) != count) break;
            for (uint32_t v = 0; v < count; v++) {
                Uint8 lit = (Uint8)(shades[v] * 255 + 0.5f);
                colors[v] = (SDL_Color){ lit, lit, lit, alpha };
            }
            SDL_RenderGeometryRaw(renderer, side ? p->backs[i] : p->textures[i], xy, 2 * sizeof(float), colors, sizeof(SDL_Color),
                                  uv, 2 * sizeof(float), (int)count, side ? back : front, (int)(side ? backs : fronts), sizeof(int32_t));
        }
    }
    return status;
}

static void draw_at_rest(int screen) {
    SDL_Texture *t = screen_texture(&screens[screen], NULL);
    SDL_RenderCopy(renderer, t, NULL, NULL);
    SDL_DestroyTexture(t);
}

static void finish(playing_t *p, bool completed) {
    segue_transition_finish(p->handle, completed, NULL);
    segue_sampler_free(p->sampler);
    segue_transition_free(p->handle);
    release_textures(p);
}

static double seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The tour: a frame of each transition written, and 120 frames of it timed. */
static int frames(const char *folder) {
    SDL_Surface *target = SDL_CreateRGBSurfaceWithFormat(0, WIDTH, HEIGHT, 32, SDL_PIXELFORMAT_ARGB8888);
    renderer = target ? SDL_CreateSoftwareRenderer(target) : NULL;
    if (!renderer) fail("SDL_CreateSoftwareRenderer", SDL_GetError());
    static const int tour[][2] = { { 0, 1 }, { 1, 2 }, { 2, 1 }, { 1, 0 }, { 0, 2 }, { 2, 0 } };
    static playing_t p;
    for (size_t s = 0; s < sizeof tour / sizeof tour[0]; s++) {
        begin(&p, tour[s][0], tour[s][1]);
        double times[120];
        for (int f = 0; f < 120; f++) {
            double started = seconds();
            draw(&p, p.plan.duration * f / 119.0);
            times[f] = (seconds() - started) * 1000;
        }
        qsort(times, 120, sizeof times[0], compare);
        /* A fresh transition for the picture, so that a fallback during the timing does not show. */
        finish(&p, true);
        begin(&p, tour[s][0], tour[s][1]);
        double t = p.plan.duration * 0.4;  /* mid-transition, off the half-way point where a flip is edge-on */
        /* The plugin's answer at t, not the start held while its worker catches up (on a busy machine), 10 s at most. */
        for (int tries = 0; draw(&p, t) == SEGUE_LATE && tries < 10000; tries++) SDL_Delay(1);
        char path[4096];
        snprintf(path, sizeof path, "%s/%02zu-%s-%s.bmp", folder, s, screens[p.from].name, screens[p.to].name);
        if (SDL_SaveBMP(target, path) != 0) fail("SDL_SaveBMP", SDL_GetError());
        printf("frame|%s|%s|%s|%s|%d|%.6f|%.3f|%.3f\n", path, screens[p.from].name, screens[p.to].name, p.plan.animator,
               p.plan.fell_back, t, times[60], times[118]);
        fflush(stdout);
        finish(&p, true);
    }
    SDL_DestroyRenderer(renderer);
    SDL_FreeSurface(target);
    return 0;
}

/* The window: Left and Right switch screens, q or Escape quits. A key pressed
 * while a transition plays is kept, and its switch starts when that ends
 * (the last such key wins, counted from where the keys before it lead). */
static int window(void) {
    if (SDL_Init(SDL_INIT_VIDEO) != 0) fail("SDL_Init", SDL_GetError());
    SDL_Window *w = SDL_CreateWindow("Segue SDL player", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, WIDTH, HEIGHT, 0);
    if (!w) fail("SDL_CreateWindow", SDL_GetError());
    renderer = SDL_CreateRenderer(w, -1, SDL_RENDERER_PRESENTVSYNC);
    if (!renderer) renderer = SDL_CreateRenderer(w, -1, SDL_RENDERER_SOFTWARE);
    if (!renderer) fail("SDL_CreateRenderer", SDL_GetError());
    static playing_t p;
    bool animating = false;
    int shown = 0, pending = -1;
    double started = 0;
    struct pollfd events = { segue_player_fd(player), POLLIN, 0 };
    for (;;) {
        SDL_Event e;
        while (SDL_PollEvent(&e)) {
            if (e.type == SDL_QUIT) goto out;
            if (e.type != SDL_KEYDOWN) continue;
            SDL_Keycode key = e.key.keysym.sym;
            if (key == SDLK_q || key == SDLK_ESCAPE) goto out;
            int from = pending >= 0 ? pending : animating ? p.to : shown;
            int next = key == SDLK_RIGHT ? from + 1 : key == SDLK_LEFT ? from - 1 : from;
            if (next < 0 || next >= SCREEN_COUNT || next == from) continue;
            if (animating) {
                pending = next;
                continue;
            }
            begin(&p, shown, next);
            animating = true;
            started = seconds();
        }
        if (poll(&events, 1, 0) > 0) segue_player_dispatch(player);
        if (animating) {
            double t = seconds() - started;
            draw(&p, t);
            if (t >= p.plan.duration) {
                shown = p.to;
                finish(&p, true);
                animating = false;
                if (pending >= 0 && pending != shown) {
                    begin(&p, shown, pending);
                    animating = true;
                    started = seconds();
                }
                pending = -1;
            }
        } else {
            draw_at_rest(shown);
        }
        SDL_RenderPresent(renderer);
        SDL_Delay(animating ? 1 : 15);
    }
out:
    if (animating) finish(&p, false);
    SDL_DestroyRenderer(renderer);
    SDL_DestroyWindow(w);
    SDL_Quit();
    return 0;
}

int main(int argc, char **argv) {
    const char *config = NULL, *frames_folder = NULL;
    const char *folders[16];
    uint32_t folder_count = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--config") == 0 && i + 1 < argc) config = argv[++i];
        else if (strcmp(argv[i], "--plugins") == 0 && i + 1 < argc && folder_count < 16) folders[folder_count++] = argv[++i];
        else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) frames_folder = argv[++i];
        else {
            fprintf(stderr, "usage: sdl-player [--frames DIR] [--config FILE] [--plugins DIR]...\n");
            return 2;
        }
    }
    segue_player_options_t options;
    memset(&options, 0, sizeof options);
    options.struct_size = sizeof options;
    options.plugin_dirs = folders;
    options.plugin_dir_count = folder_count;
    options.config_path = config;
    options.flags = SEGUE_PLAYER_WATCH;
    options.on_event = on_event;
    if (segue_player_new(&options, &player) != SEGUE_OK) fail("segue_player_new", segue_error_message());
    segue_player_dispatch(player);
    int status = frames_folder ? frames(frames_folder) : window();
    segue_player_free(player);
    return status;
}
