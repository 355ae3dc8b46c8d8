#include "probe.h"

#include <QCoreApplication>
#include <QVariant>

#include <cstdio>
#include <ctime>

namespace KWin
{

namespace
{
/// Where the inner probe leaves its frame's figures for the outer one (both live in KWin's process).
const char *kInnerProperty = "segueProbeInner";
} // namespace

ProbeEffect::ProbeEffect(bool outer)
    : m_outer(outer)
{
}

int64_t ProbeEffect::now()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

void ProbeEffect::prePaintScreen(ScreenPrePaintData &data, std::chrono::milliseconds presentTime)
{
    m_frame = Passes{};
    m_frameStart = now();
    timespec process{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &process);
    const int64_t processNow = int64_t(process.tv_sec) * 1000000000 + process.tv_nsec;
    m_processSinceLastFrame = processNow - m_processAtLastFrame;
    m_processAtLastFrame = processNow;
    m_wallStart = std::chrono::steady_clock::now();
    effects->prePaintScreen(data, presentTime);
    m_frame.prePaintScreen += now() - m_frameStart;
}

void ProbeEffect::prePaintWindow(EffectWindow *w, WindowPrePaintData &data, std::chrono::milliseconds presentTime)
{
    const int64_t start = now();
    effects->prePaintWindow(w, data, presentTime);
    m_frame.prePaintWindow += now() - start;
}

void ProbeEffect::paintScreen(int mask, const QRegion &region, ScreenPaintData &data)
{
    const int64_t start = now();
    effects->paintScreen(mask, region, data);
    m_frame.paintScreen += now() - start;
}

void ProbeEffect::paintWindow(EffectWindow *w, int mask, QRegion region, WindowPaintData &data)
{
    const int64_t start = now();
    effects->paintWindow(w, mask, region, data);
    m_frame.paintWindow += now() - start;
}

void ProbeEffect::drawWindow(EffectWindow *w, int mask, const QRegion &region, WindowPaintData &data)
{
    const int64_t start = now();
    effects->drawWindow(w, mask, region, data);
    m_frame.drawWindow += now() - start;
}

void ProbeEffect::postPaintWindow(EffectWindow *w)
{
    const int64_t start = now();
    effects->postPaintWindow(w);
    m_frame.postPaintWindow += now() - start;
}

void ProbeEffect::postPaintScreen()
{
    const int64_t start = now();
    effects->postPaintScreen();
    const int64_t end = now();
    m_frame.postPaintScreen += end - start;
    const Passes &p = m_frame;
    if (!m_outer) {
        // Beneath every effect: KWin's own work in each pass, and its drawing of each window.
        const QVariantList figures{qlonglong(p.prePaintScreen), qlonglong(p.prePaintWindow), qlonglong(p.paintScreen),
                                   qlonglong(p.drawWindow), qlonglong(p.postPaintWindow), qlonglong(p.postPaintScreen)};
        qApp->setProperty(kInnerProperty, figures);
        return;
    }
    const QVariantList inner = qApp->property(kInnerProperty).toList();
    qApp->setProperty(kInnerProperty, QVariant());
    if (inner.size() != 6) {
        return; // the inner probe is not loaded
    }
    auto at = [&](int i) { return inner[i].toLongLong(); };
    // The effects' own work: each pass as the outer probe saw it less what lay beneath them. A window's paint
    // pass holds its draw pass (each effect's part included) and, beneath them all, KWin drawing it.
    const int64_t effects = (p.prePaintScreen - at(0)) + (p.prePaintWindow - at(1)) + (p.paintScreen - at(2)) + (p.paintWindow - at(3))
        + (p.postPaintWindow - at(4)) + (p.postPaintScreen - at(5));
    const auto wall = std::chrono::steady_clock::now() - m_wallStart;
    timespec mono{};
    clock_gettime(CLOCK_MONOTONIC, &mono);
    std::fprintf(stderr,
                 "segueprobe: frame at %.3f ms: %.1f us of CPU, %.1f us of wall time, the effects' own %.1f us; "
                 "the process %.1f us since the last frame\n",
                 mono.tv_sec * 1000.0 + mono.tv_nsec / 1e6, (end - m_frameStart) / 1000.0,
                 std::chrono::duration<double, std::micro>(wall).count(), effects / 1000.0, m_processSinceLastFrame / 1000.0);
}

} // namespace KWin
