// The custom item type "tones.tone": one window's dominant tone, as a record of three fields.
#pragma once

namespace tones {

/// The item type's name; ports carrying it are typed "custom<tones.tone>".
inline constexpr const char* kToneType = "tones.tone";
/// Its fields: frequency from the spacing of upward zero crossings (Hz), largest absolute sample
/// and root mean square (both in the signal's unit).
inline constexpr const char* kFrequencyField = "frequency_hz";
inline constexpr const char* kPeakField = "peak";
inline constexpr const char* kRmsField = "rms";

}  // namespace tones
