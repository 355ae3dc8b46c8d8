#include "probe.h"

namespace KWin
{
class OuterProbe : public ProbeEffect
{
    Q_OBJECT
public:
    OuterProbe() : ProbeEffect(true) {}
};
KWIN_EFFECT_FACTORY(OuterProbe, "outer.json")
} // namespace KWin

#include "outer.moc"
