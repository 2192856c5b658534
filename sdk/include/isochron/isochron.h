/* The Isochron plugin ABI, version 2: plain C, so a plugin built with any compiler and any C++
 * standard library loads into any Isochron that speaks the same version.
 *
 * What crosses the boundary is only what this header defines: structs of plain data and function
 * pointers, C strings and numbers. No C++ type, no exception and no allocation changes hands:
 * memory the host hands out is the host's (it says how long it lives), memory the plugin hands
 * in is the plugin's (the host copies what it keeps). <isochron/isochron.hpp> is a header-only
 * C++ layer over this header for writing operators comfortably; it is compiled into the plugin.
 *
 * A plugin is a shared library that exports one function, isochron_plugin_entry(), returning an
 * isochron_plugin: its ABI version (the first member in every version, so a host can read it from
 * a plugin of any version), its name and version, its operator types and a way to find optional
 * extensions by versioned id ("isochron.check/1"), as CLAP does. Each operator type describes
 * itself (ports, parameters with units and ranges) and creates instances; an instance is an
 * isochron_operator, a table of lifecycle hooks called with an isochron_host, the table of host
 * services for that one node (parameters, ports, emit, progress, allocation, logging).
 *
 * Lifecycle, with the same verbs as the engine's operators:
 *   create -> activate -> { process | produce | progress | parameter_changed }* -> finish
 *          -> deactivate -> destroy
 * finish may be skipped when a run is stopped; deactivate and destroy are always called once
 * create has succeeded.
 *
 * Contracts, as on every declaration below:
 *   [setup thread]   the thread that loads plugins and builds engines (the UI thread in the editor)
 *   [engine thread]  the thread running the graph; one hook of one instance at a time
 *   [no allocation]  must not call the system allocator in the steady state of a run
 *   [may allocate]   may call the system allocator
 * Hooks return true on success. To fail, a hook logs an ISOCHRON_LOG_ERROR message through its
 * host and returns false: the host disables that node only, names it and the plugin in the
 * message, and runs the rest of the graph to the end.
 *
 * Time: every sample belongs to a stream with a timebase (rate, zero time, clock). Sample index i
 * is at time zero_time_ns + floor(i * 1e9 / rate_hz) ns on the timebase's clock; use the
 * timebase's own time_of / first_index_at_or_after, which compute exactly what the engine does.
 * Items carry sample ranges, and progress ("no item with time < t will follow") is in ns. */
#ifndef ISOCHRON_ISOCHRON_H
#define ISOCHRON_ISOCHRON_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ABI this header defines. A host refuses a plugin built for another version. Version 1 was
 * the engine's own C++ classes; its plugins must be rebuilt against this header. */
#define ISOCHRON_ABI_VERSION 2u

/* The name of the one exported function (what the host looks up with dlsym). */
#define ISOCHRON_ENTRY_NAME "isochron_plugin_entry"

#if defined(_WIN32)
#define ISOCHRON_EXPORT __declspec(dllexport)
#else
#define ISOCHRON_EXPORT __attribute__((visibility("default")))
#endif

/* ---- Plain values ---------------------------------------------------------------------------- */

/* Element type of a signal or a frame. */
typedef enum isochron_sample_type {
    ISOCHRON_SAMPLE_NONE = 0,
    ISOCHRON_SAMPLE_F32 = 1, /* float */
    ISOCHRON_SAMPLE_F64 = 2, /* double */
    ISOCHRON_SAMPLE_I16 = 3, /* int16_t */
    ISOCHRON_SAMPLE_C32 = 4  /* two floats: real, imaginary */
} isochron_sample_type;

/* What an item is (see isochron_item). */
typedef enum isochron_item_kind {
    ISOCHRON_ITEM_SIGNAL = 0,     /* samples of a stream: `segment` */
    ISOCHRON_ITEM_FRAME = 1,      /* values describing `range` (e.g. a spectrum): `segment` */
    ISOCHRON_ITEM_SCALAR = 2,     /* one number describing `range`: `value` */
    ISOCHRON_ITEM_TIME_RANGE = 3, /* a range of interest: `range` */
    ISOCHRON_ITEM_EVENT = 4,      /* a labelled range with numeric fields: `record`, score in `value` */
    ISOCHRON_ITEM_CUSTOM = 6      /* an item type a plugin declares: `record` (label = type name), `value` */
} isochron_item_kind;

/* Severity of a log message. */
typedef enum isochron_log_level {
    ISOCHRON_LOG_WARNING = 1, /* shown with the node (runner, editor); the node keeps running */
    ISOCHRON_LOG_ERROR = 2    /* why the hook about to return false failed; the node is disabled */
} isochron_log_level;

/* The rate and phase of a stream on a named clock. Timebases are interned by the host: one pointer
 * per (rate, zero time, clock), valid until the process ends, so compare them by address.
 * [immutable, any thread] */
typedef struct isochron_timebase {
    double rate_hz;       /* samples per second, > 0 */
    int64_t zero_time_ns; /* time of sample 0 on `clock`, in ns */
    const char *clock;    /* "media" (0 at a file's first sample), "wall" (ns since 1970), "device:..." */
    /* Time of sample `index`, in ns (floor). [any thread] [no allocation] */
    int64_t (*time_of)(const struct isochron_timebase *timebase, int64_t index);
    /* The first sample index whose time is >= time_ns. [any thread] [no allocation] */
    int64_t (*first_index_at_or_after)(const struct isochron_timebase *timebase, int64_t time_ns);
    const void *host_data; /* the host's; do not touch */
} isochron_timebase;

/* Samples [start, start + length) of the stream on `timebase` (null only for an item about no
 * samples in time). [value type] */
typedef struct isochron_range {
    const isochron_timebase *timebase;
    int64_t start;
    int64_t length; /* >= 0 */
} isochron_range;

/* A run of samples (a signal) or values (a frame), contiguous in memory. Segments the host hands
 * in are valid until the hook returns; segment_retain keeps one longer. [value type] */
typedef struct isochron_segment {
    uint32_t sample_type; /* isochron_sample_type */
    int64_t start_index;  /* index of the first sample in `timebase`'s stream */
    int64_t length;       /* number of samples (complex: pairs), >= 0 */
    const isochron_timebase *timebase;
    /* The first sample; `length` elements of `sample_type` follow. Written only through a segment
     * from allocate_segment, before it is emitted. */
    void *samples;
    /* The host's reference to these samples: emitting a segment with a handle shares the samples
     * instead of copying them. Null for memory the plugin owns (the host then copies on emit). */
    const void *handle;
} isochron_segment;

/* The type of a record field. */
typedef enum isochron_field_type {
    ISOCHRON_FIELD_NUMBER = 0, /* `number` */
    ISOCHRON_FIELD_TEXT = 1    /* `text`: custom items only; events carry numbers */
} isochron_field_type;

/* One named value of an event or custom item; put the unit in the name ("frequency_hz"). */
typedef struct isochron_field {
    const char *name;
    uint32_t type; /* isochron_field_type */
    double number;
    const char *text;
} isochron_field;

/* The payload of an event (label + numeric fields, at most ISOCHRON_MAX_EVENT_FIELDS) or of a
 * custom item (type name + fields). What the host hands in is valid until the hook returns; what
 * a plugin emits is copied. [value type] */
typedef struct isochron_record {
    const char *label; /* event: its label, e.g. "onset"; custom item: its type name, e.g. "tones.tone" */
    uint32_t field_count;
    const isochron_field *fields;
} isochron_record;

#define ISOCHRON_MAX_EVENT_FIELDS 14
#define ISOCHRON_MAX_CUSTOM_FIELDS 16
#define ISOCHRON_MAX_CUSTOM_TEXT_BYTES 1024 /* all text fields of one custom item together */

/* A value on an edge. Which members mean something depends on `kind` (see isochron_item_kind);
 * the others are zero or null. [value type] */
typedef struct isochron_item {
    uint32_t kind; /* isochron_item_kind */
    /* The samples the item is about. For a signal it is the segment's own range (the host fills
     * it; on emit it may be left zero). */
    isochron_range range;
    double value;                      /* scalar value, event score, custom item value */
    const isochron_segment *segment;   /* signal, frame */
    const isochron_record *record;     /* event, custom */
} isochron_item;

/* ---- Describing operators -------------------------------------------------------------------- */

/* Flags of a port. */
#define ISOCHRON_PORT_OPTIONAL 1u /* inputs: may be left unconnected (it then counts as ended) */

/* One declared port. [immutable, static storage in the plugin] */
typedef struct isochron_port {
    const char *name;
    /* As graph files spell it: "signal<f32>", "frame<c32>", "scalar", "time_range", "event",
     * "custom<tones.tone>", and for inputs the wildcards "signal<any>", "frame<any>", "any". */
    const char *type;
    const char *doc;         /* one line: what flows here, with units */
    uint32_t flags;          /* ISOCHRON_PORT_* */
    const char *count_param; /* repeated port: the int parameter saying how many (name0, name1, ...); else null */
    const char *type_from;   /* outputs: take the resolved type of this input; else null */
    const char *type_param;  /* the type is the value of this string/choice parameter; else null */
} isochron_port;

/* The kind of a parameter, which also picks its editor in the UI. */
typedef enum isochron_param_kind {
    ISOCHRON_PARAM_BOOL = 0,
    ISOCHRON_PARAM_INT = 1,
    ISOCHRON_PARAM_REAL = 2,
    ISOCHRON_PARAM_STRING = 3,
    ISOCHRON_PARAM_CHOICE = 4,
    ISOCHRON_PARAM_REAL_LIST = 5,
    ISOCHRON_PARAM_PATH = 6
} isochron_param_kind;

/* Flags of a parameter. */
#define ISOCHRON_PARAM_LIVE 1u        /* may change while the graph runs (parameter_changed) */
#define ISOCHRON_PARAM_HAS_MINIMUM 2u /* `minimum` is set: int and real, and each real_list element */
#define ISOCHRON_PARAM_HAS_MAXIMUM 4u /* `maximum` is set */

/* One declared parameter. [immutable, static storage in the plugin] */
typedef struct isochron_param {
    const char *name;
    uint32_t kind;  /* isochron_param_kind */
    uint32_t flags; /* ISOCHRON_PARAM_* */
    double minimum; /* inclusive, when ISOCHRON_PARAM_HAS_MINIMUM */
    double maximum; /* inclusive, when ISOCHRON_PARAM_HAS_MAXIMUM */
    const char *unit; /* "samples", "Hz", "s", "dB", ...; null or "" if unitless */
    const char *doc;  /* one line: what it does */
    double default_number;              /* bool (0 or 1), int, real */
    const char *default_text;           /* string, choice, path */
    const double *default_list;         /* real_list */
    uint32_t default_list_length;
    uint32_t choice_count;              /* choice: the allowed values */
    const char *const *choices;
} isochron_param;

/* A parameter's current value, as the host hands it out. [valid until the next hook returns] */
typedef struct isochron_param_value {
    uint32_t kind;       /* isochron_param_kind */
    int64_t integer;     /* int; bool as 0 or 1 */
    double number;       /* real; int and bool widened */
    const char *text;    /* string, choice, path */
    const double *list;  /* real_list */
    uint32_t list_length;
} isochron_param_value;

/* A port of one node, after repeated ports are expanded and wildcards resolved.
 * [valid while the node is active] */
typedef struct isochron_port_info {
    const char *name;     /* "in", or "in0", "in1", ... for a repeated port */
    const char *type;     /* the concrete type, e.g. "signal<f32>" */
    uint32_t kind;        /* isochron_item_kind */
    uint32_t sample_type; /* signals and frames: isochron_sample_type */
    uint32_t group_index; /* index within a repeated group, else 0 */
    bool connected;       /* inputs: an edge feeds it */
} isochron_port_info;

/* Which ports an isochron_host call is about. */
typedef enum isochron_direction { ISOCHRON_INPUT = 0, ISOCHRON_OUTPUT = 1 } isochron_direction;

/* What a source reports after produce. */
typedef enum isochron_source_state {
    ISOCHRON_SOURCE_PRODUCED = 0, /* emitted what it had; call again */
    ISOCHRON_SOURCE_WAITING = 1,  /* nothing ready: call again at wake_at_ns (wall clock) */
    ISOCHRON_SOURCE_FINISHED = 2  /* no more data, ever */
} isochron_source_state;

/* ---- The host, as one node sees it ----------------------------------------------------------- */

/* Host services for one node; passed to create and valid until destroy returns. Every function
 * takes the host itself first. [engine thread unless stated] */
typedef struct isochron_host {
    uint32_t abi_version; /* the ABI the host speaks (>= the plugin's) */
    void *host_data;      /* the host's; do not touch */

    /* The node's id in the graph, for messages. [no allocation] */
    const char *(*node_id)(const struct isochron_host *host);
    /* The value of parameter `name` (defaults filled in); false for an unknown name. [no allocation] */
    bool (*get_param)(const struct isochron_host *host, const char *name, isochron_param_value *value);
    /* Number of input or output ports after repeated ports are expanded. [no allocation] */
    uint32_t (*port_count)(const struct isochron_host *host, uint32_t direction);
    /* One port; false when `index` is out of range. [no allocation] */
    bool (*get_port)(const struct isochron_host *host, uint32_t direction, uint32_t index, isochron_port_info *info);
    /* Progress promised so far on an input (INT64_MAX once it ended). [no allocation] */
    int64_t (*input_progress)(const struct isochron_host *host, uint32_t input_port);

    /* Send an item on an output port. Events and custom items are copied; a segment with a handle
     * is shared, one without is copied. False (and an error logged for the node) when the item
     * does not fit the port or the record has too many fields. [no allocation] */
    bool (*emit)(const struct isochron_host *host, uint32_t output_port, const isochron_item *item);
    /* Send the item process() got on output_port as it is, handing it over instead of sharing it:
     * the cheapest way to pass an item through (no reference counting). It is the hook's last use
     * of the item: do not read it (or emit or forward it) afterwards. The host may send it only
     * when the hook returns, but always before anything the hook sends after forwarding, so the
     * outputs' order is the one the hook chose. False (and an error) for another item or a port
     * it does not fit. [no allocation] */
    bool (*forward)(const struct isochron_host *host, uint32_t output_port, const isochron_item *item);
    /* Promise that no item with time < time_ns will follow on any output; ignored unless it
     * advances the promise. [no allocation] */
    void (*emit_progress)(const struct isochron_host *host, int64_t time_ns);

    /* Fresh, uninitialized samples for a segment the plugin fills and emits: `segment` gets the
     * writable `samples` and a handle. Lives until emitted or until the hook returns, unless
     * retained. False when the length is negative or memory is exhausted. [no allocation: pooled] */
    bool (*allocate_segment)(const struct isochron_host *host, uint32_t sample_type, int64_t length, int64_t start_index,
                             const isochron_timebase *timebase, isochron_segment *segment);
    /* Samples [start_index, start_index + length) of `segment`, sharing its storage; false when the
     * range is not inside it. Lives like an allocated segment. [no allocation] */
    bool (*subsegment)(const struct isochron_host *host, const isochron_segment *segment, int64_t start_index, int64_t length,
                       isochron_segment *part);
    /* Keep a segment the host handed in past the hook's return: `kept` is the same samples with a
     * handle of their own, valid until segment_release. [no allocation: pooled] */
    bool (*segment_retain)(const struct isochron_host *host, const isochron_segment *segment, isochron_segment *kept);
    /* Give up a retained segment. [no allocation] */
    void (*segment_release)(const struct isochron_host *host, const isochron_segment *kept);
    /* The interned timebase for a rate, zero time and clock name (e.g. for a source's stream).
     * Null when rate_hz is not a positive finite number. [may allocate on a triple's first use] */
    const isochron_timebase *(*get_timebase)(const struct isochron_host *host, double rate_hz, int64_t zero_time_ns,
                                             const char *clock);

    /* Sources, inside produce: how many blocks the engine admits in this call (rate control; at
     * most 16, also unpaced, so that a call's output is a bounded batch). */
    int64_t (*production_budget)(const struct isochron_host *host);
    /* Sources, before each block: false while the engine's memory guard holds (stop and return). */
    bool (*admission_open)(const struct isochron_host *host);

    /* A message for this node (see isochron_log_level); the host copies it. [may allocate] */
    void (*log)(const struct isochron_host *host, uint32_t level, const char *message);
    /* A host extension by versioned id, or null when this host does not offer it: "isochron.routes/1"
     * (isochron/ext/routes.h). [setup thread] */
    const void *(*get_extension)(const struct isochron_host *host, const char *id);
} isochron_host;

/* ---- Operators ------------------------------------------------------------------------------- */

/* One instance of an operator type, for one node. Hooks a type does not need may be null: then
 * progress forwards the input's progress unchanged, and the others do nothing (a type with inputs
 * must have process, a source must have produce). [engine thread unless stated] */
typedef struct isochron_operator {
    void *operator_data; /* the plugin's */

    /* Before the run: read parameters, size buffers. [may allocate] */
    bool (*activate)(const struct isochron_operator *op);
    /* One data item on `input_port`; may emit any number of items. [no allocation] */
    bool (*process)(const struct isochron_operator *op, uint32_t input_port, const isochron_item *item);
    /* Sources only: emit up to one batch and say whether more will come (`wake_at_ns`: wall-clock
     * time worth calling again, for ISOCHRON_SOURCE_WAITING). [no allocation] */
    bool (*produce)(const struct isochron_operator *op, uint32_t *state, int64_t *wake_at_ns);
    /* The minimum progress over the inputs rose to `input_ns`: set `promised_ns` to what this
     * operator can promise on its outputs (<= input_ns unless it knows better). [no allocation] */
    bool (*progress)(const struct isochron_operator *op, int64_t input_ns, int64_t *promised_ns);
    /* Every input has ended: emit what is still buffered. [may allocate] */
    bool (*finish)(const struct isochron_operator *op);
    /* Live parameter `name` changed (get_param returns the new value). [may allocate] */
    bool (*parameter_changed)(const struct isochron_operator *op, const char *name);
    /* After the run: close files, free what activate took. [may allocate] */
    void (*deactivate)(const struct isochron_operator *op);
    /* Free the instance. [setup thread or engine thread] [may allocate] */
    void (*destroy)(const struct isochron_operator *op);
} isochron_operator;

/* An operator type: what it declares (for palettes, validation and manifests) and its factory.
 * [immutable, static storage in the plugin] */
typedef struct isochron_operator_type {
    const char *type_name;     /* unique, "family.name", e.g. "biquad.filter" */
    const char *category;      /* palette group, e.g. "filters" */
    const char *summary;       /* one line */
    const char *documentation; /* longer text for the inspector; may be null */
    uint32_t input_count;
    const isochron_port *inputs; /* none: a source */
    uint32_t output_count;
    const isochron_port *outputs;
    uint32_t param_count;
    const isochron_param *params;
    /* A new, inactive instance for the node `host` serves; null to refuse (log the reason as an
     * error first). [setup thread] [may allocate] */
    const isochron_operator *(*create)(const struct isochron_operator_type *type, const isochron_host *host);
    const void *type_data; /* the plugin's, for create to find its own state; the host ignores it */
} isochron_operator_type;

/* ---- The entry point ------------------------------------------------------------------------- */

/* What a plugin offers. [immutable, static storage in the plugin] */
typedef struct isochron_plugin {
    uint32_t abi_version; /* ISOCHRON_ABI_VERSION when built; the first member in every ABI version */
    const char *name;     /* e.g. "biquad"; the file is name.so and its manifest name.manifest.json */
    const char *version;  /* the plugin's own version, e.g. "1.2.0" */
    uint32_t operator_type_count;
    const isochron_operator_type *operator_types;
    /* The extension struct with versioned id `id` ("isochron.check/1"), or null. May be null.
     * [setup thread] [no allocation] */
    const void *(*get_extension)(const char *id);
} isochron_plugin;

/* The exported entry point's type: returns the plugin's table, never null. Called once per load,
 * before anything else. [setup thread] [no allocation] */
typedef const isochron_plugin *(*isochron_plugin_entry_function)(void);

#ifdef __cplusplus
}
#endif

#endif /* ISOCHRON_ISOCHRON_H */
