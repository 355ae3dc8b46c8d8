#include "probe.h"

namespace KWin
{
class InnerProbe : public ProbeEffect
{
    Q_OBJECT
public:
    InnerProbe() : ProbeEffect(false) {}
};
KWIN_EFFECT_FACTORY(InnerProbe, "inner.json")
} // namespace KWin

#include "inner.moc"
