// Plays a clip through the default PortAudio output device (the event list's Play button). The
// stream runs on PortAudio's thread, reading the clip it was given; nothing waits for it to end.
// Without an output device (CI, a headless server) play() says why and nothing else happens.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace isochron::ui {

/// One mono clip playing at a time on the default output. [ui thread]
class AudioOutput {
public:
    AudioOutput();
    ~AudioOutput();
    AudioOutput(const AudioOutput&) = delete;
    AudioOutput& operator=(const AudioOutput&) = delete;

    /// Stop what is playing and start `samples` at `rateHz`. Returns empty when it plays, else why
    /// not (no output device, the device refused the rate, PortAudio did not start).
    std::string play(std::vector<float> samples, double rateHz);
    /// Stop at once (nothing happens when nothing plays).
    void stop();
    /// Whether a clip is still playing.
    bool playing() const;

private:
    struct Stream;
    std::unique_ptr<Stream> stream_;
};

}  // namespace isochron::ui
