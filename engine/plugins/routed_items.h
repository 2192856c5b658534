// RoutedItems: what a plugin operator's host tells the run report about routes
// (isochron/ext/routes.h): the items it passed on without a call into the plugin, which the
// engine counted as processed, so the report and telemetry can say which were which.
#pragma once

#include <cstdint>

namespace isochron {

/// Implemented by the hosts of plugin operators (in-process and sandboxed). [engine thread]
class RoutedItems {
public:
    virtual ~RoutedItems() = default;
    /// Data items handed over by a route since activation. [any thread] [no allocation]
    virtual std::uint64_t routedItems() const = 0;
};

/// The hook calls of a node the engine counted `engineCalls` for (it counts every item delivered):
/// without the items `routes` (its operator as RoutedItems, null for none) handed over. [any thread]
inline std::uint64_t pluginHookCalls(std::uint64_t engineCalls, const RoutedItems* routes) {
    if (!routes) return engineCalls;
    const std::uint64_t routed = routes->routedItems();
    return engineCalls - (routed < engineCalls ? routed : engineCalls);
}

}  // namespace isochron
