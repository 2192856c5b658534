#include "engine/plugins/record_payload.h"

#include <cstring>
#include <stdexcept>

namespace isochron {

RecordPayload* RecordPayload::create(const char* typeName, const isochron_record& record) {
    if (record.field_count > ISOCHRON_MAX_CUSTOM_FIELDS) {
        throw std::invalid_argument("a custom item has " + std::to_string(record.field_count) + " fields, more than the " +
                                    std::to_string(ISOCHRON_MAX_CUSTOM_FIELDS) + " allowed");
    }
    RecordPayload* payload = new RecordPayload();
    std::size_t used = 0;
    // Copies `text` into the payload's text area; null when it does not fit.
    auto keep = [&](const char* text) -> const char* {
        const std::size_t length = std::strlen(text ? text : "") + 1;
        if (used + length > sizeof payload->text_) return nullptr;
        char* copy = payload->text_ + used;
        std::memcpy(copy, text ? text : "", length);
        used += length;
        return copy;
    };
    for (std::uint32_t i = 0; i < record.field_count; ++i) {
        const isochron_field& field = record.fields[i];
        isochron_field& kept = payload->fields_[i];
        kept = {keep(field.name), field.type == ISOCHRON_FIELD_TEXT ? ISOCHRON_FIELD_TEXT : ISOCHRON_FIELD_NUMBER, field.number, nullptr};
        if (kept.type == ISOCHRON_FIELD_TEXT) kept.text = keep(field.text);
        if (!kept.name || (kept.type == ISOCHRON_FIELD_TEXT && !kept.text)) {
            payload->release();
            throw std::invalid_argument("a custom item's field names and texts take more than " + std::to_string(ISOCHRON_MAX_CUSTOM_TEXT_BYTES) +
                                        " bytes");
        }
    }
    payload->record_ = {typeName, record.field_count, payload->fields_};
    return payload;
}

void RecordPayload::visitFields(CustomFieldVisitor& visitor) const {
    for (std::uint32_t i = 0; i < record_.field_count; ++i) {
        const isochron_field& field = fields_[i];
        if (field.type == ISOCHRON_FIELD_TEXT) visitor.text(field.name, field.text);
        else visitor.number(field.name, field.number);
    }
}

}  // namespace isochron
