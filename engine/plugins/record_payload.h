// RecordPayload: the payload of a custom item a plugin emits through the C ABI: its type name and
// fields (numbers and texts), copied out of the plugin's isochron_record into one pooled block.
#pragma once

#include <cstddef>
#include <string>

#include "engine/items/custom_payload.h"
#include "isochron/isochron.h"

namespace isochron {

/// A custom item's record owned by the engine; fields read back as an isochron_record without
/// copying, or through visitFields like any payload. [any thread; immutable once made]
class RecordPayload final : public CustomPayload {
public:
    /// A copy of `record`'s fields under `typeName` (interned, e.g. the output port's custom type).
    /// Throws std::invalid_argument when there are more than ISOCHRON_MAX_CUSTOM_FIELDS fields or
    /// more than ISOCHRON_MAX_CUSTOM_TEXT_BYTES of names and texts. [pooled]
    static RecordPayload* create(const char* typeName, const isochron_record& record);

    std::string_view typeName() const noexcept override { return record_.label; }
    void visitFields(CustomFieldVisitor& visitor) const override;
    /// The record as the ABI hands it to plugins. [no allocation]
    const isochron_record& record() const noexcept { return record_; }

private:
    RecordPayload() = default;

    isochron_record record_{};
    isochron_field fields_[ISOCHRON_MAX_CUSTOM_FIELDS];
    char text_[ISOCHRON_MAX_CUSTOM_TEXT_BYTES];  // the fields' names and texts, each NUL-terminated
};

}  // namespace isochron
