#include "nodes/relational/window_aggregate.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <deque>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/operators/operator.h"
#include "nodes/relational/item_fields.h"
#include "nodes/streams/late_check.h"

namespace isochron {
namespace {

constexpr int kOut = 0;
constexpr int kLate = 1;
constexpr std::size_t kMaxBins = 12;  // + count + group within an event record's 14 attributes

enum class Function { Count, Sum, Min, Max, Mean, Histogram };

Function functionNamed(const std::string& name) {
    if (name == "sum") return Function::Sum;
    if (name == "min") return Function::Min;
    if (name == "max") return Function::Max;
    if (name == "mean") return Function::Mean;
    if (name == "histogram") return Function::Histogram;
    return Function::Count;
}

/// The partial aggregate of one window (and group): enough for every function. [value type]
struct Partial {
    std::uint64_t count = 0;
    double sum = 0;
    double min = std::numeric_limits<double>::infinity();
    double max = -std::numeric_limits<double>::infinity();
    std::array<std::uint64_t, kMaxBins> bins{};
};

/// WID (window-id) aggregation (Li et al., "Semantics and evaluation techniques for window
/// aggregates in data streams", 2005; "Out-of-order processing", 2008). Windows are [k·slide,
/// k·slide + range) on the items' clock; an item updates the partial aggregate of every window id
/// it falls in, whatever order items come in; a window is emitted and forgotten when progress passes
/// its end. State is one partial aggregate per open window (and group), never the items themselves,
/// so memory does not grow with disorder or skew. Windows are emitted in window order; each output
/// event spans its window on a nanosecond timebase of the items' clock.
class WindowAggregate final : public Operator {
public:
    HeldState heldState() const override {
        const std::uint64_t open = grouped_ ? groupedWindows_.size() : windows_.size();
        HeldState state = peak_;
        state.items = open;
        state.bytes = open * kPartialBytes;
        return state;
    }

protected:
    void onActivate() override {
        if (inputPort(0).type.carriesSamples()) {
            throw OperatorError("input 'in' carries " + inputPort(0).type.toString() +
                                ": windows aggregate scalars or events (reduce the signal to scalars or events first)");
        }
        rangeNs_ = static_cast<TimeNs>(std::llround(params().getReal("range") * 1e9));
        const double slide = params().getReal("slide");
        slideNs_ = slide > 0 ? static_cast<TimeNs>(std::llround(slide * 1e9)) : rangeNs_;
        if (slideNs_ > rangeNs_) throw OperatorError("slide (" + paramValueToText(slide) + " s) is longer than range: items between windows would be lost");
        function_ = functionNamed(params().getString("function"));
        field_ = params().getString("field");
        groupBy_ = params().getString("group_by");
        grouped_ = !groupBy_.empty();
        edges_ = params().getRealList("bins");
        if (function_ == Function::Histogram) {
            if (edges_.size() < 2 || edges_.size() > kMaxBins + 1) {
                throw OperatorError("bins needs 2 to " + std::to_string(kMaxBins + 1) + " edges for a histogram, got " + std::to_string(edges_.size()));
            }
            if (!std::is_sorted(edges_.begin(), edges_.end())) throw OperatorError("bins must be increasing edges");
        }
        if (function_ != Function::Count && field_.empty()) throw OperatorError("function '" + params().getString("function") + "' needs a field");
        binNames_.clear();
        for (std::size_t b = 0; b + 1 < edges_.size(); ++b) binNames_.push_back(internName("bin" + std::to_string(b)));
        functionName_ = internName(params().getString("function"));
    }

    // The per-item path is kept small (a count over one open window is a few instructions); what
    // only some items or some configurations need is out of line.
    void process(int inputPort, Item&& item) override {
        if (lateCheck_.isLate(item, inputProgress(inputPort))) [[unlikely]] return emitLate(inputPort, std::move(item));
        double value = 0;
        double group = 0;
        if (!field_.empty() || grouped_) [[unlikely]] {
            if (!readFields(item, value, group)) return;
        }
        const SampleRange range = item.range();
        if (range.timebase != slot_.timebase || range.start < slot_.firstIndex || range.start >= slot_.endIndex) [[unlikely]] {
            enterSlot(item);
        }
        for (std::int64_t k = std::max(slot_.firstWindow, nextToClose_); k <= slot_.lastWindow; ++k) add(partialFor(k, group), value);
    }

    TimeNs onProgress(TimeNs inputProgress) override {
        closeUpTo(inputProgress);
        return nextToClose_ == kNoWindow ? inputProgress : windowStart(nextToClose_);
    }

    void onFinish() override {
        closeUpTo(kEndOfTime);
        if (missingWarned_ > 1) warn(std::to_string(missingWarned_) + " items in all lacked the field and were skipped");
    }

private:
    static constexpr std::int64_t kNoWindow = std::numeric_limits<std::int64_t>::min();
    static constexpr std::uint64_t kPartialBytes = sizeof(Partial) + 2 * sizeof(void*);

    static std::int64_t floorDiv(TimeNs a, TimeNs b) {
        const std::int64_t q = a / b;
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
    }
    TimeNs windowStart(std::int64_t k) const { return k * slideNs_; }

    [[gnu::noinline]] void emitLate(int inputPort, Item&& item) {
        countLate(inputPort);
        emit(kLate, std::move(item));
    }

    /// The aggregated field and the group of `item`; false (after a warning) when one is missing.
    [[gnu::noinline]] bool readFields(const Item& item, double& value, double& group) {
        if (!field_.empty()) {
            const auto v = itemField(item, field_);
            if (!v) {
                warnMissing(field_, item);
                return false;
            }
            value = *v;
        }
        if (grouped_) {
            const auto g = itemField(item, groupBy_);
            if (!g) {
                warnMissing(groupBy_, item);
                return false;
            }
            group = *g;
        }
        return true;
    }

    /// The window ids of `item`: k with k·slide <= time < k·slide + range. They are the same for every
    /// time in the item's slide slot [j·slide, (j+1)·slide) when range is a whole number of slides,
    /// so the slot is remembered in the item's sample indices and later items of it skip the division.
    [[gnu::noinline]] void enterSlot(const Item& item) {
        const TimeNs time = item.time();
        const Timebase& timebase = *item.range().timebase;
        if (!timebase_) timebase_ = &Timebase::get(1e9, 0, timebase.clock());
        slot_.lastWindow = floorDiv(time, slideNs_);
        slot_.firstWindow = floorDiv(time - rangeNs_, slideNs_) + 1;
        slot_.timebase = &timebase;
        if (rangeNs_ % slideNs_ == 0) {
            slot_.firstIndex = timebase.firstIndexAtOrAfter(slot_.lastWindow * slideNs_);
            slot_.endIndex = timebase.firstIndexAtOrAfter((slot_.lastWindow + 1) * slideNs_);
        } else {
            slot_.firstIndex = slot_.endIndex = item.range().start;  // no reuse: each item computes its own
            ++slot_.endIndex;
            slot_.timebase = nullptr;
        }
    }

    Partial& partialFor(std::int64_t k, double group) {
        if (grouped_) return groupedPartialFor(k, group);
        // Consecutive items mostly fall in the same window: remember where its partial is (a deque
        // keeps references to its elements when others are added at either end).
        if (k == recentWindow_) [[likely]] return *recentPartial_;
        const std::int64_t open = static_cast<std::int64_t>(windows_.size());
        Partial& partial = k >= base_ && k - base_ < open ? windows_[static_cast<std::size_t>(k - base_)] : openPartialFor(k);
        recentWindow_ = k;
        recentPartial_ = &partial;
        return partial;
    }

    [[gnu::noinline]] Partial& groupedPartialFor(std::int64_t k, double group) {
        auto [it, inserted] = groupedWindows_.try_emplace(GroupKey{k, group});
        if (inserted) notePeak(groupedWindows_.size());
        lowestOpen_ = std::min(lowestOpen_, k);
        return it->second;
    }

    /// Opens windows up to `k` (ungrouped) and returns its partial aggregate.
    [[gnu::noinline]] Partial& openPartialFor(std::int64_t k) {
        if (windows_.empty()) base_ = k;
        while (k < base_) {
            windows_.emplace_front();
            --base_;
        }
        while (k >= base_ + static_cast<std::int64_t>(windows_.size())) windows_.emplace_back();
        notePeak(windows_.size());
        return windows_[static_cast<std::size_t>(k - base_)];
    }

    void add(Partial& p, double value) {
        ++p.count;
        p.sum += value;
        p.min = std::min(p.min, value);
        p.max = std::max(p.max, value);
        if (function_ == Function::Histogram) [[unlikely]] addToHistogram(p, value);
    }

    [[gnu::noinline]] void addToHistogram(Partial& p, double value) const {
        const auto upper = std::upper_bound(edges_.begin(), edges_.end(), value);
        if (upper != edges_.begin() && upper != edges_.end()) ++p.bins[static_cast<std::size_t>(upper - edges_.begin() - 1)];
        else if (value == edges_.back()) ++p.bins[edges_.size() - 2];  // the last bin includes its upper edge
    }

    /// Emit and drop every window whose end is at or before `progress`, in window order.
    void closeUpTo(TimeNs progress) {
        // The first window still open after this progress: the smallest k with k·slide + range > progress.
        const std::int64_t limit = progress == kEndOfTime ? std::numeric_limits<std::int64_t>::max()
                                                          : floorDiv(progress - rangeNs_, slideNs_) + 1;
        if (grouped_) closeGroupedBefore(limit);
        else {
            while (!windows_.empty() && base_ < limit) {
                if (windows_.front().count > 0) emitWindow(base_, windows_.front(), std::nullopt);
                if (base_ == recentWindow_) recentWindow_ = kNoWindow;
                windows_.pop_front();
                ++base_;
            }
        }
        if (limit != std::numeric_limits<std::int64_t>::max()) nextToClose_ = std::max(nextToClose_, limit);
    }

    void closeGroupedBefore(std::int64_t limit) {
        if (groupedWindows_.empty() || lowestOpen_ >= limit) return;
        closing_.clear();
        for (const auto& [key, partial] : groupedWindows_) {
            if (key.window < limit) closing_.push_back(key);
        }
        std::sort(closing_.begin(), closing_.end(), [](const GroupKey& a, const GroupKey& b) {
            return a.window != b.window ? a.window < b.window : a.group < b.group;
        });
        for (const GroupKey& key : closing_) {
            auto it = groupedWindows_.find(key);
            emitWindow(key.window, it->second, key.group);
            groupedWindows_.erase(it);
        }
        lowestOpen_ = std::numeric_limits<std::int64_t>::max();
        for (const auto& [key, partial] : groupedWindows_) lowestOpen_ = std::min(lowestOpen_, key.window);
    }

    void emitWindow(std::int64_t k, const Partial& p, std::optional<double> group) {
        EventRecord* record = EventRecord::create("window");
        record->set("count", static_cast<double>(p.count));
        switch (function_) {
            case Function::Count: break;
            case Function::Sum: record->set(functionName_, p.sum); break;
            case Function::Min: record->set(functionName_, p.min); break;
            case Function::Max: record->set(functionName_, p.max); break;
            case Function::Mean: record->set(functionName_, p.sum / static_cast<double>(p.count)); break;
            case Function::Histogram:
                for (std::size_t b = 0; b < binNames_.size(); ++b) record->set(binNames_[b], static_cast<double>(p.bins[b]));
                break;
        }
        if (group) record->set("group", *group);
        const double score = function_ == Function::Count || function_ == Function::Histogram ? static_cast<double>(p.count)
                             : function_ == Function::Sum                                    ? p.sum
                             : function_ == Function::Min                                    ? p.min
                             : function_ == Function::Max                                    ? p.max
                                                                                             : p.sum / static_cast<double>(p.count);
        emit(kOut, Item::event(record, SampleRange{timebase_, windowStart(k), rangeNs_}, score));
    }

    void warnMissing(const std::string& name, const Item& item) {
        if (missingWarned_++ == 0) {
            warn("an item has no field '" + name + "' (it has: " + itemFieldNames(item) + "): it is skipped (the total is reported at the end)");
        }
    }

    void notePeak(std::size_t open) {
        peak_.peakItems = std::max<std::uint64_t>(peak_.peakItems, open);
        peak_.peakBytes = peak_.peakItems * kPartialBytes;
    }

    struct GroupKey {
        std::int64_t window;
        double group;
        bool operator==(const GroupKey&) const = default;
    };
    struct GroupKeyHash {
        std::size_t operator()(const GroupKey& key) const {
            return std::hash<std::int64_t>()(key.window) * 31 + std::hash<double>()(key.group);
        }
    };

    TimeNs rangeNs_ = 0;
    TimeNs slideNs_ = 0;
    Function function_ = Function::Count;
    const char* functionName_ = nullptr;
    std::string field_;
    std::string groupBy_;
    bool grouped_ = false;
    std::vector<double> edges_;
    std::vector<const char*> binNames_;
    const Timebase* timebase_ = nullptr;
    struct Slot {
        const Timebase* timebase = nullptr;  ///< the items' timebase (null: recompute for every item)
        std::int64_t firstIndex = 0, endIndex = 0;  ///< sample indices of the slot on that timebase
        std::int64_t firstWindow = 0, lastWindow = -1;  ///< window ids every time in the slot falls in
    } slot_;
    LateCheck lateCheck_;
    std::int64_t nextToClose_ = kNoWindow;  ///< windows below this id are closed
    std::int64_t base_ = 0;                 ///< window id of windows_.front()
    std::deque<Partial> windows_;           ///< ungrouped: one partial per window id from base_
    std::int64_t recentWindow_ = kNoWindow;  ///< ungrouped: the window partialFor() found last...
    Partial* recentPartial_ = nullptr;       ///< ...and its partial in windows_
    std::unordered_map<GroupKey, Partial, GroupKeyHash> groupedWindows_;
    std::int64_t lowestOpen_ = std::numeric_limits<std::int64_t>::max();
    std::vector<GroupKey> closing_;
    HeldState peak_;
    std::uint64_t missingWarned_ = 0;
};

}  // namespace

OperatorDescriptor windowAggregateDescriptor() {
    OperatorDescriptor d;
    d.typeName = "relational.window_aggregate";
    d.category = "relational";
    d.summary = "Count, sum, min, max, mean or histogram over tumbling or sliding time windows, in any arrival order";
    d.documentation =
        "WID window aggregation: windows [k·slide, k·slide + range) on the items' clock (slide 0: tumbling). Each "
        "item updates the partial aggregate of every window it falls in, whatever order items arrive in; a window "
        "is emitted when progress passes its end (only windows that saw an item), then forgotten. Output: one event "
        "per window (and group) spanning it, with `count` and the chosen function (`sum`, `min`, `max`, `mean`, or "
        "`bin0`… for a histogram over the `bins` edges), plus `group` when grouped. `field` is `value` (a scalar's "
        "value, an event's score) or an event attribute. Items older than the input's progress go to `late`.";
    d.inputs = {PortSpec{"in", PortType::any(), "scalars or events, in any order"}};
    d.outputs = {PortSpec{"out", PortType::event(), "one event per closed, non-empty window (and group)"},
                 PortSpec{"late", PortType::any(), "items older than the input's progress", false, "", "in"}};
    d.params = {
        ParamSpec{"range", ParamKind::Real, 10.0, 1e-6, 1e7, "s", "window length"},
        ParamSpec{"slide", ParamKind::Real, 0.0, 0.0, 1e7, "s", "distance between window starts (0: = range, tumbling)"},
        ParamSpec{"function", ParamKind::Choice, std::string("count"), {}, {}, "", "what to compute per window",
                  {"count", "sum", "min", "max", "mean", "histogram"}},
        ParamSpec{"field", ParamKind::String, std::string(""), {}, {}, "", "the value aggregated: 'value' (a scalar's value, an event's score) or a numeric event attribute (count: unused)"},
        ParamSpec{"group_by", ParamKind::String, std::string(""), {}, {}, "", "aggregate per distinct value of this numeric field ('value' or an event attribute; output attribute 'group'; empty: no groups)"},
        ParamSpec{"bins", ParamKind::RealList, std::vector<double>{}, {}, {}, "", "histogram: increasing bin edges (2 to 13)"},
    };
    d.create = [] { return std::make_unique<WindowAggregate>(); };
    return d;
}

}  // namespace isochron
