// AbiNode: the engine's side of the C ABI for one node. It owns the isochron_host table a plugin's
// operator instance gets and answers its calls: node id, parameters and ports from the node's
// description, the rest through virtual functions. In-process hosting (AbiOperator) and the
// sandbox's child process (SandboxServer) differ only in those: how items, progress and
// segments travel, and where warnings go.
//
// Errors: a host call the plugin gets wrong (an item that does not fit its port, say) logs an
// error for the node and returns false; the first error of a hook call is the one reported.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/operators/descriptor.h"
#include "engine/operators/parameter.h"
#include "isochron/ext/routes.h"
#include "isochron/isochron.h"

namespace isochron {

/// The most blocks a plugin source is admitted in one produce call, also when the engine sets no
/// limit (unpaced): what a sandboxed call emits reaches the host only when the call returns, so a
/// source that crashes loses one batch, never its whole stream. [constant]
inline constexpr std::int64_t kPluginMostBlocksPerProduce = 16;

/// One node's host services for a plugin operator. [engine thread]
class AbiNode {
public:
    AbiNode();
    virtual ~AbiNode() = default;
    AbiNode(const AbiNode&) = delete;
    AbiNode& operator=(const AbiNode&) = delete;

    /// The table to hand to the plugin's create; valid as long as this object.
    const isochron_host* host() const { return &host_; }
    /// The error the plugin (or a refused host call) logged since the last call, else a sentence
    /// saying `hook` failed without one; clears it. [may allocate]
    std::string takeError(const char* hook);
    /// Whether the plugin logged an error since clearError(): how a hook that returns nothing
    /// (deactivate) fails. [no allocation]
    bool errorLogged() const { return !error_.empty(); }
    /// Forget any error logged so far (before a hook call). [no allocation]
    void clearError() {
        if (!error_.empty()) error_.clear();
    }

protected:
    /// Describe the node: id, its type's descriptor (for parameter kinds) and its resolved ports.
    /// Before the plugin's activate. [may allocate]
    void describeNode(std::string nodeId, const OperatorDescriptor& descriptor, const std::vector<ResolvedPort>& inputs,
                      const std::vector<bool>& inputConnected, const std::vector<ResolvedPort>& outputs);
    const ResolvedPort& outputSpec(std::uint32_t port) const { return outputs_.at(port).spec; }
    std::uint32_t outputTotal() const { return static_cast<std::uint32_t>(outputs_.size()); }
    /// alwaysFitsTable's row for `input` (one flag per output), set by describeNode. [no allocation]
    const std::uint8_t* alwaysFitsRow(std::uint32_t input) const { return alwaysFits_.data() + std::size_t{input} * outputs_.size(); }
    /// Run the plugin's activate with `activate`, granting the routes it asks for meanwhile (routes
    /// are taken in activate only). [setup thread]
    template <class Activate> bool activateGrantingRoutes(Activate&& activate) {
        activating_ = true;
        const bool ok = activate();
        activating_ = false;
        return ok;
    }
    static AbiNode& self(const isochron_host* host) { return *static_cast<AbiNode*>(host->host_data); }
    /// The host table's forward, checking everything and naming what is wrong.
    static bool forward(const isochron_host* host, std::uint32_t port, const isochron_item* item);
    /// Put `fast` in the host table in place of forward: a host that can tell the common case
    /// cheaply handles it there and calls forward for the rest. [setup thread]
    void setForward(bool (*fast)(const isochron_host*, std::uint32_t, const isochron_item*)) { host_.forward = fast; }
    /// Log `message` as the error of the hook being run (the first one counts). [may allocate]
    void logError(const char* message) { logged(ISOCHRON_LOG_ERROR, message); }

    // ---- What differs between in-process and sandboxed hosting (errors: throw std::invalid_argument)
    /// The node's parameters as they are now.
    virtual const ParamSet& currentParams() const = 0;
    virtual std::int64_t inputProgressNs(std::uint32_t port) const = 0;
    virtual void emitItem(std::uint32_t port, const isochron_item& item) = 0;
    /// Hand the item being processed over to `port` (see isochron_host.forward); by default it is
    /// emitted like any item.
    virtual void forwardItem(std::uint32_t port, const isochron_item& item) { emitItem(port, item); }
    virtual void emitProgressNs(std::int64_t timeNs) = 0;
    virtual void allocateSegment(std::uint32_t sampleType, std::int64_t length, std::int64_t startIndex, const isochron_timebase* timebase,
                                 isochron_segment& segment) = 0;
    virtual void subsegment(const isochron_segment& segment, std::int64_t startIndex, std::int64_t length, isochron_segment& part) = 0;
    virtual void retainSegment(const isochron_segment& segment, isochron_segment& kept) = 0;
    virtual void releaseSegment(const isochron_segment& kept) = 0;
    virtual std::int64_t sourceBudget() const = 0;
    virtual bool sourceAdmitted() const = 0;
    virtual void warning(std::string message) = 0;
    /// The host extension with versioned id `id` this hosting offers, or null: routes (isochron/ext/routes.h).
    virtual const void* extension(std::string_view id) const;

    /// [input]: the output the routes extension hands its items over to without calling process,
    /// else -1; reset by describeNode, set during activateGrantingRoutes.
    std::vector<int> routeOfInput_;

private:
    struct PortText {
        ResolvedPort spec;
        std::string type;  // spec.type spelled out, for isochron_port_info
        isochron_port_info info{};
    };
    /// Runs a host call the plugin made; an exception becomes the node's error and `fallback`.
    template <class F, class R> R guarded(F&& call, R fallback);
    void logged(std::uint32_t level, const char* message);

    // The host table's functions.
    static const char* nodeIdOf(const isochron_host* host);
    static bool getParam(const isochron_host* host, const char* name, isochron_param_value* value);
    static std::uint32_t portCount(const isochron_host* host, std::uint32_t direction);
    static bool getPort(const isochron_host* host, std::uint32_t direction, std::uint32_t index, isochron_port_info* info);
    static std::int64_t inputProgress(const isochron_host* host, std::uint32_t port);
    static bool emit(const isochron_host* host, std::uint32_t port, const isochron_item* item);
    // emit and forward: check the port, run `send`, name the port in its error.
    template <class Send> static bool sendOn(const isochron_host* host, std::uint32_t port, const isochron_item* item, Send&& send);
    static void emitProgress(const isochron_host* host, std::int64_t timeNs);
    static bool allocate(const isochron_host* host, std::uint32_t sampleType, std::int64_t length, std::int64_t startIndex,
                         const isochron_timebase* timebase, isochron_segment* segment);
    static bool subsegmentOf(const isochron_host* host, const isochron_segment* segment, std::int64_t startIndex, std::int64_t length,
                             isochron_segment* part);
    static bool retain(const isochron_host* host, const isochron_segment* segment, isochron_segment* kept);
    static void release(const isochron_host* host, const isochron_segment* kept);
    static const isochron_timebase* getTimebase(const isochron_host* host, double rateHz, std::int64_t zeroTimeNs, const char* clock);
    static std::int64_t budgetOf(const isochron_host* host);
    static bool admissionOf(const isochron_host* host);
    static void log(const isochron_host* host, std::uint32_t level, const char* message);
    static const void* getExtension(const isochron_host* host, const char* id);
    /// The routes extension's route_input: granted inside activate when every item of the input
    /// fits the output.
    static bool routeInput(const isochron_host* host, std::uint32_t inputPort, std::uint32_t outputPort);
    static const isochron_routes_extension kRoutes;

    isochron_host host_;
    std::string nodeId_;
    const OperatorDescriptor* descriptor_ = nullptr;
    std::vector<PortText> inputs_, outputs_;
    std::vector<std::uint8_t> alwaysFits_;  // alwaysFitsTable(inputs, outputs)
    bool activating_ = false;               // inside the plugin's activate, the only time a route may be taken
    std::string error_;
};

}  // namespace isochron
