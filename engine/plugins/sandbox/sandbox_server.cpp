#include "engine/plugins/sandbox/sandbox_server.h"

#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <deque>
#include <iostream>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/memory/shared_sample_arena.h"
#include "engine/plugins/abi_descriptor.h"
#include "engine/plugins/abi_node.h"
#include "engine/plugins/plugin_library.h"
#include "engine/plugins/sandbox/exchange_codec.h"
#include "engine/plugins/sandbox/sandbox_protocol.h"
#include "engine/plugins/sandbox/shared_exchange.h"

namespace isochron::sandbox {
namespace {

/// Where the samples behind a handle the plugin holds are.
struct ChildSegment {
    enum class Origin { Input, Responses, Kept } origin;
    std::uint64_t responseOffset = 0;              ///< Responses: from the start of the response area
    std::shared_ptr<std::vector<std::byte>> kept;  ///< Kept: a copy owned by this process
};

/// The host's SharedSampleArena, mapped read-only: the samples of the items to process. [one thread]
class ArenaView {
public:
    /// Map the arena's memfd `fd` (-1: the host has none). Throws std::runtime_error.
    explicit ArenaView(int fd) {
        if (fd < 0) return;
        void* mapping = mmap(nullptr, SharedSampleArena::kReservedBytes, PROT_READ, MAP_SHARED | MAP_NORESERVE, fd, 0);
        close(fd);
        if (mapping == MAP_FAILED) throw std::runtime_error(std::string("mmap of the host's sample arena: ") + std::strerror(errno));
        base_ = static_cast<const std::byte*>(mapping);
    }
    ~ArenaView() {
        if (base_) munmap(const_cast<std::byte*>(base_), SharedSampleArena::kReservedBytes);
    }
    ArenaView(const ArenaView&) = delete;
    ArenaView& operator=(const ArenaView&) = delete;

    /// The `bytes` at `offset`; throws std::out_of_range outside the arena.
    const std::byte* at(std::uint64_t offset, std::size_t bytes) const {
        if (!base_ || offset > SharedSampleArena::kReservedBytes || bytes > SharedSampleArena::kReservedBytes - offset) {
            throw std::out_of_range("a sandbox message points outside of the host's sample arena");
        }
        return base_ + offset;
    }

private:
    const std::byte* base_ = nullptr;
};

class SandboxServer final : public AbiNode {
public:
    SandboxServer(std::filesystem::path plugin, std::string type, int exchangeFd, int arenaFd)
        : plugin_(std::move(plugin)), typeName_(std::move(type)), exchange_(SharedExchange::attach(exchangeFd)), arena_(arenaFd) {}

    ~SandboxServer() override {
        if (instance_ && instance_->destroy) instance_->destroy(instance_);
    }

    /// Answer requests until Deactivate. A request holds one or more hook calls, answered in order;
    /// each finished answer is committed at once, so the host keeps what came before a crash. The
    /// calls after one that failed are not run (the host disables the node at the failure).
    void serve() {
        std::uint32_t sequence = 0;
        for (bool running = true; running;) {
            sequence = exchange_.awaitRequest(sequence);
            const ExchangeControl& control = exchange_.control();
            ExchangeReader request(exchange_.requests(control.requestArea), control.requestBytes);
            ExchangeWriter response(exchange_.responses(), SharedExchange::kAreaBytes);
            out_ = &response;
            bool ok = true;
            for (auto calls = request.get<std::uint32_t>(); calls > 0 && ok && running; --calls) {
                ok = answer(request, running);
                exchange_.commitResponse(response.used());
            }
            out_ = nullptr;
            exchange_.sendResponse(response.used());
        }
    }

private:
    // One hook call: read it, run the hooks, end its answer with Done; whether the hook succeeded.
    // `running` becomes false after Deactivate.
    bool answer(ExchangeReader& request, bool& running) {
        const auto kind = request.get<Request>();
        bool ok = true;
        bool progressFailed = false;
        std::string error;
        std::uint32_t sourceState = ISOCHRON_SOURCE_FINISHED;
        std::int64_t wakeAtNs = 0;
        clearError();
        hook_ = hookOf(kind);
        try {
            if (request.get<std::uint32_t>()) {
                const auto pending = request.get<std::int64_t>();
                if (ok && instance_ && instance_->progress) {
                    enter(Hook::Progress);
                    std::int64_t promised = pending;
                    ok = instance_->progress(instance_, pending, &promised);
                    progressFailed = !ok;
                    if (ok) writeProgress(promised);
                    if (ok && kind != Request::Progress) enter(hookOf(kind));
                } else if (instance_) {
                    writeProgress(pending);
                }
            }
            inputProgress_.resize(request.get<std::uint32_t>());
            for (auto& progress : inputProgress_) progress = request.get<std::int64_t>();
            if (ok) ok = run(kind, request, sourceState, wakeAtNs);
            if (!ok) error = takeError(hookName(hook_));
        } catch (const std::exception& e) {
            ok = false;
            error = e.what();
        }
        hookSegments_.clear();
        inputForwardable_ = false;
        out_->put(Reply::Done);
        out_->put(ok ? Outcome::Succeeded : progressFailed ? Outcome::ProgressFailed : Outcome::Failed);
        out_->putText(error);
        out_->put(sourceState);
        out_->put(wakeAtNs);
        running = kind != Request::Deactivate;
        return ok;
    }

    bool run(Request kind, ExchangeReader& request, std::uint32_t& sourceState, std::int64_t& wakeAtNs) {
        switch (kind) {
            case Request::Activate: return activate(request);
            case Request::Process: {
                if (!instance_) throw std::logic_error("process before activate");
                const auto port = request.get<std::uint32_t>();
                takeItem(request, input_);
                inputForwardable_ = true;
                if (input_.item.segment && input_.samplesAt == SamplesAt::Arena) {
                    input_.segment.samples = const_cast<std::byte*>(arena_.at(input_.offset, sampleBytes(input_.segment.sample_type, input_.segment.length)));
                }
                if (input_.item.segment) {
                    inputSegment_ = {ChildSegment::Origin::Input};
                    input_.segment.handle = &inputSegment_;
                }
                return !instance_->process || instance_->process(instance_, port, &input_.item);
            }
            case Request::Produce:
                if (!instance_) throw std::logic_error("produce before activate");
                budget_ = request.get<std::int64_t>();
                admitted_ = request.get<std::uint32_t>() != 0;
                return !instance_->produce || instance_->produce(instance_, &sourceState, &wakeAtNs);
            case Request::Finish: return !instance_ || !instance_->finish || instance_->finish(instance_);
            case Request::ParameterChanged: {
                const std::string name = request.text();
                const ParamSpec* spec = declared_.findParam(name);
                std::string problem;
                std::optional<ParamValue> value = spec ? spec->fromJson(nlohmann::json::parse(request.text()), problem) : std::nullopt;
                if (!value) throw std::invalid_argument("parameter '" + name + "': " + (spec ? problem : "unknown"));
                params_.set(name, *value);
                return !instance_ || !instance_->parameter_changed || instance_->parameter_changed(instance_, name.c_str());
            }
            case Request::Deactivate:
                if (instance_ && instance_->deactivate) instance_->deactivate(instance_);
                return !errorLogged();
            case Request::Progress: return true;  // the deferred progress hook, run before, was the call
        }
        return false;
    }

    // Loading the plugin is part of activation, so that a refusal reaches the host as its error.
    bool activate(ExchangeReader& request) {
        library_ = PluginLibrary::open(plugin_);
        type_ = library_->operatorType(typeName_);
        if (!type_) throw std::runtime_error("the plugin has no operator type '" + typeName_ + "'");
        declared_ = descriptorFromAbi(*type_);
        const std::string nodeId = request.text();
        const nlohmann::json params = nlohmann::json::parse(request.text());
        for (const ParamSpec& spec : declared_.params) {
            std::string problem;
            std::optional<ParamValue> value = spec.fromJson(params.contains(spec.name) ? params.at(spec.name) : paramValueToJson(spec.defaultValue), problem);
            if (!value) throw std::invalid_argument("parameter '" + spec.name + "': " + problem);
            params_.set(spec.name, *value);
        }
        std::vector<ResolvedPort> inputs, outputs;
        std::vector<bool> connected;
        for (auto count = request.get<std::uint32_t>(); count > 0; --count) {
            inputs.push_back(takePort(request));
            connected.push_back(request.get<std::uint32_t>() != 0);
        }
        for (auto count = request.get<std::uint32_t>(); count > 0; --count) outputs.push_back(takePort(request));
        describeNode(nodeId, declared_, inputs, connected, outputs);
        enter(Hook::Create);
        instance_ = type_->create(type_, host());
        if (!instance_) return false;
        if (!instance_->activate) return true;
        enter(Hook::Activate);
        if (!activateGrantingRoutes([&] { return instance_->activate(instance_); })) return false;
        for (std::uint32_t input = 0; input < routeOfInput_.size(); ++input) {
            if (routeOfInput_[input] < 0) continue;
            out_->put(Reply::Route);
            out_->put(input);
            out_->put(static_cast<std::uint32_t>(routeOfInput_[input]));
        }
        return true;
    }

    static ResolvedPort takePort(ExchangeReader& request) {
        ResolvedPort port;
        port.name = request.text();
        const std::string type = request.text();
        port.type = PortType::parse(type).value_or(PortType::any());
        port.groupIndex = static_cast<int>(request.get<std::uint32_t>());
        return port;
    }

    // Tell the host the call is now in `hook` (committed: a child that dies there is known to).
    void enter(Hook hook) {
        hook_ = hook;
        out_->put(Reply::Entering);
        out_->put(hook);
        exchange_.commitResponse(out_->used());
    }

    void writeProgress(std::int64_t timeNs) {
        out_->put(Reply::Progress);
        out_->put(timeNs);
    }

    // ---- AbiNode
    const ParamSet& currentParams() const override { return params_; }
    std::int64_t inputProgressNs(std::uint32_t port) const override { return port < inputProgress_.size() ? inputProgress_[port] : kEndOfTime; }
    // As in-process: forward hands over the item process() got, once.
    void forwardItem(std::uint32_t port, const isochron_item& item) override {
        if (!inputForwardable_ || &item != &input_.item) throw std::invalid_argument("forward takes the item process() got, once (emit any other)");
        emitItem(port, item);
        inputForwardable_ = false;
    }
    void emitItem(std::uint32_t port, const isochron_item& item) override {
        const std::size_t mark = out_->used();
        try {
            out_->put(Reply::Emit);
            out_->put(port);
            putItemHead(*out_, item);
            if (item.segment) putSamples(*item.segment);
        } catch (...) {
            out_->rewind(mark);  // the host must never read half a record
            throw;
        }
    }
    void putSamples(const isochron_segment& segment) {
        const auto* source = static_cast<const ChildSegment*>(segment.handle);
        if (source && source->origin == ChildSegment::Origin::Input) {
            out_->put(SamplesAt::InputItem);
        } else if (source && source->origin == ChildSegment::Origin::Responses) {
            out_->put(SamplesAt::Responses);
            out_->put(source->responseOffset);
        } else {
            putInlineSamples(*out_, segment);
        }
    }
    void emitProgressNs(std::int64_t timeNs) override { writeProgress(timeNs); }
    void allocateSegment(std::uint32_t sampleType, std::int64_t length, std::int64_t startIndex, const isochron_timebase* timebase,
                         isochron_segment& segment) override {
        std::byte* samples = out_->reserveFromEnd(sampleBytes(sampleType, length), kSampleAlignment);
        ChildSegment& made = hookSegments_.emplace_back(ChildSegment{ChildSegment::Origin::Responses, static_cast<std::uint64_t>(samples - out_->area()), {}});
        segment = {sampleType, startIndex, length, timebase, samples, &made};
    }
    void subsegment(const isochron_segment& segment, std::int64_t startIndex, std::int64_t length, isochron_segment& part) override {
        const auto& whole = *static_cast<const ChildSegment*>(segment.handle);
        const std::size_t offset = sampleBytes(segment.sample_type, startIndex - segment.start_index);
        ChildSegment& made = hookSegments_.emplace_back(whole);
        if (made.origin == ChildSegment::Origin::Responses) made.responseOffset += offset;
        part = {segment.sample_type, startIndex, length, segment.timebase, static_cast<std::byte*>(segment.samples) + offset, &made};
    }
    void retainSegment(const isochron_segment& segment, isochron_segment& kept) override {
        const std::size_t bytes = sampleBytes(segment.sample_type, segment.length);
        auto copy = std::make_shared<std::vector<std::byte>>(bytes);
        if (bytes > 0) std::memcpy(copy->data(), segment.samples, bytes);
        ChildSegment& made = kept_.emplace_back(ChildSegment{ChildSegment::Origin::Kept, 0, copy});
        kept = segment;
        kept.samples = copy->data();
        kept.handle = &made;
    }
    void releaseSegment(const isochron_segment& kept) override {
        kept_.remove_if([&](const ChildSegment& segment) { return &segment == kept.handle; });
    }
    std::int64_t sourceBudget() const override { return budget_; }
    bool sourceAdmitted() const override { return admitted_; }
    void warning(std::string message) override {
        out_->put(Reply::Warning);
        out_->putText(message);
    }

    std::filesystem::path plugin_;
    std::string typeName_;
    std::unique_ptr<PluginLibrary> library_;
    SharedExchange exchange_;
    ArenaView arena_;
    const isochron_operator_type* type_ = nullptr;
    OperatorDescriptor declared_;
    const isochron_operator* instance_ = nullptr;
    ParamSet params_;
    std::vector<std::int64_t> inputProgress_;
    std::int64_t budget_ = 0;
    bool admitted_ = true;
    ExchangeWriter* out_ = nullptr;
    Hook hook_ = Hook::Activate;  // the plugin hook the call being answered is in
    WireItem input_;
    ChildSegment inputSegment_{ChildSegment::Origin::Input};
    bool inputForwardable_ = false;  // input_ is the item of the process call running and not forwarded yet
    std::deque<ChildSegment> hookSegments_;  // a deque: handles point at its elements
    std::list<ChildSegment> kept_;
};

}  // namespace

int runSandboxServer(int argc, char** argv) {
    std::string plugin, type;
    int exchangeFd = -1;
    int arenaFd = -1;
    pid_t parent = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string option = argv[i];
        if (option == kPluginOption) plugin = argv[i + 1];
        else if (option == kTypeOption) type = argv[i + 1];
        else if (option == kExchangeOption) exchangeFd = std::atoi(argv[i + 1]);
        else if (option == kParentOption) parent = static_cast<pid_t>(std::atoi(argv[i + 1]));
        else if (option == kArenaOption) arenaFd = std::atoi(argv[i + 1]);
    }
    if (plugin.empty() || type.empty() || exchangeFd < 0 || parent <= 0) {
        std::cerr << "isochron-plugin-sandbox: started by the engine for a sandboxed plugin node, not by hand\n";
        return 1;
    }
    // Die with the host, whatever ends it (a crashed host must not leave its children waiting).
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) return 1;
    try {
        SandboxServer server(plugin, type, exchangeFd, arenaFd);
        server.serve();
    } catch (const std::exception& e) {
        std::cerr << "isochron-plugin-sandbox: " << plugin << ", " << type << ": " << e.what() << "\n";
        return 3;
    }
    return 0;
}

}  // namespace isochron::sandbox
