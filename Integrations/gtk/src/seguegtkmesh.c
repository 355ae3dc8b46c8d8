/* A mesh layer drawn through GL into a texture GTK shows: see seguegtkmesh.h. */
#include "seguegtkmesh.h"

#include <epoxy/gl.h>
#include <math.h>
#include <string.h>

enum { SLOTS = SEGUE_MAX_LAYERS, MOST = (SEGUE_MAX_MESH_DIVISIONS + 1) * (SEGUE_MAX_MESH_DIVISIONS + 1) };

/* A texture drawn into and handed to GTK: free again once GTK lets go of it. */
typedef struct {
    SegueGtkMesh *mesh;
    GdkGLContext *context;
    GLuint id;
    int width, height;
    gboolean in_use;
} Target;

struct SegueGtkMesh {
    GdkGLContext *context;
    GLuint program, vao, buffer, indices, framebuffer;
    GLint size_at, alpha_at, layer_size_at, texel_at, corner_at, clip_shape_at, clip_rect_at, clip_radii_at;
    GLuint pictures[SLOTS];
    GPtrArray *targets; /* Target *, freed with the painter */
    /* The shadow of the lifted cells (0 when its shaders did not build): its programs, a buffer of footprint
     * triangles, a quad over the target, and two masks of half the target's size blurred one into the other. */
    GLuint footprint_program, blur_program, shade_program, shadow_vao, shadow_buffer, quad_vao, quad_buffer, masks[2];
    GLint footprint_size_at, blur_step_at, blur_reach_at, shade_span_at, shade_alpha_at;
    int mask_width, mask_height;
    float footprints[3 * 6 * SEGUE_MAX_MESH_DIVISIONS * SEGUE_MAX_MESH_DIVISIONS];
    float vertices[6 * MOST];
    float xy[2 * MOST], uv[2 * MOST], front[MOST], back[MOST];
    int32_t grid[6 * SEGUE_MAX_MESH_DIVISIONS * SEGUE_MAX_MESH_DIVISIONS];
};

/* Positions in the layer's container coordinates (y down) go to GL's clip space upside down, so
 * that the texture's first row is the top, as GDK reads a GL texture; the winding flips with it:
 * a triangle GL calls front-facing is one Segue's renderer sees from behind. */
static const char vertex_source[] =
    "in vec2 position;\n"
    "in vec2 texcoord;\n"
    "in vec2 shade;\n"
    "uniform vec2 size;\n"
    "out vec2 uv;\n"
    "out vec2 light;\n"
    "void main() {\n"
    "    uv = texcoord;\n"
    "    light = shade;\n"
    "    gl_Position = vec4(position.x * 2.0 / size.x - 1.0, position.y * 2.0 / size.y - 1.0, 0.0, 1.0);\n"
    "}\n";

/* The picture is premultiplied; a page's back and its light are Segue's (libsegue's
 * segue_page_shading_glsl, put before this main). The layer's look (the animator ABI 1.4) cuts the
 * picture as Segue's renderer cuts a mesh's texture: its corner radius and its clip in the layer's own
 * coordinates (uv times the layer's size), each an anti-aliased coverage from the shape's signed
 * distance (Sources/Renderer/Drawing/Masks.swift), a texel wide. */
static const char fragment_source[] =
    "in vec2 uv;\n"
    "in vec2 light;\n"
    "uniform sampler2D picture;\n"
    "uniform float alpha;\n"
    "uniform vec2 layer_size;\n"
    "uniform float texel;\n"
    "uniform float corner;\n"
    "uniform int clip_shape;\n"
    "uniform vec4 clip_rect;\n"
    "uniform vec4 clip_radii;\n"
    "out vec4 color;\n"
    "float rounded_box(vec2 p, vec2 half_size, float r) {\n"
    "    vec2 q = abs(p) - (half_size - r);\n"
    "    float outside = q.x > 0.0 && q.y > 0.0 ? length(q) : max(max(q.x, q.y), 0.0);\n"
    "    return outside + min(max(q.x, q.y), 0.0) - r;\n"
    "}\n"
    "float covered(float distance) { return clamp(0.5 - distance / texel, 0.0, 1.0); }\n"
    "float look(vec2 at) {\n"
    "    float c = 1.0;\n"
    "    if (corner > 0.0) c *= covered(rounded_box(at - layer_size * 0.5, layer_size * 0.5, corner));\n"
    "    if (clip_shape == 0) return c;\n"
    "    if (clip_rect.z <= 0.0 || clip_rect.w <= 0.0) return 0.0;\n"
    "    vec2 half_size = clip_rect.zw * 0.5, p = at - (clip_rect.xy + half_size);\n"
    "    if (clip_shape == 1) {\n"
    "        float r = p.x < 0.0 ? (p.y < 0.0 ? clip_radii.x : clip_radii.w) : (p.y < 0.0 ? clip_radii.y : clip_radii.z);\n"
    "        return c * covered(rounded_box(p, half_size, r));\n"
    "    }\n"
    "    float k0 = length(p / half_size), k1 = length(p / (half_size * half_size));\n"
    "    return c * covered(k1 > 1e-12 ? k0 * (k0 - 1.0) / k1 : -min(half_size.x, half_size.y));\n"
    "}\n"
    "void main() {\n"
    "    vec4 c = texture(picture, uv) * look(uv * layer_size);\n"
    "    c = gl_FrontFacing ? segue_page_lit(segue_page_back(c), light.y) : segue_page_lit(c, light.x);\n"
    "    color = c * alpha;\n"
    "}\n";

/* The shadow of a mesh's lifted cells, as Segue's renderer casts it (Sources/Renderer/Drawing/MeshShadow.swift):
 * each lifted cell's footprint on the plane beneath, moved down by a quarter of its height and darker the
 * higher it is (0.45 at 40 points), drawn at half the target's resolution, blurred by two box passes along
 * each axis whose reach grows with the highest lift, and put beneath the page as black. Footprints are in
 * mask pixels, rows down from the top as the target's are. */
static const char footprint_vertex[] =
    "in vec2 position;\n"
    "in float dark;\n"
    "uniform vec2 size;\n"
    "out float darkness;\n"
    "void main() {\n"
    "    darkness = dark;\n"
    "    gl_Position = vec4(position * 2.0 / size - 1.0, 0.0, 1.0);\n"
    "}\n";
static const char footprint_fragment[] =
    "in float darkness;\n"
    "out vec4 color;\n"
    "void main() { color = vec4(darkness); }\n";
/* A quad over the whole of what is drawn into: `at` from 0 to 1 across it. */
static const char quad_vertex[] =
    "in vec2 position;\n"
    "out vec2 at;\n"
    "void main() {\n"
    "    at = position * 0.5 + 0.5;\n"
    "    gl_Position = vec4(position, 0.0, 1.0);\n"
    "}\n";
/* One box pass: the mean of the 2 reach + 1 mask pixels along `step`, nothing beyond the mask. */
static const char blur_fragment[] =
    "in vec2 at;\n"
    "uniform sampler2D mask;\n"
    "uniform ivec2 step;\n"
    "uniform int reach;\n"
    "out vec4 color;\n"
    "void main() {\n"
    "    ivec2 size = textureSize(mask, 0), p = ivec2(gl_FragCoord.xy);\n"
    "    float sum = 0.0;\n"
    "    for (int k = -reach; k <= reach; k++) {\n"
    "        ivec2 q = p + step * k;\n"
    "        if (q.x >= 0 && q.y >= 0 && q.x < size.x && q.y < size.y) sum += texelFetch(mask, q, 0).r;\n"
    "    }\n"
    "    color = vec4(sum / float(2 * reach + 1));\n"
    "}\n";
/* The blurred darkness read bilinearly at each target pixel (`span`: how much of the mask the target covers), as black. */
static const char shade_fragment[] =
    "in vec2 at;\n"
    "uniform sampler2D mask;\n"
    "uniform vec2 span;\n"
    "uniform float alpha;\n"
    "out vec4 color;\n"
    "void main() {\n"
    "    float d = texture(mask, at * span).r;\n"
    "    color = vec4(0.0, 0.0, 0.0, d > 0.002 ? d * alpha : 0.0);\n"
    "}\n";

static GLuint compile(GLenum kind, const char *header, const char *shading, const char *source, GError **error) {
    GLuint shader = glCreateShader(kind);
    const char *parts[3] = { header, shading, source };
    glShaderSource(shader, 3, parts, NULL);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024] = "";
        glGetShaderInfoLog(shader, sizeof log, NULL, log);
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, "the mesh shader does not compile: %s", log);
        glDeleteShader(shader);
        return 0;
    }
    return shader;
}

/* A program of two shaders, its attributes bound in order from 0; 0 (and why in @error) when one does not compile. */
static GLuint link_program(const char *header, const char *vertex_text, const char *fragment_text, const char *const *attributes, GError **error) {
    GLuint vertex = compile(GL_VERTEX_SHADER, header, "", vertex_text, error);
    GLuint fragment = vertex ? compile(GL_FRAGMENT_SHADER, header, "", fragment_text, error) : 0;
    if (!fragment) {
        if (vertex) glDeleteShader(vertex);
        return 0;
    }
    GLuint program = glCreateProgram();
    glAttachShader(program, vertex);
    glAttachShader(program, fragment);
    for (GLuint i = 0; attributes[i]; i++) glBindAttribLocation(program, i, attributes[i]);
    glLinkProgram(program);
    glDeleteShader(vertex);
    glDeleteShader(fragment);
    return program;
}

/* The shadow's programs and buffers; without them (said once) meshes cast no shadow. */
static void prepare_shadow(SegueGtkMesh *mesh, const char *header) {
    GError *error = NULL;
    static const char *const footprint_attributes[] = { "position", "dark", NULL }, *const quad_attributes[] = { "position", NULL };
    mesh->footprint_program = link_program(header, footprint_vertex, footprint_fragment, footprint_attributes, &error);
    mesh->blur_program = mesh->footprint_program ? link_program(header, quad_vertex, blur_fragment, quad_attributes, &error) : 0;
    mesh->shade_program = mesh->blur_program ? link_program(header, quad_vertex, shade_fragment, quad_attributes, &error) : 0;
    if (!mesh->shade_program) {
        g_warning("meshes cast no shadow: %s", error ? error->message : "no program");
        g_clear_error(&error);
        glDeleteProgram(mesh->footprint_program);
        glDeleteProgram(mesh->blur_program);
        mesh->footprint_program = mesh->blur_program = 0;
        return;
    }
    mesh->footprint_size_at = glGetUniformLocation(mesh->footprint_program, "size");
    mesh->blur_step_at = glGetUniformLocation(mesh->blur_program, "step");
    mesh->blur_reach_at = glGetUniformLocation(mesh->blur_program, "reach");
    mesh->shade_span_at = glGetUniformLocation(mesh->shade_program, "span");
    mesh->shade_alpha_at = glGetUniformLocation(mesh->shade_program, "alpha");
    glGenVertexArrays(1, &mesh->shadow_vao);
    glGenBuffers(1, &mesh->shadow_buffer);
    glBindVertexArray(mesh->shadow_vao);
    glBindBuffer(GL_ARRAY_BUFFER, mesh->shadow_buffer);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 3 * sizeof(float), (void *)0);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 1, GL_FLOAT, GL_FALSE, 3 * sizeof(float), (void *)(2 * sizeof(float)));
    static const float quad[] = { -1, -1, 1, -1, -1, 1, 1, 1 };
    glGenVertexArrays(1, &mesh->quad_vao);
    glGenBuffers(1, &mesh->quad_buffer);
    glBindVertexArray(mesh->quad_vao);
    glBindBuffer(GL_ARRAY_BUFFER, mesh->quad_buffer);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), (void *)0);
    glBindVertexArray(0);
}

SegueGtkMesh *segue_gtk_mesh_new(GdkDisplay *display, GError **error) {
    GdkGLContext *context = gdk_display_create_gl_context(display, error);
    if (!context) return NULL;
    if (!gdk_gl_context_realize(context, error)) {
        g_object_unref(context);
        return NULL;
    }
    gdk_gl_context_make_current(context);
    const char *header = gdk_gl_context_get_use_es(context) ? "#version 300 es\nprecision highp float;\n" : "#version 150\n";
    GLuint vertex = compile(GL_VERTEX_SHADER, header, "", vertex_source, error);
    GLuint fragment = vertex ? compile(GL_FRAGMENT_SHADER, header, segue_page_shading_glsl(), fragment_source, error) : 0;
    if (!fragment) {
        if (vertex) glDeleteShader(vertex);
        gdk_gl_context_clear_current();
        g_object_unref(context);
        return NULL;
    }
    SegueGtkMesh *mesh = g_new0(SegueGtkMesh, 1);
    mesh->context = context;
    mesh->program = glCreateProgram();
    glAttachShader(mesh->program, vertex);
    glAttachShader(mesh->program, fragment);
    glBindAttribLocation(mesh->program, 0, "position");
    glBindAttribLocation(mesh->program, 1, "texcoord");
    glBindAttribLocation(mesh->program, 2, "shade");
    glLinkProgram(mesh->program);
    glDeleteShader(vertex);
    glDeleteShader(fragment);
    mesh->size_at = glGetUniformLocation(mesh->program, "size");
    mesh->alpha_at = glGetUniformLocation(mesh->program, "alpha");
    mesh->layer_size_at = glGetUniformLocation(mesh->program, "layer_size");
    mesh->texel_at = glGetUniformLocation(mesh->program, "texel");
    mesh->corner_at = glGetUniformLocation(mesh->program, "corner");
    mesh->clip_shape_at = glGetUniformLocation(mesh->program, "clip_shape");
    mesh->clip_rect_at = glGetUniformLocation(mesh->program, "clip_rect");
    mesh->clip_radii_at = glGetUniformLocation(mesh->program, "clip_radii");
    glGenVertexArrays(1, &mesh->vao);
    glGenBuffers(1, &mesh->buffer);
    glGenBuffers(1, &mesh->indices);
    glGenFramebuffers(1, &mesh->framebuffer);
    glBindVertexArray(mesh->vao);
    glBindBuffer(GL_ARRAY_BUFFER, mesh->buffer);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, mesh->indices);
    for (GLuint i = 0; i < 3; i++) {
        glEnableVertexAttribArray(i);
        glVertexAttribPointer(i, 2, GL_FLOAT, GL_FALSE, 6 * sizeof(float), (void *)(2 * i * sizeof(float)));
    }
    glBindVertexArray(0);
    prepare_shadow(mesh, header);
    mesh->targets = g_ptr_array_new_with_free_func(g_free);
    return mesh;
}

void segue_gtk_mesh_clear(SegueGtkMesh *mesh) {
    gdk_gl_context_make_current(mesh->context);
    glDeleteTextures(SLOTS, mesh->pictures);
    memset(mesh->pictures, 0, sizeof mesh->pictures);
}

void segue_gtk_mesh_free(SegueGtkMesh *mesh) {
    if (!mesh) return;
    segue_gtk_mesh_clear(mesh);
    /* A texture GTK still holds keeps its Target until released; the rest go now. */
    for (guint i = 0; i < mesh->targets->len; i++) {
        Target *target = g_ptr_array_index(mesh->targets, i);
        if (target->in_use) {
            target->mesh = NULL;
            g_ptr_array_index(mesh->targets, i) = NULL;
            g_object_ref(target->context);
        } else {
            glDeleteTextures(1, &target->id);
        }
    }
    glDeleteTextures(2, mesh->masks);
    glDeleteBuffers(1, &mesh->shadow_buffer);
    glDeleteBuffers(1, &mesh->quad_buffer);
    glDeleteVertexArrays(1, &mesh->shadow_vao);
    glDeleteVertexArrays(1, &mesh->quad_vao);
    glDeleteProgram(mesh->footprint_program);
    glDeleteProgram(mesh->blur_program);
    glDeleteProgram(mesh->shade_program);
    glDeleteFramebuffers(1, &mesh->framebuffer);
    glDeleteBuffers(1, &mesh->buffer);
    glDeleteBuffers(1, &mesh->indices);
    glDeleteVertexArrays(1, &mesh->vao);
    glDeleteProgram(mesh->program);
    gdk_gl_context_clear_current();
    g_ptr_array_unref(mesh->targets);
    g_object_unref(mesh->context);
    g_free(mesh);
}

gboolean segue_gtk_mesh_has_picture(SegueGtkMesh *mesh, guint slot) { return slot < SLOTS && mesh->pictures[slot] != 0; }

void segue_gtk_mesh_set_picture(SegueGtkMesh *mesh, guint slot, GdkTexture *picture) {
    g_return_if_fail(slot < SLOTS);
    int width = gdk_texture_get_width(picture), height = gdk_texture_get_height(picture);
    /* Premultiplied BGRA (cairo's ARGB32 on a little-endian machine), swapped to RGBA for any GL. */
    gsize stride = (gsize)width * 4;
    guchar *pixels = g_malloc(stride * (gsize)height);
    gdk_texture_download(picture, pixels, stride);
    for (gsize i = 0; i < stride * (gsize)height; i += 4) {
        guchar b = pixels[i];
        pixels[i] = pixels[i + 2];
        pixels[i + 2] = b;
    }
    gdk_gl_context_make_current(mesh->context);
    if (mesh->pictures[slot]) glDeleteTextures(1, &mesh->pictures[slot]);
    glGenTextures(1, &mesh->pictures[slot]);
    glBindTexture(GL_TEXTURE_2D, mesh->pictures[slot]);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    g_free(pixels);
}

static void release_target(gpointer data) {
    Target *target = data;
    if (target->mesh) {
        target->in_use = FALSE;
    } else {
        /* Its painter is gone: the texture goes with its last use. */
        gdk_gl_context_make_current(target->context);
        glDeleteTextures(1, &target->id);
        g_object_unref(target->context);
        g_free(target);
    }
}

/* A free texture of this size to draw into, else a new one. */
static Target *target_for(SegueGtkMesh *mesh, int width, int height) {
    for (guint i = 0; i < mesh->targets->len; i++) {
        Target *target = g_ptr_array_index(mesh->targets, i);
        if (target && !target->in_use && target->width == width && target->height == height) return target;
    }
    Target *target = g_new0(Target, 1);
    target->mesh = mesh;
    target->context = mesh->context;
    target->width = width;
    target->height = height;
    glGenTextures(1, &target->id);
    glBindTexture(GL_TEXTURE_2D, target->id);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    g_ptr_array_add(mesh->targets, target);
    return target;
}

/* Draws into mask @index from now on (attached to the painter's framebuffer, which is bound). */
static void draw_into_mask(SegueGtkMesh *mesh, int index) {
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, mesh->masks[index], 0);
    glViewport(0, 0, mesh->mask_width, mesh->mask_height);
}

/* Puts the shadow of the lifted cells of @state's mesh (@columns x @rows cells) beneath what the texture @target
 * holds (@width x @height pixels, @scale pixels a point; attached to the painter's framebuffer, which is bound),
 * faded by @alpha. */
static void draw_shadow(SegueGtkMesh *mesh, const segue_layer_state_t *state, uint32_t columns, uint32_t rows, GLuint target, int width,
                        int height, int scale, float alpha) {
    if (!mesh->shade_program) return;
    double lift = 0;
    for (uint32_t k = 0; k < state->mesh_vertex_count; k++) lift = fmax(lift, state->mesh[k].z);
    if (!(lift > 0.5)) return;
    /* The footprints of the cells with a corner lifted, in mask pixels (two target pixels), and the box round them. */
    uint32_t n = 0;
    float lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };
    for (uint32_t j = 0; j < rows; j++)
        for (uint32_t i = 0; i < columns; i++) {
            const uint32_t corners[4] = { j * (columns + 1) + i, j * (columns + 1) + i + 1, (j + 1) * (columns + 1) + i + 1,
                                          (j + 1) * (columns + 1) + i };
            gboolean lifted = FALSE;
            for (int c = 0; c < 4; c++) lifted |= state->mesh[corners[c]].z > 0.5;
            if (!lifted) continue;
            static const int order[6] = { 0, 1, 2, 0, 2, 3 };
            for (int k = 0; k < 6; k++) {
                const segue_vec3_t *p = &state->mesh[corners[order[k]]];
                float *v = &mesh->footprints[3 * n++];
                v[0] = (float)(p->x * scale / 2);
                v[1] = (float)((p->y + 0.25 * p->z) * scale / 2);
                v[2] = (float)(0.45 * fmin(p->z / 40, 1));
                for (int a = 0; a < 2; a++) {
                    lo[a] = fminf(lo[a], v[a]);
                    hi[a] = fmaxf(hi[a], v[a]);
                }
            }
        }
    int mask_width = (width + 1) / 2, mask_height = (height + 1) / 2;
    if (mask_width != mesh->mask_width || mask_height != mesh->mask_height || !mesh->masks[0]) {
        glDeleteTextures(2, mesh->masks);
        glGenTextures(2, mesh->masks);
        for (int m = 0; m < 2; m++) {
            glBindTexture(GL_TEXTURE_2D, mesh->masks[m]);
            if (gdk_gl_context_get_use_es(mesh->context))
                glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, mask_width, mask_height, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
            else
                glTexImage2D(GL_TEXTURE_2D, 0, GL_R16F, mask_width, mask_height, 0, GL_RED, GL_FLOAT, NULL);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        }
        mesh->mask_width = mask_width;
        mesh->mask_height = mask_height;
    }
    /* The blur reaches 2 reach + 2 mask pixels past the footprints (as far as the renderer's mask goes): only that
     * box is drawn, in both masks, cleared whole (what lies past the box reads as nothing). */
    int reach = (int)fmax(round(fmin(lift, 60) * 0.2 * scale / 2), 1), grow = 2 * reach + 2;
    if (!(lo[0] <= hi[0] && lo[1] <= hi[1])) return;
    int x0 = (int)fmax(floorf(lo[0]) - grow, 0), y0 = (int)fmax(floorf(lo[1]) - grow, 0);
    int x1 = (int)fmin(ceilf(hi[0]) + grow + 1, mask_width), y1 = (int)fmin(ceilf(hi[1]) + grow + 1, mask_height);
    if (x0 >= x1 || y0 >= y1) return;
    glClearColor(0, 0, 0, 0);
    draw_into_mask(mesh, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    draw_into_mask(mesh, 0);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_SCISSOR_TEST);
    glScissor(x0, y0, x1 - x0, y1 - y0);
    /* The footprints, the darkest where they overlap. */
    glUseProgram(mesh->footprint_program);
    glUniform2f(mesh->footprint_size_at, (float)mask_width, (float)mask_height);
    glBindVertexArray(mesh->shadow_vao);
    glBindBuffer(GL_ARRAY_BUFFER, mesh->shadow_buffer);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(3 * n * sizeof(float)), mesh->footprints, GL_STREAM_DRAW);
    glEnable(GL_BLEND);
    glBlendEquation(GL_MAX);
    glBlendFunc(GL_ONE, GL_ONE);
    glDrawArrays(GL_TRIANGLES, 0, (GLsizei)n);
    glBlendEquation(GL_FUNC_ADD);
    glDisable(GL_BLEND);
    /* Two box blurs along each axis, from one mask into the other: across, down, across, down. */
    glUseProgram(mesh->blur_program);
    glUniform1i(mesh->blur_reach_at, reach);
    glBindVertexArray(mesh->quad_vao);
    glActiveTexture(GL_TEXTURE0);
    for (int pass = 0; pass < 4; pass++) {
        draw_into_mask(mesh, (pass + 1) % 2);
        glBindTexture(GL_TEXTURE_2D, mesh->masks[pass % 2]);
        glUniform2i(mesh->blur_step_at, pass % 2 == 0, pass % 2 == 1);
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    }
    /* Beneath what the page drew: black, as dark as the mask, where the page leaves anything uncovered. */
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, target, 0);
    glViewport(0, 0, width, height);
    glScissor(2 * x0, 2 * y0, 2 * (x1 - x0), 2 * (y1 - y0));
    glUseProgram(mesh->shade_program);
    glUniform2f(mesh->shade_span_at, (float)width / 2 / (float)mask_width, (float)height / 2 / (float)mask_height);
    glUniform1f(mesh->shade_alpha_at, alpha);
    glBindTexture(GL_TEXTURE_2D, mesh->masks[0]);
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE_MINUS_DST_ALPHA, GL_ONE);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glDisable(GL_BLEND);
    glDisable(GL_SCISSOR_TEST);
}

GdkTexture *segue_gtk_mesh_draw(SegueGtkMesh *mesh, guint slot, const segue_layer_state_t *state, uint32_t columns,
                                uint32_t rows, int width, int height, int scale) {
    if (slot >= SLOTS || !mesh->pictures[slot] || !state->mesh || width <= 0 || height <= 0) return NULL;
    segue_layer_request_t layer = { SEGUE_LAYER_FROM_VIEW, 0, columns, rows };
    segue_rect_t bounds = { 0, 0, width, height };
    uint32_t c = 0, r = 0;
    uint32_t count = segue_layer_project(state, &layer, &bounds, 1, mesh->xy, mesh->uv, MOST, &c, &r);
    if (count == 0 || c != columns || r != rows) return NULL; /* behind the eye */
    uint32_t n = segue_grid_indices(columns, rows, mesh->grid, G_N_ELEMENTS(mesh->grid));
    /* Each vertex's light, front and back, as Segue's renderer lights a page. */
    if (segue_mesh_light(state, &layer, false, mesh->front, MOST) != count || segue_mesh_light(state, &layer, true, mesh->back, MOST) != count)
        return NULL;
    for (uint32_t k = 0; k < count; k++) {
        float *v = &mesh->vertices[6 * k];
        v[0] = mesh->xy[2 * k];
        v[1] = mesh->xy[2 * k + 1];
        v[2] = mesh->uv[2 * k];
        v[3] = mesh->uv[2 * k + 1];
        v[4] = mesh->front[k];
        v[5] = mesh->back[k];
    }
    gdk_gl_context_make_current(mesh->context);
    Target *target = target_for(mesh, width * scale, height * scale);
    target->in_use = TRUE;
    glBindFramebuffer(GL_FRAMEBUFFER, mesh->framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, target->id, 0);
    glViewport(0, 0, width * scale, height * scale);
    glDisable(GL_BLEND);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glClearColor(0, 0, 0, 0);
    glClear(GL_COLOR_BUFFER_BIT);
    glUseProgram(mesh->program);
    glUniform2f(mesh->size_at, (float)width, (float)height);
    glUniform1f(mesh->alpha_at, (float)fmin(fmax(state->alpha, 0), 1));
    /* The look, in the layer's own coordinates: the picture (the container at @scale) spans its frame. */
    segue_rect_t f = state->frame;
    glUniform2f(mesh->layer_size_at, (float)f.width, (float)f.height);
    glUniform1f(mesh->texel_at, (float)fmax((f.width / width + f.height / height) / (2.0 * scale), 1e-6));
    glUniform1f(mesh->corner_at, (float)fmax(state->corner_radius, 0));
    const segue_clip_t *clip = &state->clip;
    int shape = clip->shape == SEGUE_CLIP_ROUNDED_RECT || clip->shape == SEGUE_CLIP_ELLIPSE ? (int)clip->shape : 0;
    glUniform1i(mesh->clip_shape_at, shape);
    glUniform4f(mesh->clip_rect_at, (float)clip->rect.x, (float)clip->rect.y, (float)clip->rect.width, (float)clip->rect.height);
    glUniform4f(mesh->clip_radii_at, (float)clip->radii.top_left, (float)clip->radii.top_right, (float)clip->radii.bottom_right,
                (float)clip->radii.bottom_left);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, mesh->pictures[slot]);
    glBindVertexArray(mesh->vao);
    glBindBuffer(GL_ARRAY_BUFFER, mesh->buffer);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(6 * count * sizeof(float)), mesh->vertices, GL_STREAM_DRAW);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(n * sizeof(int32_t)), mesh->grid, GL_STREAM_DRAW);
    /* Triangles in the grid's order, each over the ones before: a page curling over itself covers itself. */
    glDrawElements(GL_TRIANGLES, (GLsizei)n, GL_UNSIGNED_INT, NULL);
    draw_shadow(mesh, state, columns, rows, target->id, width * scale, height * scale, scale, (float)fmin(fmax(state->alpha, 0), 1));
    glBindVertexArray(0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glFlush();
    return gdk_gl_texture_new(mesh->context, target->id, width * scale, height * scale, release_target, target);
}
