// How a scalar or event item is stored in an archive (docs/archive.md): io.archive_sink and the
// editor's live "Record this wire" store the same rows, so a replay cannot tell them apart.
#pragma once

#include <string>

#include "engine/items/item.h"

namespace isochron {

/// Whether the scalar or event `item` is stored: an event marked not to persist (attribute
/// "persist" = 0) passes by unrecorded. [any thread] [no allocation]
bool archivePersists(const Item& item);

/// The scalar or event `item` as the JSON text the archive stores, its keys in the order given: an
/// event's attributes as the producer set them, so a replay lists them so too. [any thread]
std::string archivedItemJson(const Item& item);

}  // namespace isochron
