#include "engine/plugins/sandbox/sandboxed_operator.h"

#include <optional>

#include <nlohmann/json.hpp>

#include "engine/operators/operator.h"
#include "engine/plugins/abi_items.h"
#include "engine/plugins/sandbox/exchange_codec.h"
#include "engine/plugins/sandbox/sandbox_process.h"
#include "engine/plugins/sandbox/sandbox_protocol.h"
#include "engine/plugins/sandbox/shared_exchange.h"
#include "engine/time/wall_clock.h"

namespace isochron {
namespace {

using namespace sandbox;

/// How often a waiting host looks whether its child is still alive.
constexpr std::chrono::milliseconds kLivenessSlice{20};

class SandboxedOperator final : public Operator {
public:
    SandboxedOperator(std::filesystem::path pluginFile, std::shared_ptr<const OperatorDescriptor> declared, std::chrono::milliseconds watchdog)
        : pluginFile_(std::move(pluginFile)), declared_(std::move(declared)), watchdog_(watchdog) {}

protected:
    void onActivate() override {
        exchange_.emplace(SharedExchange::create());
        child_.emplace(pluginFile_, declared_->typeName, exchange_->fd());
        view_.reserve();
        ExchangeWriter out = begin(Request::Activate);
        out.putText(std::string(nodeId()));
        nlohmann::json params = nlohmann::json::object();
        for (const auto& [name, value] : this->params().all()) params[name] = paramValueToJson(value);
        out.putText(params.dump());
        out.put(static_cast<std::uint32_t>(inputCount()));
        for (int i = 0; i < inputCount(); ++i) {
            putPort(out, inputPort(i));
            out.put(static_cast<std::uint32_t>(inputConnected(i)));
        }
        out.put(static_cast<std::uint32_t>(outputCount()));
        for (int i = 0; i < outputCount(); ++i) putPort(out, outputPort(i));
        call(out, "activate");
    }

    void process(int inputPort, Item&& item) override {
        ExchangeWriter out = begin(Request::Process);
        out.put(static_cast<std::uint32_t>(inputPort));
        const isochron_item& view = view_.view(item);
        putItemHead(out, view);
        if (view.segment) putInlineSamples(out, *view.segment);
        input_ = &item;
        call(out, "process");
        input_ = nullptr;
    }

    SourceStatus onProduce() override {
        ExchangeWriter out = begin(Request::Produce);
        out.put(productionBudget());
        out.put(static_cast<std::uint32_t>(admissionOpen()));
        const Done done = call(out, "produce");
        if (done.sourceState == ISOCHRON_SOURCE_PRODUCED) return SourceStatus::produced();
        if (done.sourceState == ISOCHRON_SOURCE_WAITING) return SourceStatus::waitUntil(done.wakeAtNs);
        return SourceStatus::finished();
    }

    TimeNs onProgress(TimeNs inputProgress) override {
        pendingProgress_ = inputProgress;  // sent with the next request (see sandbox_protocol.h)
        return promised_;
    }

    void onFinish() override {
        ExchangeWriter out = begin(Request::Finish);
        call(out, "finish");
    }

    void onParameterChanged(std::string_view name) override {
        ExchangeWriter out = begin(Request::ParameterChanged);
        out.putText(name);
        out.putText(paramValueToJson(params().get(name)).dump());
        call(out, "parameter_changed");
    }

    void onDeactivate() override {
        if (!child_ || child_->ended()) return;
        ExchangeWriter out = begin(Request::Deactivate);
        try {
            call(out, "deactivate");
        } catch (const OperatorError& e) {
            warn(e.what());
        }
        child_->wait();
    }

private:
    struct Done {
        std::uint32_t sourceState = ISOCHRON_SOURCE_FINISHED;
        std::int64_t wakeAtNs = 0;
    };

    static void putPort(ExchangeWriter& out, const ResolvedPort& port) {
        out.putText(port.name);
        out.putText(port.type.toString());
        out.put(static_cast<std::uint32_t>(port.groupIndex));
    }

    // A request of `kind` with the deferred progress and every input's progress.
    ExchangeWriter begin(Request kind) {
        if (!child_ || child_->ended()) throw OperatorError("its sandboxed process is gone (" + (child_ ? child_->ending() : std::string("never started")) + ")");
        ExchangeWriter out(exchange_->requests(), SharedExchange::kAreaBytes);
        out.put(kind);
        out.put(static_cast<std::uint32_t>(pendingProgress_.has_value()));
        if (pendingProgress_) out.put(*pendingProgress_);
        pendingProgress_.reset();
        out.put(static_cast<std::uint32_t>(inputCount()));
        for (int i = 0; i < inputCount(); ++i) out.put(inputProgress(i));
        return out;
    }

    // Send the request, wait for the answer (watching the child), replay what the hook emitted.
    Done call(const ExchangeWriter& request, const char* hook) {
        exchange_->sendRequest(request.used());
        const std::uint32_t expected = exchange_->control().requestSequence.load(std::memory_order_relaxed);
        const TimeNs deadline = wallClockNs() + std::chrono::duration_cast<std::chrono::nanoseconds>(watchdog_).count();
        while (!exchange_->awaitResponse(expected, kLivenessSlice)) {
            if (child_->ended()) {
                throw OperatorError("its sandboxed process " + child_->ending());
            }
            if (wallClockNs() > deadline) {
                child_->kill();
                throw OperatorError("its sandboxed process did not answer within " + std::to_string(watchdog_.count()) +
                                    " ms (the watchdog killed it)");
            }
        }
        return replay(hook);
    }

    Done replay(const char* hook) {
        ExchangeReader in(exchange_->responses(), exchange_->control().responseBytes);
        for (;;) {
            switch (in.get<Reply>()) {
                case Reply::Emit: {
                    const auto port = in.get<std::uint32_t>();
                    takeItem(in, emitted_);
                    if (emitted_.item.segment) resolveSamples();
                    if (port >= static_cast<std::uint32_t>(outputCount())) throw OperatorError("emit on output #" + std::to_string(port) + ": there is no such output");
                    try {
                        emit(static_cast<int>(port), engineItemFromAbi(emitted_.item, outputPort(static_cast<int>(port))));
                    } catch (const std::invalid_argument& e) {
                        throw OperatorError("emit on output '" + outputPort(static_cast<int>(port)).name + "': " + e.what());
                    }
                    break;
                }
                case Reply::Progress: {
                    const auto promised = in.get<std::int64_t>();
                    if (promised > promised_) promised_ = promised;
                    emitProgress(promised);
                    break;
                }
                case Reply::Warning: warn(in.text()); break;
                case Reply::Done: {
                    const bool ok = in.get<std::uint32_t>() != 0;
                    const std::string error = in.text();
                    Done done;
                    done.sourceState = in.get<std::uint32_t>();
                    done.wakeAtNs = in.get<std::int64_t>();
                    if (!ok) throw OperatorError(error.empty() ? std::string("its ") + hook + " hook failed without saying why" : error);
                    return done;
                }
            }
        }
    }

    // Point an emitted segment at its samples: in the response area, or the input item's (shared).
    void resolveSamples() {
        isochron_segment& segment = emitted_.segment;
        if (emitted_.samplesAt == SamplesAt::Responses) {
            segment.samples = exchange_->responses() + emitted_.responseOffset;
        } else if (emitted_.samplesAt == SamplesAt::InputItem) {
            if (!input_ || !input_->segment().list()) throw OperatorError("the plugin emitted input samples outside of process");
            const SegmentHandle& whole = input_->segment();
            if (segment.start_index < whole.startIndex() || segment.start_index + segment.length > whole.endIndex()) {
                throw OperatorError("the plugin emitted input samples outside of its input segment");
            }
            sharedInput_ = shareSubsegment(whole, segment.start_index, segment.length);
            segment.handle = &sharedInput_;
        }
    }

    std::filesystem::path pluginFile_;
    std::shared_ptr<const OperatorDescriptor> declared_;
    std::chrono::milliseconds watchdog_;
    std::optional<SharedExchange> exchange_;
    std::optional<SandboxProcess> child_;
    AbiItemView view_;
    WireItem emitted_;
    const Item* input_ = nullptr;  // the item being processed, whose samples the plugin may emit again
    SegmentHandle sharedInput_;
    std::optional<TimeNs> pendingProgress_;
    TimeNs promised_ = kBeginningOfTime;
};

}  // namespace

std::function<std::unique_ptr<Operator>()> sandboxedFactory(const std::filesystem::path& pluginFile, const OperatorDescriptor& declared,
                                                            std::chrono::milliseconds watchdog) {
    auto description = std::make_shared<OperatorDescriptor>(declared);
    description->create = nullptr;
    return [pluginFile, description, watchdog]() -> std::unique_ptr<Operator> {
        return std::make_unique<SandboxedOperator>(pluginFile, description, watchdog);
    };
}

}  // namespace isochron
