// A wire tap: an observer of what one output port sends, attached to a graph while it runs.
//
// The editor's probes must appear and disappear on a running graph without a restart (a restart
// replays the input from the start). A tap is not an operator: it has no ports, is never scheduled
// and sees each data item the port routes, by reference, before the item's targets get it. It runs
// inside the emitting operator's emit(), on the engine thread, so it must copy what it needs into
// its own wait-free structure and return; it must not throw, block or allocate.
// Engine::setTap attaches and detaches taps between items; an untapped port costs one pointer test
// per item.
#pragma once

namespace isochron {

class Item;

/// Observer of the data items one output port sends (progress markers are not shown).
class WireTap {
public:
    virtual ~WireTap() = default;
    /// One data item the port sends, before its targets receive it. [engine thread] [no allocation]
    virtual void observe(const Item& item) noexcept = 0;
};

}  // namespace isochron
