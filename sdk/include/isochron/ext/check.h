/* Extension "isochron.check/1": how isochron-plugin-check should exercise a plugin's operators.
 *
 * Without it the checker runs every operator with its default parameters and expects outputs that
 * do not depend on how the input was split into segments. Operators whose results legitimately
 * depend on segment boundaries (one value per input segment, say) declare that here, and ones that
 * need other parameters to do anything interesting name them. */
#ifndef ISOCHRON_EXT_CHECK_H
#define ISOCHRON_EXT_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The versioned id to pass to isochron_plugin.get_extension. */
#define ISOCHRON_EXT_CHECK "isochron.check/1"

/* Check settings for one operator type. [immutable, static storage] */
typedef struct isochron_check_settings {
    const char *type_name; /* the operator type these settings are for */
    const char *params;    /* JSON object of parameter values to check with, e.g. {"q": 2}; null = defaults */
    bool split_invariant;  /* outputs must be the same however the input is split into segments */
    double tolerance;      /* largest absolute difference between outputs of two splits, in the output's unit (>= 0) */
} isochron_check_settings;

/* What the extension pointer points to. [immutable, static storage] */
typedef struct isochron_check_extension {
    uint32_t operator_count;                  /* entries in `operators` */
    const isochron_check_settings *operators; /* operators without an entry use the defaults above */
} isochron_check_extension;

#ifdef __cplusplus
}
#endif

#endif /* ISOCHRON_EXT_CHECK_H */
