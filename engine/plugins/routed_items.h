// RoutedItems: what a plugin operator's host tells the run report about routes
// (isochron/ext/routes.h): the items it passed on without a call into the plugin, which the
// engine counted as processed, so the report can say which were which.
#pragma once

#include <cstdint>

namespace isochron {

/// Implemented by the hosts of plugin operators (in-process and sandboxed). [engine thread]
class RoutedItems {
public:
    virtual ~RoutedItems() = default;
    /// Data items handed over by a route since activation. [no allocation]
    virtual std::uint64_t routedItems() const = 0;
};

}  // namespace isochron
