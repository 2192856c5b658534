#include "engine/plugins/abi_node.h"

#include <cmath>
#include <stdexcept>

#include "engine/plugins/abi_items.h"
#include "engine/plugins/abi_values.h"

namespace isochron {

AbiNode::AbiNode()
    : host_{ISOCHRON_ABI_VERSION, this, &nodeIdOf, &getParam, &portCount, &getPort, &inputProgress, &emit, &forward, &emitProgress, &allocate,
            &subsegmentOf, &retain, &release, &getTimebase, &budgetOf, &admissionOf, &log, &getExtension} {}

std::string AbiNode::takeError(const char* hook) {
    std::string error = error_.empty() ? std::string("its ") + hook + " hook failed without saying why" : std::move(error_);
    error_.clear();
    return error;
}

void AbiNode::describeNode(std::string nodeId, const OperatorDescriptor& descriptor, const std::vector<ResolvedPort>& inputs,
                           const std::vector<bool>& inputConnected, const std::vector<ResolvedPort>& outputs) {
    nodeId_ = std::move(nodeId);
    descriptor_ = &descriptor;
    auto describe = [](const std::vector<ResolvedPort>& ports, std::vector<PortText>& texts) {
        texts.clear();
        texts.reserve(ports.size());
        for (const ResolvedPort& port : ports) texts.push_back({port, port.type.toString(), {}});
        for (PortText& text : texts) {
            const isochron_sample_type sampleType = text.spec.type.sampleType ? abiSampleType(*text.spec.type.sampleType) : ISOCHRON_SAMPLE_NONE;
            const std::uint32_t kind = text.spec.type.kind ? static_cast<std::uint32_t>(abiItemKind(*text.spec.type.kind)) : 0;
            text.info = {text.spec.name.c_str(), text.type.c_str(), kind, static_cast<std::uint32_t>(sampleType),
                         static_cast<std::uint32_t>(text.spec.groupIndex), true};
        }
    };
    describe(inputs, inputs_);
    describe(outputs, outputs_);
    for (std::size_t i = 0; i < inputs_.size() && i < inputConnected.size(); ++i) inputs_[i].info.connected = inputConnected[i];
    alwaysFits_ = alwaysFitsTable(inputs, outputs);
    routeOfInput_.assign(inputs.size(), -1);
}

void AbiNode::logged(std::uint32_t level, const char* message) {
    const std::string text = message ? message : "";
    if (level == ISOCHRON_LOG_ERROR) {
        if (error_.empty()) error_ = text;  // the first error says what went wrong; later ones follow from it
    } else {
        warning(text);
    }
}

template <class F, class R> R AbiNode::guarded(F&& call, R fallback) {
    try {
        return call();
    } catch (const std::exception& e) {
        logged(ISOCHRON_LOG_ERROR, e.what());
    }
    return fallback;
}

const char* AbiNode::nodeIdOf(const isochron_host* host) { return self(host).nodeId_.c_str(); }

bool AbiNode::getParam(const isochron_host* host, const char* name, isochron_param_value* value) {
    AbiNode& node = self(host);
    const ParamSpec* spec = name ? node.descriptor_->findParam(name) : nullptr;
    if (!spec || !node.currentParams().has(name)) return false;
    const ParamValue& current = node.currentParams().get(name);
    *value = {static_cast<std::uint32_t>(spec->kind), 0, 0.0, nullptr, nullptr, 0};
    if (const bool* flag = std::get_if<bool>(&current)) {
        value->integer = *flag ? 1 : 0;
        value->number = *flag ? 1.0 : 0.0;
    } else if (const std::int64_t* integer = std::get_if<std::int64_t>(&current)) {
        value->integer = *integer;
        value->number = static_cast<double>(*integer);
    } else if (const double* number = std::get_if<double>(&current)) {
        value->number = *number;
        value->integer = static_cast<std::int64_t>(*number);
    } else if (const std::string* text = std::get_if<std::string>(&current)) {
        value->text = text->c_str();
    } else if (const auto* list = std::get_if<std::vector<double>>(&current)) {
        value->list = list->data();
        value->list_length = static_cast<std::uint32_t>(list->size());
    }
    return true;
}

std::uint32_t AbiNode::portCount(const isochron_host* host, std::uint32_t direction) {
    AbiNode& node = self(host);
    return static_cast<std::uint32_t>(direction == ISOCHRON_INPUT ? node.inputs_.size() : node.outputs_.size());
}

bool AbiNode::getPort(const isochron_host* host, std::uint32_t direction, std::uint32_t index, isochron_port_info* info) {
    AbiNode& node = self(host);
    const std::vector<PortText>& ports = direction == ISOCHRON_INPUT ? node.inputs_ : node.outputs_;
    if (index >= ports.size()) return false;
    *info = ports[index].info;
    return true;
}

std::int64_t AbiNode::inputProgress(const isochron_host* host, std::uint32_t port) {
    AbiNode& node = self(host);
    return port < node.inputs_.size() ? node.inputProgressNs(port) : kEndOfTime;
}

template <class Send> bool AbiNode::sendOn(const isochron_host* host, std::uint32_t port, const isochron_item* item, Send&& send) {
    AbiNode& node = self(host);
    return node.guarded(
        [&] {
            if (port >= node.outputs_.size()) throw std::invalid_argument("emit on output #" + std::to_string(port) + ": there is no such output");
            if (!item) throw std::invalid_argument("emit on output '" + node.outputs_[port].spec.name + "': no item");
            try {
                send(node, *item);
            } catch (const std::invalid_argument& e) {
                throw std::invalid_argument("emit on output '" + node.outputs_[port].spec.name + "': " + e.what());
            }
            return true;
        },
        false);
}

bool AbiNode::emit(const isochron_host* host, std::uint32_t port, const isochron_item* item) {
    return sendOn(host, port, item, [port](AbiNode& node, const isochron_item& sent) { node.emitItem(port, sent); });
}

bool AbiNode::forward(const isochron_host* host, std::uint32_t port, const isochron_item* item) {
    return sendOn(host, port, item, [port](AbiNode& node, const isochron_item& sent) { node.forwardItem(port, sent); });
}

void AbiNode::emitProgress(const isochron_host* host, std::int64_t timeNs) { self(host).emitProgressNs(timeNs); }

bool AbiNode::allocate(const isochron_host* host, std::uint32_t sampleType, std::int64_t length, std::int64_t startIndex,
                       const isochron_timebase* timebase, isochron_segment* segment) {
    AbiNode& node = self(host);
    return node.guarded(
        [&] {
            if (length < 0) throw std::invalid_argument("allocate_segment: the length is negative");
            if (!engineSampleType(sampleType)) throw std::invalid_argument("allocate_segment: sample type " + std::to_string(sampleType) + " is not one the ABI defines");
            if (timebase && !isEngineTimebase(timebase)) throw std::invalid_argument("allocate_segment: a timebase the host did not make (use get_timebase)");
            node.allocateSegment(sampleType, length, startIndex, timebase, *segment);
            return true;
        },
        false);
}

bool AbiNode::subsegmentOf(const isochron_host* host, const isochron_segment* segment, std::int64_t startIndex, std::int64_t length,
                           isochron_segment* part) {
    AbiNode& node = self(host);
    return node.guarded(
        [&] {
            if (!segment->handle) throw std::invalid_argument("subsegment: the segment is not the host's (it has no handle)");
            if (length < 0 || startIndex < segment->start_index || startIndex + length > segment->start_index + segment->length) {
                throw std::invalid_argument("subsegment: samples [" + std::to_string(startIndex) + ", " + std::to_string(startIndex + length) +
                                            ") are not inside the segment");
            }
            node.subsegment(*segment, startIndex, length, *part);
            return true;
        },
        false);
}

bool AbiNode::retain(const isochron_host* host, const isochron_segment* segment, isochron_segment* kept) {
    AbiNode& node = self(host);
    return node.guarded(
        [&] {
            if (!segment->handle) throw std::invalid_argument("segment_retain: the segment is not the host's (it has no handle)");
            node.retainSegment(*segment, *kept);
            return true;
        },
        false);
}

void AbiNode::release(const isochron_host* host, const isochron_segment* kept) {
    if (kept && kept->handle) self(host).releaseSegment(*kept);
}

const isochron_timebase* AbiNode::getTimebase(const isochron_host* host, double rateHz, std::int64_t zeroTimeNs, const char* clock) {
    AbiNode& node = self(host);
    return node.guarded(
        [&]() -> const isochron_timebase* {
            if (!(rateHz > 0) || !std::isfinite(rateHz)) throw std::invalid_argument("get_timebase: the rate must be a positive finite number of Hz");
            return abiTimebase(Timebase::get(rateHz, zeroTimeNs, Clock::named(clock && *clock ? clock : "media")));
        },
        static_cast<const isochron_timebase*>(nullptr));
}

std::int64_t AbiNode::budgetOf(const isochron_host* host) { return self(host).sourceBudget(); }
bool AbiNode::admissionOf(const isochron_host* host) { return self(host).sourceAdmitted(); }
void AbiNode::log(const isochron_host* host, std::uint32_t level, const char* message) { self(host).logged(level, message); }
const void* AbiNode::getExtension(const isochron_host* host, const char* id) { return id ? self(host).extension(id) : nullptr; }

const isochron_routes_extension AbiNode::kRoutes = {&AbiNode::routeInput};

const void* AbiNode::extension(std::string_view id) const { return id == ISOCHRON_EXT_ROUTES ? &kRoutes : nullptr; }

bool AbiNode::routeInput(const isochron_host* host, std::uint32_t inputPort, std::uint32_t outputPort) {
    AbiNode& node = self(host);
    if (!node.activating_ || inputPort >= node.routeOfInput_.size() || outputPort >= node.outputs_.size()) return false;
    if (!node.alwaysFitsRow(inputPort)[outputPort]) return false;
    node.routeOfInput_[inputPort] = static_cast<int>(outputPort);
    return true;
}

}  // namespace isochron
