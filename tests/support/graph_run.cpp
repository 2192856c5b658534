#include "tests/support/graph_run.h"

#include <cmath>

#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"

namespace isochron::test {

RunOutcome runGraph(const std::string& graphJson, const std::string& scheduler, const std::vector<std::string>& overrides) {
    GraphSpec spec = parseGraph(graphJson);
    for (const auto& o : overrides) setParameterFromText(spec, testRegistry(), o);
    ValidatedGraph graph = validateGraph(spec, testRegistry());
    Engine engine(graph, parseSchedulerText(scheduler));
    return engine.run();
}

std::vector<std::string> schedulerMatrix() {
    return {"fifo", "fifo-slice", "fifo-slice:slice_us=0.5", "rtc", "df",
            "fifo:burst=1", "fifo-slice:burst=3", "rtc:burst=2", "df:burst=1", "df:burst=7",
            "rr", "rr:train=1", "rr:train_fraction=0.5,burst=2", "superbox-mc", "superbox-ml", "superbox-mm",
            "superbox-mc:workers=2", "superbox-ml:workers=3,burst=1", "qos", "qos:train=1", "qos-bucket",
            "qos-bucket:gradient_buckets=1,slack_buckets=1,train=2"};
}

std::vector<float> samplesOf(const Item& item) {
    std::vector<float> out;
    const SegmentHandle& seg = item.segment();
    switch (seg.sampleType()) {
        case SampleType::Float32:
            for (float v : item.signal<float>()) out.push_back(v);
            break;
        case SampleType::Float64:
            for (double v : item.signal<double>()) out.push_back(static_cast<float>(v));
            break;
        case SampleType::Int16:
            for (std::int16_t v : item.signal<std::int16_t>()) out.push_back(static_cast<float>(v));
            break;
        case SampleType::ComplexFloat32:
            for (auto v : item.signal<std::complex<float>>()) {
                out.push_back(v.real());
                out.push_back(v.imag());
            }
            break;
        case SampleType::None:
            break;
    }
    return out;
}

bool sameData(const Item& a, const Item& b, std::string* why) {
    auto fail = [&](const std::string& reason) {
        if (why) *why = reason;
        return false;
    };
    if (a.kind() != b.kind()) return fail("kinds differ");
    if (!(a.range() == b.range())) return fail("ranges differ");
    if (a.kind() == ItemKind::Signal || a.kind() == ItemKind::Frame) {
        if (a.sampleType() != b.sampleType()) return fail("sample types differ");
        if (a.segment().startIndex() != b.segment().startIndex() || a.segment().length() != b.segment().length()) {
            return fail("segment extents differ");
        }
        auto sa = samplesOf(a);
        auto sb = samplesOf(b);
        for (std::size_t i = 0; i < sa.size(); ++i) {
            if (!(sa[i] == sb[i]) && !(std::isnan(sa[i]) && std::isnan(sb[i]))) {
                return fail("sample " + std::to_string(i) + " differs");
            }
        }
    }
    if (a.kind() == ItemKind::Scalar || a.kind() == ItemKind::Event) {
        if (!(a.value() == b.value())) return fail("values differ");
    }
    if (a.kind() == ItemKind::Event) {
        auto ea = a.event()->attributes();
        auto eb = b.event()->attributes();
        if (std::string(a.event()->label()) != b.event()->label() || ea.size() != eb.size()) return fail("events differ");
        for (std::size_t i = 0; i < ea.size(); ++i) {
            if (std::string(ea[i].name) != eb[i].name || !(ea[i].value == eb[i].value)) return fail("event attributes differ");
        }
    }
    return true;
}

SigSeg<float> makeSignal(const std::vector<float>& samples, std::int64_t startIndex, const Timebase& timebase) {
    return SigSeg<float>::copyOf(samples, startIndex, &timebase);
}

}  // namespace isochron::test
