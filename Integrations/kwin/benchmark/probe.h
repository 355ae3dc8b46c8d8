// A probe for the KWin benchmark (kwin-benchmark.py), not for users: loaded
// twice, once first in KWin's effect chain (the outer probe) and once last
// (the inner one), it times each paint pass on KWin's thread. What the outer
// probe sees of a pass less what the inner one sees of it is the work of the
// effects between them: whichever animates the window (Segue's, scale, fade).
// The outer probe prints one line a frame on KWin's standard error.
#pragma once

#include <kwineffects.h>

#include <chrono>
#include <cstdint>

namespace KWin
{

class ProbeEffect : public Effect
{
    Q_OBJECT

public:
    /// First in the chain (outer) or last (inner).
    explicit ProbeEffect(bool outer);

    void prePaintScreen(ScreenPrePaintData &data, std::chrono::milliseconds presentTime) override;
    void prePaintWindow(EffectWindow *w, WindowPrePaintData &data, std::chrono::milliseconds presentTime) override;
    void paintScreen(int mask, const QRegion &region, ScreenPaintData &data) override;
    void paintWindow(EffectWindow *w, int mask, QRegion region, WindowPaintData &data) override;
    void drawWindow(EffectWindow *w, int mask, const QRegion &region, WindowPaintData &data) override;
    void postPaintWindow(EffectWindow *w) override;
    void postPaintScreen() override;
    bool isActive() const override { return true; }
    int requestedEffectChainPosition() const override { return m_outer ? -1000000 : 1000000; }

private:
    /// Nanoseconds of this thread's CPU time.
    static int64_t now();

    /// What one frame's passes took, inclusive of what they call, in CPU nanoseconds.
    struct Passes {
        int64_t prePaintScreen = 0, prePaintWindow = 0, paintScreen = 0, paintWindow = 0, drawWindow = 0, postPaintWindow = 0,
                postPaintScreen = 0;
    };

    bool m_outer;
    Passes m_frame;
    int64_t m_frameStart = 0;
    /// The process's CPU time (every thread's: llvmpipe's, libsegue's evaluators) at the last frame's start.
    int64_t m_processAtLastFrame = 0;
    int64_t m_processSinceLastFrame = 0;
    std::chrono::steady_clock::time_point m_wallStart;
};

} // namespace KWin
