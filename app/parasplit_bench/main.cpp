// isochron-parasplit-bench: the rate of one parallel.split (one window splitter of the parasplit
// paper) in one process, and the number of splitters p its heuristic chooses for a desired rate.
//   isochron-parasplit-bench [DESIRED_SAMPLES_PER_S [DESIRED_EVENTS_PER_S [REPEATS]]]   (--help: usage)
// For each routing it runs a cheap source into q = 4 null sinks through the split, and the same
// source straight into one null sink; the split's cost is the difference in the engine thread's CPU
// time (best of REPEATS runs of each, interleaved), its rate the items it routed per second of that cost. p = ceil(desired / rate) (the paper's
// equation 6: enough splitters that together they keep up with the desired input rate).
#include <algorithm>
#include <ctime>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/graph/graph_file.h"
#include "engine/runtime/engine.h"
#include "nodes/register_builtin_nodes.h"

using namespace isochron;

namespace {

constexpr std::int64_t kSegmentSamples = 4096;
constexpr int kKeys = 64;

/// Emits `count` consecutive 4096-sample segments (all sharing one block's samples: no copy) or `count` events with
/// a "key" attribute cycling through kKeys values, one millisecond apart.
class BenchSource final : public Operator {
public:
    explicit BenchSource(bool events) : events_(events) {}

protected:
    void onActivate() override {
        remaining_ = params().getInt("count");
        std::vector<float> samples(kSegmentSamples);
        for (std::size_t i = 0; i < samples.size(); ++i) samples[i] = static_cast<float>(i % 97) / 97.0f;
        block_ = SigSeg<float>::copyOf(samples, 0, &Timebase::get(48000.0));
    }
    SourceStatus onProduce() override {
        const Timebase* timebase = &Timebase::get(48000.0);
        for (std::int64_t i = 0; i < productionBudget() && remaining_ > 0 && admissionOpen(); ++i, --remaining_) {
            if (events_) {
                EventRecord* record = EventRecord::create("hit");
                record->set("key", static_cast<double>(next_ % kKeys));
                emit(0, Item::event(record, SampleRange{timebase, next_ * 48, 48}, 1.0));
                ++next_;
            } else {
                emit(0, Item::signal(SigSeg<float>::wrap(block_.list()->piece(0).block, 0, kSegmentSamples, next_ * kSegmentSamples, timebase)));
                ++next_;
            }
        }
        return remaining_ > 0 ? SourceStatus::produced() : SourceStatus::finished();
    }

private:
    bool events_;
    std::int64_t remaining_ = 0;
    std::int64_t next_ = 0;
    SigSeg<float> block_;  // the samples every segment shares
};

/// CPU time of this thread (the engine runs the graph on it): a shared, loaded machine delays the
/// run but barely changes this.
double threadCpuSeconds() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

OperatorRegistry& registry() {
    static OperatorRegistry r = [] {
        OperatorRegistry built;
        registerBuiltinNodes(built);
        for (const bool events : {false, true}) {
            OperatorDescriptor d;
            d.typeName = events ? "bench.events" : "bench.segments";
            d.category = "bench";
            d.summary = events ? "Keyed events, as fast as asked" : "Consecutive 4096-sample segments, as fast as asked";
            d.outputs = {PortSpec{"out", events ? PortType::event() : PortType::signal(SampleType::Float32), ""}};
            d.params = {ParamSpec{"count", ParamKind::Int, std::int64_t{1}, 1.0, 1e12, "items", "how many"}};
            d.create = [events] { return std::make_unique<BenchSource>(events); };
            built.add(std::move(d));
        }
        return built;
    }();
    return r;
}

/// CPU seconds to run `source` (count items) into a split with `splitParams` and 4 null sinks, or
/// straight into one null sink when splitParams is empty.
double runSeconds(const std::string& source, std::int64_t count, const std::string& splitParams) {
    std::string json = R"({"format": "isochron-graph/1", "nodes": [{"id": "source", "type": ")" + source + R"(", "params": {"count": )" +
                       std::to_string(count) + "}},";
    if (splitParams.empty()) {
        json += R"({"id": "sink", "type": "io.null_sink"}], "edges": [{"from": "source.out", "to": "sink.in"}]})";
    } else {
        json += R"({"id": "split", "type": "parallel.split", "params": {"outputs": 4, )" + splitParams + "}}";
        std::string edges = R"({"from": "source.out", "to": "split.in"})";
        for (int k = 0; k < 4; ++k) {
            json += R"(, {"id": "sink)" + std::to_string(k) + R"(", "type": "io.null_sink"})";
            edges += R"(, {"from": "split.out)" + std::to_string(k) + R"(", "to": "sink)" + std::to_string(k) + R"(.in"})";
        }
        json += "], \"edges\": [" + edges + "]}";
    }
    const ValidatedGraph graph = validateGraph(parseGraph(json), registry());
    {
        Engine engine(graph, SchedulerSpec{});
        const double start = threadCpuSeconds();
        const RunOutcome outcome = engine.run();
        const double seconds = threadCpuSeconds() - start;
        if (!outcome.completed || !outcome.failures.empty()) {
            std::fprintf(stderr, "isochron-parasplit-bench: run failed: %s\n", outcome.failures.empty() ? "not completed" : outcome.failures.front().c_str());
            std::exit(1);
        }
        return seconds;
    }
}

const char* kUsage = R"(Usage: isochron-parasplit-bench [DESIRED_SAMPLES_PER_S [DESIRED_EVENTS_PER_S [REPEATS]]]

Measures one parallel.split's own rate (q = 4, per routing) in one process, as the engine thread's CPU
time with the split minus without it, and prints the number of splitters p = ceil(desired / rate)
its heuristic chooses for the desired input rate (the parasplit paper's equation 6; docs/scale-out.md).

  DESIRED_SAMPLES_PER_S  desired rate of the signal routings, > 0 (default 0.8e9: one MPI channel's
                         rate on the machine of BENCHMARKS.md)
  DESIRED_EVENTS_PER_S   desired rate of by_key routing, > 0 (default 1e7)
  REPEATS                runs of each case, the best kept, 1-1000 (default 7)
  -h, --help             this text
)";

/// `text` read whole as a number > 0; else nothing.
std::optional<double> positiveNumber(const std::string& text) {
    std::size_t used = 0;
    double value = 0;
    try {
        value = std::stod(text, &used);
    } catch (const std::exception&) {
        return std::nullopt;
    }
    if (used != text.size() || !(value > 0) || !std::isfinite(value)) return std::nullopt;
    return value;
}

/// The command line: desired rates and repeats. Throws std::invalid_argument naming the argument refused.
struct Arguments {
    double desiredSamples = 0.8e9;  // one MPI channel's rate on this machine
    double desiredEvents = 10e6;
    int repeats = 7;
    bool help = false;

    static Arguments parse(int argc, char** argv) {
        Arguments arguments;
        std::vector<std::string> numbers;
        for (int i = 1; i < argc; ++i) {
            const std::string_view arg = argv[i];
            if (arg == "-h" || arg == "--help") arguments.help = true;
            else if (arg.starts_with("--")) throw std::invalid_argument("unknown option '" + std::string(arg) + "'");
            else numbers.emplace_back(arg);
        }
        if (numbers.size() > 3) throw std::invalid_argument("at most three numbers are taken, got " + std::to_string(numbers.size()));
        const char* names[] = {"DESIRED_SAMPLES_PER_S", "DESIRED_EVENTS_PER_S", "REPEATS"};
        for (std::size_t i = 0; i < numbers.size(); ++i) {
            const std::optional<double> value = positiveNumber(numbers[i]);
            const bool whole = value && i == 2 ? *value == std::floor(*value) && *value <= 1000 : true;
            if (!value || !whole) {
                throw std::invalid_argument(std::string(names[i]) + " needs " + (i == 2 ? "a whole number from 1 to 1000" : "a number > 0") +
                                            ", got '" + numbers[i] + "'");
            }
            if (i == 0) arguments.desiredSamples = *value;
            if (i == 1) arguments.desiredEvents = *value;
            if (i == 2) arguments.repeats = static_cast<int>(*value);
        }
        return arguments;
    }
};

}  // namespace

int main(int argc, char** argv) {
    Arguments arguments;
    try {
        arguments = Arguments::parse(argc, argv);
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "isochron-parasplit-bench: %s (try --help)\n", e.what());
        return 1;
    }
    if (arguments.help) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    const double desiredSamples = arguments.desiredSamples;
    const double desiredEvents = arguments.desiredEvents;
    const int repeats = arguments.repeats;
    struct Case {
        const char* name;
        const char* source;
        std::int64_t count;
        const char* splitParams;
        double desired;
        const char* unit;
        double perItem;  // what one item counts in the rate's unit
    };
    const Case cases[] = {
        {"round_robin, window 4096", "bench.segments", 300000, R"("routing": "round_robin", "window": 4096)", desiredSamples, "samples", kSegmentSamples},
        {"round_robin, window 16384", "bench.segments", 300000, R"("routing": "round_robin", "window": 16384)", desiredSamples, "samples", kSegmentSamples},
        {"overlap, window 16384 + 1022", "bench.segments", 300000, R"("routing": "overlap", "window": 16384, "overlap": 1022)", desiredSamples, "samples",
         kSegmentSamples},
        {"by_key (64 keys)", "bench.events", 3000000, R"("routing": "by_key", "key": "key")", desiredEvents, "events", 1},
    };
    std::printf("%-30s %10s %10s %10s %14s %14s %4s\n", "split (q = 4)", "source s", "+ split s", "ns/item", "split rate /s", "desired /s", "p");
    for (const Case& c : cases) {
        // Interleaved, so that a busy moment of the shared machine hits both sides alike.
        double base = 1e300, split = 1e300;
        for (int r = 0; r < repeats; ++r) {
            base = std::min(base, runSeconds(c.source, c.count, ""));
            split = std::min(split, runSeconds(c.source, c.count, c.splitParams));
        }
        const double units = static_cast<double>(c.count) * c.perItem;
        const double rate = units / std::max(split - base, 1e-9);
        const int p = std::max(1, static_cast<int>(std::ceil(c.desired / rate)));
        std::printf("%-30s %10.4f %10.4f %10.1f %14.3g %14.3g %4d\n", c.name, base, split, 1e9 * (split - base) / static_cast<double>(c.count), rate,
                    c.desired, p);
    }
    return 0;
}
