#include "app/plugin_check/output_trace.h"

#include <cmath>
#include <complex>
#include <sstream>

namespace isochron::check {
namespace {

/// Collects a custom payload's fields.
class FieldCollector final : public CustomFieldVisitor {
public:
    FieldCollector(std::string& text, std::vector<double>& numbers) : text_(text), numbers_(numbers) {}
    void number(std::string_view name, double value) override {
        text_ += " ";
        text_ += name;
        numbers_.push_back(value);
    }
    void text(std::string_view name, std::string_view value) override {
        text_ += " ";
        text_ += name;
        text_ += "=";
        text_ += value;
    }

private:
    std::string& text_;
    std::vector<double>& numbers_;
};

void appendSamples(const SegmentHandle& segment, std::vector<double>& out) {
    switch (segment.sampleType()) {
        case SampleType::Float32: for (float v : SigSeg<float>::fromHandle(segment)) out.push_back(v); break;
        case SampleType::Float64: for (double v : SigSeg<double>::fromHandle(segment)) out.push_back(v); break;
        case SampleType::Int16: for (std::int16_t v : SigSeg<std::int16_t>::fromHandle(segment)) out.push_back(v); break;
        case SampleType::ComplexFloat32:
            for (std::complex<float> v : SigSeg<std::complex<float>>::fromHandle(segment)) {
                out.push_back(v.real());
                out.push_back(v.imag());
            }
            break;
        case SampleType::None: break;
    }
}

bool differs(double a, double b, double tolerance) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) != std::isnan(b);
    return std::fabs(a - b) > tolerance;
}

std::string number(double v) {
    std::ostringstream out;
    out.precision(9);
    out << v;
    return out.str();
}

}  // namespace

OutputTrace traceOf(const std::vector<Item>& items) {
    OutputTrace trace;
    for (const Item& item : items) {
        if (item.kind() == ItemKind::Signal) {
            const SegmentHandle& segment = item.segment();
            if (segment.empty()) continue;
            appendSamples(segment, trace.samples);
            if (!trace.coverage.empty() && trace.coverage.back().second == segment.startIndex()) trace.coverage.back().second = segment.endIndex();
            else trace.coverage.emplace_back(segment.startIndex(), segment.endIndex());
            continue;
        }
        const SampleRange range = item.range();
        std::string text = std::string(itemKindName(item.kind())) + " [" + std::to_string(range.start) + ", " + std::to_string(range.end()) + ")";
        std::vector<double> numbers;
        switch (item.kind()) {
            case ItemKind::Frame: appendSamples(item.segment(), numbers); break;
            case ItemKind::Scalar: numbers.push_back(item.value()); break;
            case ItemKind::Event:
                text += std::string(" ") + item.event()->label();
                numbers.push_back(item.value());
                for (const EventAttribute& a : item.event()->attributes()) {
                    text += std::string(" ") + a.name;
                    numbers.push_back(a.value);
                }
                break;
            case ItemKind::Custom: {
                text += " ";
                text += item.custom()->typeName();
                numbers.push_back(item.value());
                FieldCollector fields(text, numbers);
                item.custom()->visitFields(fields);
                break;
            }
            case ItemKind::Signal:
            case ItemKind::TimeRange:
            case ItemKind::Progress: break;
        }
        trace.records.push_back(std::move(text));
        trace.recordNumbers.push_back(std::move(numbers));
    }
    return trace;
}

std::optional<std::string> firstDifference(const OutputTrace& reference, const OutputTrace& other, double tolerance) {
    if (reference.coverage != other.coverage) {
        return "signal samples cover " + std::to_string(reference.samples.size()) + " values in " + std::to_string(reference.coverage.size()) +
               " run(s) unsplit, but " + std::to_string(other.samples.size()) + " values in " + std::to_string(other.coverage.size()) + " run(s)";
    }
    for (std::size_t i = 0; i < reference.samples.size() && i < other.samples.size(); ++i) {
        if (differs(reference.samples[i], other.samples[i], tolerance)) {
            return "signal value " + std::to_string(i) + " is " + number(reference.samples[i]) + " unsplit but " + number(other.samples[i]);
        }
    }
    if (reference.records.size() != other.records.size()) {
        const auto items = [](std::size_t n) { return std::to_string(n) + (n == 1 ? " item" : " items"); };
        return items(reference.records.size()) + " unsplit but " + items(other.records.size());
    }
    for (std::size_t i = 0; i < reference.records.size(); ++i) {
        if (reference.records[i] != other.records[i]) return "item " + std::to_string(i) + " is '" + reference.records[i] + "' unsplit but '" + other.records[i] + "'";
        const auto& a = reference.recordNumbers[i];
        const auto& b = other.recordNumbers[i];
        if (a.size() != b.size()) return "item " + std::to_string(i) + " (" + reference.records[i] + ") carries a different number of values";
        for (std::size_t k = 0; k < a.size(); ++k) {
            if (differs(a[k], b[k], tolerance)) {
                return "item " + std::to_string(i) + " (" + reference.records[i] + "), value " + std::to_string(k) + " is " + number(a[k]) +
                       " unsplit but " + number(b[k]);
            }
        }
    }
    return std::nullopt;
}

}  // namespace isochron::check
