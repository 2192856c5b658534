// Operator: the C++ base class a plugin's operators derive from. It turns the ABI's table of C
// hooks into virtual functions, turns exceptions into the ABI's error reports (the node is
// disabled with the exception's message; nothing is thrown across the boundary) and wraps the
// host's services (parameters, ports, emit, progress, allocation, logging).
//
// Lifecycle, as in isochron.h: construct -> activate -> process | produce | progress |
// parameterChanged ... -> finish -> deactivate -> destroy. Every hook runs on the engine thread,
// one at a time; processing hooks (process, produce, progress) must not block and should not
// allocate from the system: prepare buffers in activate() and take sample memory from allocate().
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "isochron/cpp/item.hpp"
#include "isochron/ext/routes.h"

namespace isochron::sdk {

class OperatorBinding;

/// The node's parameter values (validated, defaults filled in). Getters throw Error for an unknown
/// name or another kind. [engine thread] [no allocation]
class Params {
public:
    explicit Params(const isochron_host* host) : host_(host) {}

    bool boolean(const char* name) const { return get(name, ISOCHRON_PARAM_BOOL).integer != 0; }
    std::int64_t integer(const char* name) const { return get(name, ISOCHRON_PARAM_INT).integer; }
    /// A real parameter (an int one widened).
    double real(const char* name) const {
        const isochron_param_value value = get(name);
        if (value.kind != ISOCHRON_PARAM_REAL && value.kind != ISOCHRON_PARAM_INT) throw Error(std::string("parameter '") + name + "' is not a number");
        return value.number;
    }
    /// A string, choice or path parameter; valid until the hook returns.
    std::string_view text(const char* name) const {
        const isochron_param_value value = get(name);
        if (!value.text) throw Error(std::string("parameter '") + name + "' is not a text");
        return value.text;
    }
    std::span<const double> list(const char* name) const {
        const isochron_param_value value = get(name, ISOCHRON_PARAM_REAL_LIST);
        return {value.list, value.list_length};
    }

private:
    isochron_param_value get(const char* name) const {
        isochron_param_value value{};
        if (!host_->get_param(host_, name, &value)) throw Error(std::string("no parameter '") + name + "'");
        return value;
    }
    isochron_param_value get(const char* name, std::uint32_t kind) const {
        const isochron_param_value value = get(name);
        if (value.kind != kind) throw Error(std::string("parameter '") + name + "' has another kind");
        return value;
    }
    const isochron_host* host_;
};

/// What a source reports after produce(). [value type]
struct SourceStatus {
    std::uint32_t state = ISOCHRON_SOURCE_PRODUCED;
    TimeNs wakeAtNs = 0;  ///< waiting: wall-clock time worth calling again

    static SourceStatus produced() { return {ISOCHRON_SOURCE_PRODUCED, 0}; }
    static SourceStatus waitUntil(TimeNs wallNs) { return {ISOCHRON_SOURCE_WAITING, wallNs}; }
    static SourceStatus finished() { return {ISOCHRON_SOURCE_FINISHED, 0}; }
};

/// Base class of a plugin's operators. [engine thread unless stated]
class Operator {
public:
    virtual ~Operator() = default;
    Operator() = default;
    Operator(const Operator&) = delete;
    Operator& operator=(const Operator&) = delete;

protected:
    // ---- Hooks (override what you need) --------------------------------------------------------
    /// Before the run: read parameters, size buffers. Throw to fail (e.g. a missing file): only this
    /// node is disabled, the rest of the graph runs. [may allocate]
    virtual void activate() {}
    /// One data item on `inputPort`; may emit any number of items. [no allocation]
    virtual void process(int /*inputPort*/, const Item& /*item*/) { throw Error("this operator takes no input"); }
    /// Sources only: emit up to one batch (productionBudget() blocks, at most 16 a call) and say
    /// whether more will come.
    virtual SourceStatus produce() { throw Error("this operator is not a source"); }
    /// The minimum progress over the inputs rose to `inputProgress`: return what this operator can
    /// promise on its outputs (an operator holding data back returns the time of the oldest it holds).
    virtual TimeNs progress(TimeNs inputProgress) { return inputProgress; }
    /// Every input has ended: emit what is still buffered. [may allocate]
    virtual void finish() {}
    /// A live parameter changed (params() already gives the new value). [may allocate]
    virtual void parameterChanged(std::string_view /*name*/) {}
    /// After the run: close files, free what activate() took. [may allocate]
    virtual void deactivate() {}

    // ---- Host services -------------------------------------------------------------------------
    /// The node's id in the graph (for messages).
    std::string_view nodeId() const { return host_->node_id(host_); }
    /// The node's parameters.
    Params params() const { return Params(host_); }
    int inputCount() const { return static_cast<int>(host_->port_count(host_, ISOCHRON_INPUT)); }
    int outputCount() const { return static_cast<int>(host_->port_count(host_, ISOCHRON_OUTPUT)); }
    /// A port after repeated ports are expanded, with its concrete type.
    isochron_port_info inputPort(int index) const { return port(ISOCHRON_INPUT, index); }
    isochron_port_info outputPort(int index) const { return port(ISOCHRON_OUTPUT, index); }
    /// Progress promised so far on input `index` (kEndOfTime once it ended).
    TimeNs inputProgress(int index) const { return host_->input_progress(host_, static_cast<std::uint32_t>(index)); }

    /// Send an item on output `outputPort`; throws Error when the host refuses it. [no allocation]
    void emit(int outputPort, const Item& item) {
        if (!host_->emit(host_, static_cast<std::uint32_t>(outputPort), &item.raw())) throw Error("emit refused");
    }
    /// Send the item process() got on as it is, handed over rather than shared: the cheapest pass
    /// through. Its last use: do not read it afterwards. Throws Error when the host refuses it.
    /// [no allocation]
    void forward(int outputPort, const Item& item) {
        if (!host_->forward(host_, static_cast<std::uint32_t>(outputPort), &item.raw())) throw Error("forward refused");
    }
    /// In activate(): ask the host to hand every item arriving on `inputPort` over to `outputPort`
    /// itself, without calling process() for it (extension isochron.routes/1): such a hop costs
    /// what a built-in operator's does (sandboxed, the items never reach the plugin's process). True
    /// when the host will, until deactivate(); false when it does not offer routes or the input's
    /// items may not fit the output: then they
    /// keep coming to process(), which must pass them on itself. [no allocation]
    bool routeInput(int inputPort, int outputPort) {
        return routes_ && routes_->route_input(host_, static_cast<std::uint32_t>(inputPort), static_cast<std::uint32_t>(outputPort));
    }
    /// Promise that no item with time < t will follow on any output. [no allocation]
    void emitProgress(TimeNs t) { host_->emit_progress(host_, t); }
    /// A warning shown with this node; it keeps running. [may allocate]
    void warn(const std::string& message) { host_->log(host_, ISOCHRON_LOG_WARNING, message.c_str()); }

    /// Fresh samples to fill through writable() and emit; they live until emitted or until the
    /// hook returns (retain() keeps them). [no allocation: pooled]
    template <class T> Segment<T> allocate(std::int64_t length, std::int64_t startIndex, Timebase timebase) {
        isochron_segment raw{};
        if (!host_->allocate_segment(host_, SampleTypeOf<T>::value, length, startIndex, timebase.raw(), &raw)) throw Error("allocate refused");
        return Segment<T>(raw);
    }
    /// Samples [startIndex, startIndex + length) of `segment`, sharing its storage. [no allocation]
    template <class T> Segment<T> subsegment(const Segment<T>& segment, std::int64_t startIndex, std::int64_t length) {
        isochron_segment raw{};
        if (!host_->subsegment(host_, &segment.raw(), startIndex, length, &raw)) throw Error("subsegment refused");
        return Segment<T>(raw);
    }
    /// Keep `segment` past the hook's return, until release(). [no allocation: pooled]
    template <class T> Segment<T> retain(const Segment<T>& segment) {
        isochron_segment raw{};
        if (!host_->segment_retain(host_, &segment.raw(), &raw)) throw Error("retain refused");
        return Segment<T>(raw);
    }
    /// Give up a segment from retain(). [no allocation]
    template <class T> void release(const Segment<T>& kept) { host_->segment_release(host_, &kept.raw()); }
    /// The interned timebase of a stream (sources make their own). [may allocate on first use]
    Timebase timebase(double rateHz, TimeNs zeroTimeNs = 0, const char* clock = "media") const {
        const isochron_timebase* raw = host_->get_timebase(host_, rateHz, zeroTimeNs, clock);
        if (!raw) throw Error("a timebase needs a positive finite rate");
        return Timebase(raw);
    }
    /// Sources, inside produce(): how many blocks the engine admits in this call.
    std::int64_t productionBudget() const { return host_->production_budget(host_); }
    /// Sources, before each block: false while the engine's memory guard holds (stop and return).
    bool admissionOpen() const { return host_->admission_open(host_); }

private:
    friend class OperatorBinding;

    isochron_port_info port(std::uint32_t direction, int index) const {
        isochron_port_info info{};
        if (!host_->get_port(host_, direction, static_cast<std::uint32_t>(index), &info)) throw Error("no port #" + std::to_string(index));
        return info;
    }

    const isochron_host* host_ = nullptr;
    const isochron_routes_extension* routes_ = nullptr;  // null when the host offers no routes
    isochron_operator table_{};
};

/// Makes the ABI's table of hooks for an Operator: every trampoline catches what the hook throws
/// and reports it as the node's error. [engine thread]
class OperatorBinding {
public:
    /// Bind `op` (owned from now on: destroy deletes it) to `host`; returns its hook table. [setup thread]
    static const isochron_operator* bind(Operator* op, const isochron_host* host) {
        op->host_ = host;
        if (host->get_extension) op->routes_ = static_cast<const isochron_routes_extension*>(host->get_extension(host, ISOCHRON_EXT_ROUTES));
        op->table_ = {op, &activate, &process, &produce, &progress, &finish, &parameterChanged, &deactivate, &destroy};
        return &op->table_;
    }

private:
    static Operator& self(const isochron_operator* op) { return *static_cast<Operator*>(op->operator_data); }

    // Runs `hook`, turning any exception into an error report; true when it returned normally.
    template <class F> static bool guarded(const isochron_operator* op, F&& hook) {
        try {
            hook();
            return true;
        } catch (...) {
            return failed(op);
        }
    }
    // Reports the exception being handled as the hook's error; false. [inside a catch block]
    static bool failed(const isochron_operator* op) {
        const isochron_host* host = self(op).host_;
        try {
            throw;
        } catch (const std::exception& e) {
            host->log(host, ISOCHRON_LOG_ERROR, e.what());
        } catch (...) {
            host->log(host, ISOCHRON_LOG_ERROR, "threw something that is not a std::exception");
        }
        return false;
    }

    static bool activate(const isochron_operator* op) { return guarded(op, [&] { self(op).activate(); }); }
    // Written out, not through guarded: on every item, one frame between the host and process()
    // (a chain of plugin nodes runs depth-first, and every frame deepens it).
    static bool process(const isochron_operator* op, std::uint32_t port, const isochron_item* item) {
        try {
            self(op).process(static_cast<int>(port), Item(*item));
            return true;
        } catch (...) {
            return failed(op);
        }
    }
    static bool produce(const isochron_operator* op, std::uint32_t* state, std::int64_t* wakeAtNs) {
        return guarded(op, [&] {
            const SourceStatus status = self(op).produce();
            *state = status.state;
            *wakeAtNs = status.wakeAtNs;
        });
    }
    static bool progress(const isochron_operator* op, std::int64_t inputNs, std::int64_t* promisedNs) {
        return guarded(op, [&] { *promisedNs = self(op).progress(inputNs); });
    }
    static bool finish(const isochron_operator* op) { return guarded(op, [&] { self(op).finish(); }); }
    static bool parameterChanged(const isochron_operator* op, const char* name) {
        return guarded(op, [&] { self(op).parameterChanged(name); });
    }
    static void deactivate(const isochron_operator* op) { guarded(op, [&] { self(op).deactivate(); }); }
    static void destroy(const isochron_operator* op) { delete &self(op); }
};

}  // namespace isochron::sdk
