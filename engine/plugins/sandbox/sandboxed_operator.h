// SandboxedOperator: a plugin's operator hosted in a child process of its own, so that a crash, a
// hang or an abort() in the plugin disables this node only. To the engine it is an ordinary
// Operator; each hook becomes a call in a request to the child (sandbox_protocol.h) through shared
// memory (shared_exchange.h), answered with what the plugin's hook emitted, which this side emits
// in order. Items that stream in (less than 1 ms apart) are batched, up to 64 calls per request,
// so their outputs may come a batch or two late (all of them before finish returns). Items of an
// input the plugin routed (isochron/ext/routes.h; the child reports its routes when activate
// answers) are passed on here and never sent to the child.
//
// Faults: a child that dies, exits, or does not answer within the watchdog time (it is killed
// then) fails the hook with an OperatorError saying which of these happened and in which plugin
// hook, after replaying what the child answered before;
// the engine disables the node, ends its outputs, names the node and the plugin, and runs the rest
// of the graph to the end. A refusal from the plugin (its hook returned false) fails the same way
// with the plugin's own message, as in-process. Once a stop is requested, a call of the run that
// has not answered within 500 ms more fails the same way (the child is killed), so the stop does
// not wait for the watchdog or leave the call behind.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>

#include "engine/operators/descriptor.h"

namespace isochron {

/// A factory of sandboxed instances of the operator `declared` of `pluginFile`, each hook allowed
/// `watchdog` (create, activate and deactivate: `setupWatchdog`) before its child process is killed. [setup thread]
std::function<std::unique_ptr<Operator>()> sandboxedFactory(const std::filesystem::path& pluginFile, const OperatorDescriptor& declared,
                                                            std::chrono::milliseconds watchdog, std::chrono::milliseconds setupWatchdog);

}  // namespace isochron
