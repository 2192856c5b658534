#include "distributed/telemetry_wire.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <type_traits>

namespace isochron::distributed {
namespace {

constexpr std::uint32_t kMagic = 0x31544943;  // "CIT1": a telemetry message, version 1

struct Header {
    std::uint32_t magic = kMagic;
    std::uint32_t nodeCount = 0, outputCount = 0, stateLength = 0;
    std::uint64_t sequence = 0;
    std::int64_t wallNs = 0;
    double elapsedSeconds = 0;
    std::uint64_t liveBytes = 0, liveAllocations = 0, cachedBytes = 0;
};

/// A node's figures without its strings, whose lengths say how many bytes of them follow.
struct NodeWire {
    std::uint64_t calls = 0, itemsIn = 0, itemsOut = 0, samplesIn = 0, samplesOut = 0;
    double costNsPerItem = 0, selectivity = 0;
    std::uint64_t queuedItems = 0, queuedBytes = 0, warnings = 0;
    std::int64_t watermarkNs = 0;
    double skewMs = 0;
    std::uint64_t heldItems = 0, heldBytes = 0;
    std::int32_t rank = 0;
    std::uint8_t failed = 0, finished = 0;
    std::uint32_t idLength = 0, failureLength = 0;
};

static_assert(std::is_trivially_copyable_v<OutputTelemetry>);

template <class T> void append(std::vector<std::byte>& out, const T& value) {
    const std::size_t at = out.size();
    out.resize(at + sizeof(T));
    std::memcpy(out.data() + at, &value, sizeof(T));
}

void appendText(std::vector<std::byte>& out, const std::string& text) {
    const std::size_t at = out.size();
    out.resize(at + text.size());
    if (!text.empty()) std::memcpy(out.data() + at, text.data(), text.size());
}

/// Reads the message in order; throws on reading past its end.
class Reader {
public:
    explicit Reader(std::span<const std::byte> bytes) : bytes_(bytes) {}
    template <class T> T take() {
        T value;
        std::memcpy(&value, at(sizeof(T)), sizeof(T));
        return value;
    }
    void takeText(std::size_t length, std::string& text) { text.assign(reinterpret_cast<const char*>(at(length)), length); }

private:
    const std::byte* at(std::size_t size) {
        if (size > bytes_.size() - used_) throw std::invalid_argument("telemetry message: shorter than its header says");
        const std::byte* p = bytes_.data() + used_;
        used_ += size;
        return p;
    }
    std::span<const std::byte> bytes_;
    std::size_t used_ = 0;
};

}  // namespace

void encodeTelemetry(const TelemetrySnapshot& s, const std::vector<std::string>& nodeIds, std::vector<std::byte>& out) {
    out.clear();
    Header header;
    header.nodeCount = static_cast<std::uint32_t>(std::min(s.nodes.size(), nodeIds.size()));
    header.outputCount = static_cast<std::uint32_t>(s.outputs.size());
    header.stateLength = static_cast<std::uint32_t>(s.engineState.size());
    header.sequence = s.sequence;
    header.wallNs = s.wallNs;
    header.elapsedSeconds = s.elapsedSeconds;
    header.liveBytes = s.liveBytes;
    header.liveAllocations = s.liveAllocations;
    header.cachedBytes = s.cachedBytes;
    append(out, header);
    appendText(out, s.engineState);
    for (std::size_t i = 0; i < header.nodeCount; ++i) {
        const NodeTelemetry& n = s.nodes[i];
        NodeWire wire{n.calls,      n.itemsIn,     n.itemsOut,    n.samplesIn, n.samplesOut, n.costNsPerItem, n.selectivity,
                      n.queuedItems, n.queuedBytes, n.warnings,   n.watermarkNs, n.skewMs,   n.heldItems,     n.heldBytes,
                      n.rank,       n.failed,      n.finished,    static_cast<std::uint32_t>(nodeIds[i].size()),
                      static_cast<std::uint32_t>(n.failure.size())};
        append(out, wire);
        appendText(out, nodeIds[i]);
        appendText(out, n.failure);
    }
    for (const OutputTelemetry& o : s.outputs) append(out, o);
}

void decodeTelemetry(std::span<const std::byte> bytes, TelemetrySnapshot& s) {
    Reader in(bytes);
    const auto header = in.take<Header>();
    if (header.magic != kMagic) throw std::invalid_argument("telemetry message: not one (wrong magic number)");
    s.sequence = header.sequence;
    s.wallNs = header.wallNs;
    s.elapsedSeconds = header.elapsedSeconds;
    s.liveBytes = header.liveBytes;
    s.liveAllocations = header.liveAllocations;
    s.cachedBytes = header.cachedBytes;
    in.takeText(header.stateLength, s.engineState);
    s.nodes.resize(header.nodeCount);
    for (NodeTelemetry& n : s.nodes) {
        const auto wire = in.take<NodeWire>();
        n.calls = wire.calls;
        n.itemsIn = wire.itemsIn;
        n.itemsOut = wire.itemsOut;
        n.samplesIn = wire.samplesIn;
        n.samplesOut = wire.samplesOut;
        n.costNsPerItem = wire.costNsPerItem;
        n.selectivity = wire.selectivity;
        n.queuedItems = wire.queuedItems;
        n.queuedBytes = wire.queuedBytes;
        n.warnings = wire.warnings;
        n.watermarkNs = wire.watermarkNs;
        n.skewMs = wire.skewMs;
        n.heldItems = wire.heldItems;
        n.heldBytes = wire.heldBytes;
        n.rank = wire.rank;
        n.failed = wire.failed != 0;
        n.finished = wire.finished != 0;
        in.takeText(wire.idLength, n.id);
        in.takeText(wire.failureLength, n.failure);
    }
    s.outputs.resize(header.outputCount);
    for (OutputTelemetry& o : s.outputs) {
        o = in.take<OutputTelemetry>();
        if (o.node < 0 || o.node >= static_cast<int>(header.nodeCount)) throw std::invalid_argument("telemetry message: an output of a node it does not list");
    }
    s.queues.clear();
    s.ranks.clear();
}

}  // namespace isochron::distributed
