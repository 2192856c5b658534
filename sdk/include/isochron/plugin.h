// The Isochron plugin SDK: everything a plugin includes. It is exactly the API the built-in
// operators are written against; nothing here is plugin-only except the entry point.
//
//   isochron/entry.h                    the exported entry point, PluginTable, ABI version
//   isochron/ext/check.h                capability "isochron.check/1" (how the checker exercises operators)
//   isochron/ext/item_types.h           capability "isochron.item-types/1" (custom item types)
//   engine/operators/operator.h         Operator: lifecycle hooks, emit, progress, live parameters
//   engine/operators/descriptor.h       OperatorDescriptor, PortSpec: type name, category, docs, ports
//   engine/operators/parameter.h        ParamSpec (kind, default, range, unit), ParamSet, ParamValue
//   engine/operators/port_type.h        PortType: signal<f32>, frame<c32>, scalar, custom<name>, ...
//   engine/items/item.h                 Item: what travels on an edge (and SampleRange, EventRecord)
//   engine/items/custom_payload.h       CustomPayload: base of a plugin's own item payloads
//   engine/signal/sigseg.h              SigSeg<T>: shared, piecewise segments of samples
//   engine/time/timebase.h              Timebase, Clock, TimeNs: sample index <-> time
//   engine/memory/memory_pool.h         MemoryPool: the engine's pooled allocator and its statistics
//
// Contracts, as on every declaration in these headers:
//   [setup thread]   the thread that loads plugins and builds engines (the UI thread in the editor)
//   [engine thread]  the thread running the graph; one hook of one operator at a time
//   [any thread]     safe from any thread
//   [no allocation]  never calls the system allocator; [pool allocation] uses MemoryPool only
//   [may allocate]   may call the system allocator (setup work, rare events)
// An operator's processing hooks (process, onProduce, onProgress) must not block and, in the steady
// state, must not call the system allocator: prepare buffers in onActivate() and take sample memory
// from SigSeg::allocate. isochron-plugin-check measures both.
#pragma once

#include "engine/items/custom_payload.h"
#include "engine/items/item.h"
#include "engine/memory/memory_pool.h"
#include "engine/operators/descriptor.h"
#include "engine/operators/operator.h"
#include "engine/operators/parameter.h"
#include "engine/operators/port_type.h"
#include "engine/signal/sigseg.h"
#include "engine/time/timebase.h"
#include "isochron/entry.h"
#include "isochron/ext/check.h"
#include "isochron/ext/item_types.h"
