#include "engine/plugins/sandbox/sandboxed_operator.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/memory/shared_sample_arena.h"
#include "engine/operators/operator.h"
#include "engine/operators/operator_error_in_hook.h"
#include "engine/plugins/abi_items.h"
#include "engine/plugins/abi_node.h"
#include "engine/plugins/routed_items.h"
#include "engine/runtime/published_count.h"
#include "engine/plugins/sandbox/exchange_codec.h"
#include "engine/plugins/sandbox/sandbox_process.h"
#include "engine/plugins/sandbox/sandbox_protocol.h"
#include "engine/plugins/sandbox/shared_exchange.h"

namespace isochron {
namespace {

using namespace sandbox;

/// How often a waiting host looks whether its child is still alive.
constexpr std::chrono::milliseconds kLivenessSlice{20};
/// How long a call of the run may still take once a stop is requested before the child is killed:
/// the host can end a hung call itself, and the stop should not wait for the runner's 3 s grace.
constexpr std::chrono::milliseconds kAnswerAfterStop{500};
/// Items that arrived in the graph closer together than this (a file read ahead, a backlog) are a
/// stream worth batching; a slower one (a live source's blocks) is answered item by item, at once.
constexpr TimeNs kStreamingGapNs = 1'000'000;
/// A batch is sent once it holds this many hook calls or this many bytes.
constexpr std::uint32_t kBatchCalls = 64;
constexpr std::size_t kBatchBytes = std::size_t{4} << 20;

// Each hook call is a record in a request; while items stream in, process() batches them: the host
// writes the next batch in one request area while the child answers the last from the other, and
// replays an answer when it has arrived (or when the batch after it is full, waiting then). So a
// doorbell and two context switches serve up to kBatchCalls items instead of one, and the child
// works while the rest of the graph runs. Outputs come up to two batches late while items stream
// (all are out when the input ends: finish waits for every answer); every other hook, and items
// of a slow stream, are answered before the hook returns.
class SandboxedOperator final : public Operator, public RoutedItems {
public:
    SandboxedOperator(std::filesystem::path pluginFile, std::shared_ptr<const OperatorDescriptor> declared, std::chrono::milliseconds watchdog,
                      std::chrono::milliseconds setupWatchdog)
        : pluginFile_(std::move(pluginFile)), declared_(std::move(declared)), watchdog_(watchdog), setupWatchdog_(setupWatchdog) {}

    std::uint64_t routedItems() const override { return routedItems_; }

    HeldState heldState() const override {
        HeldState held;
        held.items = staged_.inputs.size() + flight_.inputs.size();
        held.bytes = (staged_.writer ? staged_.writer->used() : 0) + (flight_.pending ? flight_.bytes : 0);
        held.peakItems = peakHeldItems_;
        held.peakBytes = peakHeldBytes_;
        return held;
    }

protected:
    void onActivate() override {
        outputsClosed_ = false;
        std::vector<ResolvedPort> inputs, outputs;
        for (int i = 0; i < inputCount(); ++i) inputs.push_back(inputPort(i));
        for (int i = 0; i < outputCount(); ++i) outputs.push_back(outputPort(i));
        alwaysFits_ = alwaysFitsTable(inputs, outputs);
        routeOfInput_.assign(inputs.size(), -1);
        anyRoute_ = false;
        routedItems_ = 0;
        exchange_.emplace(SharedExchange::create());
        child_.emplace(pluginFile_, declared_->typeName, exchange_->fd(), arena_ ? arena_->fd() : -1);
        view_.reserve();
        for (Batch* batch : {&staged_, &flight_}) {
            batch->inputs.reserve(kBatchCalls);
            batch->hooks.reserve(kBatchCalls);
        }
        ExchangeWriter& out = record(Request::Activate, Item());
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
        try {
            answerAll();
        } catch (const OperatorErrorInHook& e) {
            failedToStart(e.what());
        } catch (const OperatorError& e) {
            failedToStart(std::string(e.what()) + " (in the activate hook)");
        }
    }

    void process(int inputPort, Item&& item) override {
        failIfNotStarted();
        // Arrival times are the sources' wall clock stamps: no clock read here.
        const TimeNs arrived = item.arrivalNs();
        streaming_ = arrived > 0 && arrived - lastArrivalNs_ < kStreamingGapNs;
        lastArrivalNs_ = arrived;
        if (flight_.pending && exchange_->responseArrived(flight_.sequence)) replayFlight();
        if (const int route = routeOfInput_[static_cast<std::size_t>(inputPort)]; route >= 0) {
            // A routed item is handed over here, never sent to the child: after what the plugin
            // made of the items before it, so that its outputs keep their order.
            if (staged_.processCalls > 0 || (flight_.pending && flight_.processCalls > 0)) answerEverything();
            ++routedItems_;
            emit(route, std::move(item));
            return;
        }
        const isochron_item& view = view_.view(item);
        ExchangeWriter& out = record(Request::Process, std::move(item));
        out.put(static_cast<std::uint32_t>(inputPort));
        putItemHead(out, view);
        if (view.segment) putArenaOrInlineSamples(out, *view.segment, arena_);  // the item is kept until answered
        ++staged_.processCalls;
        noteHeld();
        if (!streaming_) {
            answerAll();
        } else if (staged_.hooks.size() >= kBatchCalls || staged_.writer->used() >= kBatchBytes) {
            if (flight_.pending) awaitAndReplayFlight();
            sendStaged();
        }
    }

    SourceStatus onProduce() override {
        failIfNotStarted();
        ExchangeWriter& out = record(Request::Produce, Item());
        out.put(std::min(productionBudget(), kPluginMostBlocksPerProduce));
        out.put(static_cast<std::uint32_t>(admissionOpen()));
        const Done done = answerAll();
        if (done.sourceState == ISOCHRON_SOURCE_PRODUCED) return SourceStatus::produced();
        if (done.sourceState == ISOCHRON_SOURCE_WAITING) return SourceStatus::waitUntil(done.wakeAtNs);
        return SourceStatus::finished();
    }

    TimeNs onProgress(TimeNs inputProgress) override {
        failIfNotStarted();
        pendingProgress_ = inputProgress;  // sent with the next hook call (see sandbox_protocol.h)
        if (flight_.pending && exchange_->responseArrived(flight_.sequence)) replayFlight();
        if (anyRoute_) {
            // Routed items make no calls that would carry the progress: a call of its own does,
            // at once for a slow stream; while items stream, one carries the latest of every
            // kBatchCalls progress updates (a promise may lag, and each call costs the child a
            // progress hook and the host a record).
            if (!streaming_) {
                record(Request::Progress, Item());
                answerAll();
            } else if (++progressUnsent_ >= kBatchCalls) {
                if (flight_.pending) awaitAndReplayFlight();
                record(Request::Progress, Item());
                sendStaged();
            }
        }
        return promised_;
    }

    void onFinish() override {
        failIfNotStarted();
        record(Request::Finish, Item());
        answerAll();
    }

    void onParameterChanged(std::string_view name) override {
        failIfNotStarted();
        ExchangeWriter& out = record(Request::ParameterChanged, Item());
        out.putText(name);
        out.putText(paramValueToJson(params().get(name)).dump());
        answerAll();
    }

    void onDeactivate() override {
        if (!child_ || child_->ended()) return;
        try {
            // What is still batched belongs to a run that was stopped: it is not run, and the
            // answer in flight sends nothing on (nor does the deactivate call: the engine may have
            // deactivated the nodes downstream already, and a progress promise pending since the
            // stop would reach them), though a child that dies or hangs in it fails the node.
            staged_.clear();
            outputsClosed_ = true;
            if (flight_.pending) awaitFlight();
            flight_.clear();
            pendingProgress_.reset();
            record(Request::Deactivate, Item());
            answerAll();
        } catch (const OperatorErrorInHook& e) {
            child_->wait();
            throw OperatorStopFailure(e.what());
        } catch (const OperatorError& e) {
            child_->wait();
            throw OperatorStopFailure(std::string(e.what()) + " (in deactivate)");
        }
        child_->wait();
    }

private:
    struct Done {
        std::uint32_t sourceState = ISOCHRON_SOURCE_FINISHED;
        std::int64_t wakeAtNs = 0;
        std::size_t calls = 0;  // calls answered (replay); an answer that ends inside a call ends in its hooks[calls]
    };

    // Hook calls written into one request area, or sent and not yet answered.
    struct Batch {
        std::uint32_t area = 0;
        std::optional<ExchangeWriter> writer;  // staged: the request being written
        std::vector<Hook> hooks;               // each call's plugin hook, in order (the one it is in, once answered)
        std::vector<Item> inputs;              // each call's input item (process), else a progress marker
        bool pending = false;                  // flight: sent, answer not replayed yet
        std::uint32_t sequence = 0;            // flight: the request's sequence number
        std::size_t bytes = 0;                 // flight: the request's size
        std::int64_t sentAtNs = 0;             // flight: when it was sent (steadyNowNs)
        std::uint32_t processCalls = 0;        // how many of the calls are Process calls
        void clear() {
            writer.reset();
            hooks.clear();
            inputs.clear();
            pending = false;
            processCalls = 0;
        }
    };

    // A plugin whose activate crashed, hung or threw fails its node like a failure in any other
    // hook: the engine has no way to disable a node while it starts the graph, so the failure is
    // kept and raised by the first hook the engine calls (only this node stops; the run goes on).
    void failedToStart(std::string failure) {
        if (!child_->ended()) child_->kill();
        startFailure_ = std::move(failure);
        staged_.clear();
        flight_.clear();
    }

    void failIfNotStarted() const {
        if (startFailure_) throw OperatorErrorInHook(*startFailure_);
    }

    static void putPort(ExchangeWriter& out, const ResolvedPort& port) {
        out.putText(port.name);
        out.putText(port.type.toString());
        out.put(static_cast<std::uint32_t>(port.groupIndex));
    }

    // Start a hook call of `kind` in the staged request, with the deferred progress and every
    // input's progress; `input` is the item it processes (kept for samples the plugin sends on).
    ExchangeWriter& record(Request kind, Item&& input) {
        if (!child_) throw OperatorError("its sandboxed process never started");
        if (!staged_.writer) {
            staged_.writer.emplace(exchange_->requests(staged_.area), SharedExchange::kAreaBytes);
            staged_.writer->put(std::uint32_t{0});  // the number of calls, filled in by sendStaged
        }
        ExchangeWriter& out = *staged_.writer;
        out.put(kind);
        out.put(static_cast<std::uint32_t>(pendingProgress_.has_value()));
        if (pendingProgress_) out.put(*pendingProgress_);
        pendingProgress_.reset();
        progressUnsent_ = 0;
        out.put(static_cast<std::uint32_t>(inputCount()));
        for (int i = 0; i < inputCount(); ++i) out.put(inputProgress(i));
        staged_.hooks.push_back(hookOf(kind));
        staged_.inputs.push_back(std::move(input));
        return out;
    }

    // Send the staged calls (nothing may be in flight).
    void sendStaged() {
        if (child_->ended()) throw OperatorError("its sandboxed process is gone (" + child_->ending() + ")");
        const auto calls = static_cast<std::uint32_t>(staged_.hooks.size());
        std::memcpy(staged_.writer->area(), &calls, sizeof calls);
        const std::size_t bytes = staged_.writer->used();
        const std::uint32_t sequence = exchange_->sendRequest(staged_.area, bytes);
        const std::uint32_t nextArea = staged_.area ^ 1u;
        std::swap(staged_, flight_);
        staged_.clear();
        staged_.area = nextArea;
        flight_.writer.reset();
        flight_.pending = true;
        flight_.sequence = sequence;
        flight_.bytes = bytes;
        flight_.sentAtNs = steadyNowNs();
    }

    // Send what is staged and replay every answer; the last call's result.
    Done answerAll() {
        if (flight_.pending) awaitAndReplayFlight();
        sendStaged();
        return awaitAndReplayFlight();
    }

    // Replay the answer in flight and send and replay what is staged, if anything is.
    void answerEverything() {
        if (flight_.pending) awaitAndReplayFlight();
        if (!staged_.hooks.empty()) answerAll();
    }

    // Wait for the answer in flight, watching the child (a child that died or overran the watchdog
    // fails the hook, after what it answered before is replayed). The watchdog times the call the
    // child is on: from when the batch was sent, and again from each answer the host sees it
    // commit (looking once a slice: an answer seen late gives the next call more time, never less).
    // Once a stop is requested, calls of the run (not deactivate, which the stop asks for) get
    // kAnswerAfterStop more, then the child is killed and the call fails: the stop ends promptly,
    // naming this node, instead of the runner leaving a stuck call behind after its grace.
    void awaitFlight() {
        // activate (with the constructor) and deactivate run while no source streams: they get the
        // setup watchdog, not a live graph's short one (sandbox_watchdog.h).
        const Hook last = flight_.hooks.empty() ? Hook::Process : flight_.hooks.back();
        const std::chrono::milliseconds watchdog = last == Hook::Activate || last == Hook::Deactivate ? setupWatchdog_ : watchdog_;
        const auto watchdogNs = std::chrono::duration_cast<std::chrono::nanoseconds>(watchdog).count();
        const bool endsAtStop = last != Hook::Deactivate;
        std::size_t committedSeen = 0;
        std::int64_t callStartNs = flight_.sentAtNs;
        std::int64_t stopSeenNs = 0;
        while (!exchange_->awaitResponse(flight_.sequence, kLivenessSlice)) {
            const std::size_t committed = exchange_->control().committedBytes.load(std::memory_order_acquire);
            if (child_->ended()) {
                const std::string ending = child_->ending();
                replayAnswered(committed, [&](const char* hook) { return "its sandboxed process " + ending + " in its " + hook + " hook"; });
            }
            const std::int64_t now = steadyNowNs();
            if (committed != committedSeen) {
                committedSeen = committed;
                callStartNs = now;
            }
            if (now - callStartNs > watchdogNs) {
                child_->kill();
                replayAnswered(exchange_->control().committedBytes.load(std::memory_order_acquire), [&](const char* hook) {
                    return "its sandboxed process did not answer within " + std::to_string(watchdog.count()) + " ms in its " + hook +
                           " hook (the watchdog killed it)";
                });
            }
            if (endsAtStop && stopSeenNs == 0 && stopRequested()) stopSeenNs = now;
            if (stopSeenNs != 0 && now - stopSeenNs > std::chrono::nanoseconds(kAnswerAfterStop).count()) {
                child_->kill();
                replayAnswered(exchange_->control().committedBytes.load(std::memory_order_acquire), [&](const char* hook) {
                    return "its sandboxed process did not answer within " + std::to_string(kAnswerAfterStop.count()) +
                           " ms of the stop request in its " + hook + " hook (the host killed it to end the run)";
                });
            }
        }
    }

    Done awaitAndReplayFlight() {
        awaitFlight();
        return replayFlight();
    }

    // Replay the answers of a child that is gone, then fail with what `failure` says for the hook
    // it was running (which need not be the hook the engine is running now: items are batched).
    template <class Failure> [[noreturn]] void replayAnswered(std::size_t bytes, Failure&& failure) {
        flight_.pending = false;
        const Done answered = replay(bytes);
        const char* hook = answered.calls < flight_.hooks.size() ? hookName(flight_.hooks[answered.calls]) : "last";
        const std::string message = failure(hook);
        flight_.clear();
        throw OperatorErrorInHook(message);
    }

    Done replayFlight() {
        flight_.pending = false;
        const Done done = replay(exchange_->control().responseBytes);
        flight_.clear();
        return done;
    }

    // Emit what the calls in flight emitted, in order; a call that failed fails this hook.
    Done replay(std::size_t bytes) {
        ExchangeReader in(exchange_->responses(), bytes);
        Done done;
        std::size_t call = 0;
        for (; call < flight_.hooks.size() && !in.atEnd(); ++call) {
            const std::optional<Done> answered = replayCall(in, call);
            if (!answered) break;
            done = *answered;
        }
        done.calls = call;
        return done;
    }

    // Emit what call number `call` emitted; its Done, or nothing when the answer ends inside the
    // call, in the hook it entered last (the child died or hangs there).
    std::optional<Done> replayCall(ExchangeReader& in, std::size_t call) {
        for (;;) {
            switch (in.get<Reply>()) {
                case Reply::Emit: {
                    const auto port = in.get<std::uint32_t>();
                    takeItem(in, emitted_);
                    if (outputsClosed_) break;
                    if (port >= static_cast<std::uint32_t>(outputCount())) throw OperatorError("emit on output #" + std::to_string(port) + ": there is no such output");
                    const Item& input = flight_.inputs[call];
                    if (isWholeInput(input)) {  // passed through: the input item itself goes on (shared)
                        try {
                            checkFits(input.kind(), input.sampleType(), outputPort(static_cast<int>(port)));
                        } catch (const std::invalid_argument& e) {
                            throw OperatorError("emit on output '" + outputPort(static_cast<int>(port)).name + "': " + e.what());
                        }
                        emit(static_cast<int>(port), Item(input));
                        break;
                    }
                    if (emitted_.item.segment) resolveSamples(input);
                    try {
                        emit(static_cast<int>(port), engineItemFromAbi(emitted_.item, outputPort(static_cast<int>(port))));
                    } catch (const std::invalid_argument& e) {
                        throw OperatorError("emit on output '" + outputPort(static_cast<int>(port)).name + "': " + e.what());
                    }
                    break;
                }
                case Reply::Progress: {
                    const auto promised = in.get<std::int64_t>();
                    if (outputsClosed_) break;
                    if (promised > promised_) promised_ = promised;
                    emitProgress(promised);
                    break;
                }
                case Reply::Warning: warn(in.text()); break;
                case Reply::Entering: {
                    const auto hook = in.get<Hook>();
                    if (!hookName(hook)) throw OperatorError("its sandboxed process named an unknown hook (#" + std::to_string(static_cast<std::uint32_t>(hook)) + ")");
                    flight_.hooks[call] = hook;
                    if (in.atEnd()) return std::nullopt;
                    break;
                }
                case Reply::Route: {
                    const auto input = in.get<std::uint32_t>();
                    const auto output = in.get<std::uint32_t>();
                    takeRoute(input, output, flight_.hooks[call]);
                    break;
                }
                case Reply::Done: {
                    const auto outcome = in.get<Outcome>();
                    const std::string error = in.text();
                    Done done;
                    done.sourceState = in.get<std::uint32_t>();
                    done.wakeAtNs = in.get<std::int64_t>();
                    // A call of a batch cut by the stop that failed is not reported: its run was over.
                    if (outputsClosed_ && flight_.hooks[call] != Hook::Deactivate) return done;
                    if (outcome == Outcome::ProgressFailed) throw OperatorErrorInHook(error + " (in the progress hook)");
                    if (outcome != Outcome::Succeeded) {
                        const Hook hook = flight_.hooks[call];
                        std::string message = error.empty() ? std::string("its ") + hookName(hook) + " hook failed without saying why" : error;
                        // The engine names the other hooks itself ("(in process)"); it cannot tell these two apart.
                        if (hook == Hook::Create || hook == Hook::Activate) throw OperatorErrorInHook(message + " (in the " + hookName(hook) + " hook)");
                        throw OperatorError(message);
                    }
                    return done;
                }
            }
        }
    }

    // The child granted the plugin a route from `input` to `output`: checked here as the child
    // checked it (the child is not trusted), then this side hands that input's items over.
    void takeRoute(std::uint32_t input, std::uint32_t output, Hook hook) {
        const auto inputs = static_cast<std::uint32_t>(inputCount());
        const auto outputs = static_cast<std::uint32_t>(outputCount());
        if (hook != Hook::Activate || input >= inputs || output >= outputs || !alwaysFits_[std::size_t{input} * outputs + output]) {
            throw OperatorError("its sandboxed process granted a route from input #" + std::to_string(input) + " to output #" +
                                std::to_string(output) + " in its " + hookName(hook) +
                                " hook, which the host cannot take (routes are taken in activate, between ports whose items always fit)");
        }
        routeOfInput_[input] = static_cast<int>(output);
        anyRoute_ = true;
    }

    // Whether the item just read is the signal `input` as it came (the plugin forwarded or emitted
    // its samples unchanged).
    bool isWholeInput(const Item& input) const {
        const isochron_segment& segment = emitted_.segment;
        return emitted_.item.kind == ISOCHRON_ITEM_SIGNAL && emitted_.item.segment && emitted_.samplesAt == SamplesAt::InputItem &&
               input.kind() == ItemKind::Signal && segment.start_index == input.segment().startIndex() &&
               segment.length == input.segment().length() && segment.sample_type == abiSampleType(input.sampleType());
    }

    // Point an emitted segment at its samples: in the response area, or `input`'s (shared).
    void resolveSamples(const Item& input) {
        isochron_segment& segment = emitted_.segment;
        if (emitted_.samplesAt == SamplesAt::Responses) {
            // The child writes the response area: its offsets are checked like everything it sends.
            const std::size_t bytes = sampleBytes(segment.sample_type, segment.length);
            if (emitted_.offset > SharedExchange::kAreaBytes || bytes > SharedExchange::kAreaBytes - emitted_.offset) {
                throw OperatorError("its sandboxed process sent samples outside of its response area");
            }
            segment.samples = exchange_->responses() + emitted_.offset;
        } else if (emitted_.samplesAt == SamplesAt::Arena) {
            throw OperatorError("its sandboxed process sent samples in the host's arena, which it can only read");
        } else if (emitted_.samplesAt == SamplesAt::InputItem) {
            if (input.isProgress() || !input.segment().list()) throw OperatorError("the plugin emitted input samples outside of process");
            const SegmentHandle& whole = input.segment();
            if (segment.start_index < whole.startIndex() || segment.start_index + segment.length > whole.endIndex()) {
                throw OperatorError("the plugin emitted input samples outside of its input segment");
            }
            sharedInput_ = shareSubsegment(whole, segment.start_index, segment.length);
            segment.handle = &sharedInput_;
        }
    }

    void noteHeld() {
        const HeldState held = heldState();
        if (held.items > peakHeldItems_) peakHeldItems_ = held.items;
        if (held.bytes > peakHeldBytes_) peakHeldBytes_ = held.bytes;
    }

    std::filesystem::path pluginFile_;
    std::shared_ptr<const OperatorDescriptor> declared_;
    std::chrono::milliseconds watchdog_;       // calls while the graph streams
    std::chrono::milliseconds setupWatchdog_;  // activate and deactivate
    SharedSampleArena* arena_ = SharedSampleArena::instance();  // null: every segment's samples are copied in
    std::optional<SharedExchange> exchange_;
    std::optional<SandboxProcess> child_;
    AbiItemView view_;
    WireItem emitted_;
    Batch staged_;  // calls being written, not sent
    Batch flight_;  // calls sent, whose answer is not replayed yet
    SegmentHandle sharedInput_;
    std::optional<TimeNs> pendingProgress_;
    std::optional<std::string> startFailure_;  // what activate's failure said; the node fails with it
    bool outputsClosed_ = false;  // deactivating: what the child still answers is not sent on
    TimeNs promised_ = kBeginningOfTime;
    TimeNs lastArrivalNs_ = 0;
    bool streaming_ = false;  // the last item arrived less than kStreamingGapNs after the one before
    std::vector<std::uint8_t> alwaysFits_;  // alwaysFitsTable of the node's ports
    std::vector<int> routeOfInput_;  // [input]: the output its items are handed over to without the child, else -1
    bool anyRoute_ = false;
    std::uint32_t progressUnsent_ = 0;  // progress updates since the last call carried one (a node with routes)
    PublishedCount routedItems_;  // read by the telemetry watcher thread too
    std::uint64_t peakHeldItems_ = 0;
    std::uint64_t peakHeldBytes_ = 0;
};

}  // namespace

std::function<std::unique_ptr<Operator>()> sandboxedFactory(const std::filesystem::path& pluginFile, const OperatorDescriptor& declared,
                                                            std::chrono::milliseconds watchdog, std::chrono::milliseconds setupWatchdog) {
    auto description = std::make_shared<OperatorDescriptor>(declared);
    description->create = nullptr;
    return [pluginFile, description, watchdog, setupWatchdog]() -> std::unique_ptr<Operator> {
        return std::make_unique<SandboxedOperator>(pluginFile, description, watchdog, setupWatchdog);
    };
}

}  // namespace isochron
