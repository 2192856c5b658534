#include "nodes/families.h"
#include "nodes/io/archive_sink.h"
#include "nodes/io/archive_source.h"
#include "nodes/io/audio_file_source.h"
#include "nodes/io/audio_output.h"
#include "nodes/io/csv_sink.h"
#include "nodes/io/item_tap.h"
#include "nodes/io/jsonl_event_sink.h"
#include "nodes/io/jsonl_event_source.h"
#include "nodes/io/null_sink.h"
#include "nodes/io/sound_file_sink.h"
#include "nodes/io/wav_file_sink.h"

namespace isochron {

void registerIoNodes(OperatorRegistry& registry) {
    registry.add(audioFileSourceDescriptor());
    registry.add(wavFileSinkDescriptor());
    registry.add(soundFileSinkDescriptor());
    registry.add(csvSinkDescriptor());
    registry.add(audioOutputDescriptor());
    registry.add(jsonlEventSinkDescriptor());
    registry.add(jsonlEventSourceDescriptor());
    registry.add(nullSinkDescriptor());
    registry.add(itemTapDescriptor());
    registry.add(archiveSinkDescriptor());
    setInputCheck("io.archive_sink", checkArchiveSinkInputs);
    adoptArchiveSinkSurroundings();
    registry.add(archiveSourceDescriptor());
}

}  // namespace isochron
