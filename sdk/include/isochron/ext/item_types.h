/* Extension "isochron.item-types/1": the custom item types a plugin defines.
 *
 * A port typed "custom<name>" carries ISOCHRON_ITEM_CUSTOM items whose record's label is `name`.
 * Declaring the type lets the host document it (palette, --list-plugins) and refuse ports that
 * name a custom type nobody declared, which is nearly always a typo. Types are global: another
 * plugin loaded later may consume a type this plugin declares. */
#ifndef ISOCHRON_EXT_ITEM_TYPES_H
#define ISOCHRON_EXT_ITEM_TYPES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The versioned id to pass to isochron_plugin.get_extension. */
#define ISOCHRON_EXT_ITEM_TYPES "isochron.item-types/1"

/* One custom item type. [immutable, static storage] */
typedef struct isochron_item_type {
    const char *name; /* dotted name, e.g. "tones.tone"; ports spell it "custom<tones.tone>" */
    const char *doc;  /* one line: what one item stands for and its fields, with units */
} isochron_item_type;

/* What the extension pointer points to. [immutable, static storage] */
typedef struct isochron_item_types_extension {
    uint32_t type_count; /* entries in `types` */
    const isochron_item_type *types;
} isochron_item_types_extension;

#ifdef __cplusplus
}
#endif

#endif /* ISOCHRON_EXT_ITEM_TYPES_H */
