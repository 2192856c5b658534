#include "nodes/relational/band_join.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <string>
#include <vector>

#include "engine/operators/operator.h"
#include "nodes/streams/held_items.h"

namespace isochron {
namespace {

constexpr int kLeft = 0;
constexpr int kRight = 1;
constexpr int kOut = 0;
constexpr int kLate = 1;

/// One side's items that may still find a partner, sorted by time. [engine thread]
class JoinSide {
public:
    void insert(Item&& item) {
        const TimeNs time = item.time();
        const std::uint64_t bytes = approximateBytes(item);
        held_.add(bytes);
        auto at = std::upper_bound(items_.begin(), items_.end(), time, [](TimeNs t, const Entry& e) { return t < e.time; });
        items_.insert(at, Entry{time, bytes, std::move(item)});
    }
    /// Forget every item older than `time` (no future partner can reach it).
    void purgeBefore(TimeNs time) {
        while (!items_.empty() && items_.front().time < time) {
            held_.remove(items_.front().bytes);
            items_.pop_front();
        }
    }
    /// Call `visit(item)` for each held item with time in [from, to], in time order.
    template <class Visit> void forEachBetween(TimeNs from, TimeNs to, Visit&& visit) const {
        auto it = std::lower_bound(items_.begin(), items_.end(), from, [](const Entry& e, TimeNs t) { return e.time < t; });
        for (; it != items_.end() && it->time <= to; ++it) visit(it->item);
    }
    const HeldState& held() const { return held_.state(); }

private:
    struct Entry {
        TimeNs time;
        std::uint64_t bytes;
        Item item;
    };
    std::deque<Entry> items_;
    HeldStateCounter held_;
};

/// Symmetric band join |left.t - right.t| <= band for out-of-order inputs (Li et al. 2008, §5):
/// each arriving item is matched against the other side's held items and then held itself; it is
/// purged once the other side's progress has passed t + band (no future partner can match). The
/// output is not ordered; its progress is min(left, right progress) - band, because a future pair
/// has a member at or after that input's progress and the pair's time is the earlier member's.
/// Each output event carries both members' attributes (prefixed) and `dt_s` = right.t - left.t.
class BandJoin final : public Operator {
public:
    HeldState heldState() const override {
        const HeldState& l = sides_[kLeft].held();
        const HeldState& r = sides_[kRight].held();
        return HeldState{l.items + r.items, l.bytes + r.bytes, l.peakItems + r.peakItems, l.peakBytes + r.peakBytes};
    }

protected:
    void onActivate() override {
        bandNs_ = static_cast<TimeNs>(std::llround(params().getReal("band") * 1e9));
        prefixes_[kLeft] = params().getString("left_prefix");
        prefixes_[kRight] = params().getString("right_prefix");
        if (!(inputPort(kLeft).type == inputPort(kRight).type)) {
            throw OperatorError("left carries " + inputPort(kLeft).type.toString() + " but right carries " + inputPort(kRight).type.toString() +
                                ": both sides need one type (their late items share one output)");
        }
        if (prefixes_[kLeft] == prefixes_[kRight]) throw OperatorError("left_prefix and right_prefix are both '" + prefixes_[kLeft] + "': the members' attributes would collide");
    }

    void process(int inputPort, Item&& item) override {
        const TimeNs time = item.time();
        if (time < inputProgress(inputPort)) [[unlikely]] {
            countLate(inputPort);
            return emit(kLate, std::move(item));
        }
        const Clock& clock = item.range().timebase->clock();
        if (!timebase_) timebase_ = &Timebase::get(1e9, 0, clock);
        else if (&timebase_->clock() != &clock) {
            throw OperatorError("input '" + this->inputPort(inputPort).name + "' is on clock '" + clock.name() + "' but the join runs on '" +
                                timebase_->clock().name() + "': times on different clocks cannot be compared");
        }
        const int other = 1 - inputPort;
        sides_[other].forEachBetween(time - bandNs_, time + bandNs_, [&](const Item& partner) {
            if (inputPort == kLeft) emitPair(item, partner);
            else emitPair(partner, item);
        });
        sides_[inputPort].insert(std::move(item));
        // This side's progress bounds the other side's useful state too (onProgress only runs
        // when the minimum of both rises).
        sides_[other].purgeBefore(saturatingSubtract(inputProgress(inputPort), bandNs_));
    }

    TimeNs onProgress(TimeNs) override {
        const TimeNs leftProgress = inputProgress(kLeft);
        const TimeNs rightProgress = inputProgress(kRight);
        sides_[kLeft].purgeBefore(saturatingSubtract(rightProgress, bandNs_));
        sides_[kRight].purgeBefore(saturatingSubtract(leftProgress, bandNs_));
        return saturatingSubtract(std::min(leftProgress, rightProgress), bandNs_);
    }

    void onFinish() override {
        sides_[kLeft].purgeBefore(kEndOfTime);
        sides_[kRight].purgeBefore(kEndOfTime);
    }

private:
    static TimeNs saturatingSubtract(TimeNs t, TimeNs d) {
        if (t == kEndOfTime) return kEndOfTime;
        return t < kBeginningOfTime + d ? kBeginningOfTime : t - d;
    }

    void emitPair(const Item& left, const Item& right) {
        EventRecord* record = EventRecord::create("pair");
        try {
            copyAttributes(*record, left, prefixes_[kLeft]);
            copyAttributes(*record, right, prefixes_[kRight]);
            record->set("dt_s", static_cast<double>(right.time() - left.time()) / 1e9);
        } catch (const std::length_error&) {
            record->release();
            throw OperatorError("a joined event would have more than " + std::to_string(EventRecord::kMaxAttributes) +
                                " attributes: the members carry too many (drop some upstream)");
        }
        const TimeNs start = std::min(left.time(), right.time());
        const TimeNs end = std::max(left.range().endTime(), right.range().endTime());
        emit(kOut, Item::event(record, SampleRange{timebase_, start, std::max<TimeNs>(end - start, 0)}, left.value()));
    }

    static void copyAttributes(EventRecord& record, const Item& item, const std::string& prefix) {
        if (const EventRecord* member = item.event()) {
            for (const EventAttribute& a : member->attributes()) record.set(prefix + a.name, a.value);
        } else {
            record.set(prefix + "value", item.value());
        }
    }

    TimeNs bandNs_ = 0;
    std::string prefixes_[2];
    JoinSide sides_[2];
    const Timebase* timebase_ = nullptr;
};

}  // namespace

OperatorDescriptor bandJoinDescriptor() {
    OperatorDescriptor d;
    d.typeName = "relational.band_join";
    d.category = "relational";
    d.summary = "Pairs every left and right item whose times differ by at most `band`, in any arrival order";
    d.documentation =
        "Out-of-order band join: an item is matched against the other side's held items at once and held until "
        "the other side's progress passes its time + band, so state stays within the band whatever the skew. "
        "Output (unordered): one event per pair spanning both, with the left attributes prefixed by left_prefix, "
        "the right ones by right_prefix (a scalar contributes `value`), `dt_s` = right − left time, and the left "
        "item's score; progress out is min(left, right) − band. Items older than their input's progress go to `late`.";
    d.inputs = {PortSpec{"left", PortType::any(), "scalars or events, in any order"},
                PortSpec{"right", PortType::any(), "scalars or events, in any order"}};
    d.outputs = {PortSpec{"out", PortType::event(), "one event per matching pair"},
                 PortSpec{"late", PortType::any(), "items older than their input's progress", false, "", "left"}};
    d.params = {
        ParamSpec{"band", ParamKind::Real, 1.0, 0.0, 1e6, "s", "largest time difference of a pair"},
        ParamSpec{"left_prefix", ParamKind::String, std::string("left_"), {}, {}, "", "prefix of the left member's attributes"},
        ParamSpec{"right_prefix", ParamKind::String, std::string("right_"), {}, {}, "", "prefix of the right member's attributes"},
    };
    d.create = [] { return std::make_unique<BandJoin>(); };
    return d;
}

}  // namespace isochron
