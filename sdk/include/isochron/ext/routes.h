/* Host extension "isochron.routes/1": items that pass through a node without a call into the plugin.
 *
 * Why: a plugin's process hook is an indirect call into another library for every item, and a
 * node that only passes an input's items on (a pass-through, a bypassed effect, an operator that
 * works on one input and lets another through) pays it for nothing. A route, asked for in
 * activate, tells the host to hand every data item arriving on an input over to an output itself,
 * as forward would, without calling process: the item never crosses the ABI, and the hop costs
 * what a built-in operator's does. The plugin's other hooks run as before (progress still reaches
 * the progress hook; items on other inputs still reach process).
 *
 * Sandboxed, the child process grants routes and tells the host, which then passes those items on
 * without sending them to the child at all.
 *
 * Negotiated, never assumed: a host may not offer the extension (get_extension returns null), and
 * it may refuse a route. A plugin must then forward in process as it would without routes, so it
 * works on every host of ABI version 2. */
#ifndef ISOCHRON_EXT_ROUTES_H
#define ISOCHRON_EXT_ROUTES_H

#include <stdbool.h>
#include <stdint.h>

#include "isochron/isochron.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The versioned id to pass to isochron_host.get_extension. */
#define ISOCHRON_EXT_ROUTES "isochron.routes/1"

/* What the extension pointer points to. [immutable, valid while the host is] */
typedef struct isochron_routes_extension {
    /* From now until deactivate, hand every data item arriving on `input_port` over to
     * `output_port` as it is, without calling process for it. True when the host will; false (no
     * error is logged) when it will not: a port out of range, or an input whose items do not all
     * fit the output's type. Routes are fixed from activate to deactivate: ask for them in every
     * activate. [engine thread, inside activate only] [no allocation] */
    bool (*route_input)(const isochron_host *host, uint32_t input_port, uint32_t output_port);
} isochron_routes_extension;

#ifdef __cplusplus
}
#endif

#endif /* ISOCHRON_EXT_ROUTES_H */
