// The Isochron plugin SDK for C++: a header-only layer over the C ABI of <isochron/isochron.h>,
// compiled into the plugin, so a plugin may use any compiler and C++ standard library.
//
//   isochron/isochron.h          the ABI: entry point, operator types, hooks, host services, items
//   isochron/ext/check.h         extension "isochron.check/1" (how the checker exercises operators)
//   isochron/ext/item_types.h    extension "isochron.item-types/1" (custom item types)
//   isochron/ext/routes.h        host extension "isochron.routes/1" (items passed on without a call)
//   isochron/cpp/values.hpp      Error, TimeNs, Timebase, Range, sample types
//   isochron/cpp/segment.hpp     Segment<T>: a signal's samples or a frame's values
//   isochron/cpp/item.hpp        Item (scalar, time range, signal, frame, event, custom), Field, Record
//   isochron/cpp/operator.hpp    Operator: the hooks to override and the host's services; Params
//   isochron/cpp/describe.hpp    OperatorType, Port, Param: what an operator declares
//   isochron/cpp/plugin.hpp      Plugin and ISOCHRON_PLUGIN(describe): the exported entry point
//
// Contracts, as on every declaration in these headers:
//   [setup thread]   the thread that loads plugins and builds engines (the UI thread in the editor)
//   [engine thread]  the thread running the graph; one hook of one operator at a time
//   [no allocation]  never calls the system allocator; [pooled] takes memory from the engine's pool
//   [may allocate]   may call the system allocator (setup work, rare events)
// An operator's processing hooks (process, produce, progress) must not block and, in the steady
// state, must not call the system allocator: prepare buffers in activate() and take sample memory
// from allocate(). isochron-plugin-check measures both.
#pragma once

#include "isochron/cpp/describe.hpp"
#include "isochron/cpp/item.hpp"
#include "isochron/cpp/operator.hpp"
#include "isochron/cpp/plugin.hpp"
#include "isochron/cpp/segment.hpp"
#include "isochron/cpp/values.hpp"
#include "isochron/ext/check.h"
#include "isochron/ext/item_types.h"
#include "isochron/ext/routes.h"
#include "isochron/isochron.h"
