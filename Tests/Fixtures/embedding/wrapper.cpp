// Plays an animator through libsegue's C++ wrapper (segue/segue.hpp), as a
// C++ host would, and prints what it saw as `name|values` lines:
//   wrapper PLUGINS ANIMATOR T
// PLUGINS is the only plugin folder; the transition is a switch between two
// 390 x 844 views, sampled at T seconds. Exits 1 when the wrapper and the C
// API it wraps disagree.
#include <segue/segue.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <unistd.h>

static int failures = 0;
static void expect(bool ok, const char *what)
{
    if (!ok) {
        std::printf("failed|%s\n", what);
        failures += 1;
    }
}

static segue_transition_desc_t desc(const char *animator)
{
    segue_transition_desc_t d{};
    d.bounds = segue_rect_t{0, 0, 390, 844};
    d.from = segue_view_t{"a", d.bounds, nullptr, 0};
    d.to = segue_view_t{"b", d.bounds, nullptr, 0};
    d.animator = animator;
    return d;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: wrapper PLUGINS ANIMATOR T\n");
        return 2;
    }
    const double t = std::atof(argv[3]);
    segue::PlayerOptions options;
    options.plugin_dirs = {argv[1]};
    options.flags = SEGUE_PLAYER_ONLY_GIVEN_FOLDERS;
    int events = 0;
    options.on_event = [&events](const segue_event_t &) { events += 1; };
    segue::Player made(std::move(options));
    segue::Player player = std::move(made); // moved: its events still reach the callback

    segue::Transition transition = player.begin(desc(argv[2]));
    const segue::Plan plan = transition.plan();
    std::printf("plan|%s|%d|%.6f|%u\n", plan.animator.c_str(), int(plan.fell_back), plan.duration, plan.info.layer_count);

    segue::Sampler sampler(transition);
    // A plugin's first answer may come later than the sample bound on a busy machine: held states (SEGUE_LATE).
    // The plan changed at the first sample, which says so once: kept across held ones.
    segue_status_t status = sampler.sample(t);
    bool changed = sampler.plan_changed();
    for (int i = 0; i < 10000 && status == SEGUE_LATE; ++i) {
        usleep(1000);
        status = sampler.sample(t);
        changed = changed || sampler.plan_changed();
    }
    std::printf("sample|%d|%d|%zu\n", int(status), int(changed), sampler.layers().size());
    // Back to front, by z: each layer's z at least the one's behind it. The states, as the C API hands them.
    double z = -INFINITY;
    for (const segue_drawn_layer_t &layer : sampler.layers()) {
        expect(layer.state.z_position >= z, "layers back to front by z");
        z = layer.state.z_position;
        segue_drawn_layer_t direct{};
        direct.struct_size = sizeof direct;
        const uint32_t index = uint32_t(&layer - sampler.layers().begin());
        expect(segue_sampler_layer(sampler.get(), index, &direct) == SEGUE_OK && direct.plan_index == layer.plan_index
                   && direct.state.alpha == layer.state.alpha && direct.has_mesh == layer.has_mesh,
               "a layer as segue_sampler_layer gives it");
        std::printf("layer|%u|%u|%.6f|%.3f,%.3f,%.3f,%.3f|%d|%d\n", layer.plan_index, layer.request.kind, layer.state.alpha,
                    layer.state.frame.x, layer.state.frame.y, layer.state.frame.width, layer.state.frame.height, int(layer.has_mesh),
                    int(layer.visible));
        if (layer.has_mesh) {
            segue::LitMesh mesh;
            const bool lit = mesh.update(layer, segue_rect_t{0, 0, 390, 844});
            float least = 1, most = 0;
            for (uint32_t i = 0; i < mesh.vertex_count(); ++i) {
                least = std::fmin(least, mesh.front[i]);
                most = std::fmax(most, mesh.front[i]);
            }
            std::vector<float> shades(mesh.vertex_count());
            expect(segue_mesh_light(&layer.state, &layer.request, false, shades.data(), uint32_t(shades.size())) == mesh.vertex_count()
                       && std::equal(shades.begin(), shades.end(), mesh.front.begin()),
                   "a mesh's light as segue_mesh_light gives it");
            std::printf("mesh|%d|%u|%u|%.3f|%.3f\n", int(lit), mesh.columns, mesh.rows, least, most);
        }
    }

    // Failures are exceptions with the status and libsegue's words.
    try {
        segue_transition_desc_t bad = desc(nullptr);
        bad.bounds = segue_rect_t{};
        player.begin(bad);
        std::printf("bad begin|no exception\n");
    } catch (const segue::Error &error) {
        std::printf("bad begin|%d|%s\n", int(error.status()), error.what());
    }
    const segue::Report report = transition.finish(true);
    std::printf("report|%s|%d|%d\n", report.animator.c_str(), int(report.fell_back), int(report.completed));
    try {
        transition.finish(true);
        std::printf("finish again|no exception\n");
    } catch (const segue::Error &error) {
        std::printf("finish again|%d|%s\n", int(error.status()), error.what());
    }
    try {
        sampler.sample(t);
        std::printf("sample after finish|no exception\n");
    } catch (const segue::Error &error) {
        std::printf("sample after finish|%d|%zu\n", int(error.status()), sampler.layers().size());
    }
    try {
        segue::PlayerOptions missing;
        missing.config_path = std::string(argv[1]) + "/no-such-config.json";
        segue::Player broken(std::move(missing));
        std::printf("missing config|no exception\n");
    } catch (const segue::Error &error) {
        std::printf("missing config|%d|%s\n", int(error.status()), error.what());
    }
    // An unknown animator is a success: the built-in default plays, and the plan says why.
    const segue::Plan unknown = player.begin(desc("Nope")).plan();
    std::printf("unknown|%s|%d\n", unknown.animator.c_str(), int(unknown.fell_back));
    player.dispatch();
    std::printf("glsl|%d\n", int(std::string(segue::page_shading_glsl()).find("segue_page_lit") != std::string::npos));
    std::printf("events|%d\n", events);
    std::printf("done|%d\n", failures);
    return failures == 0 ? 0 : 1;
}
