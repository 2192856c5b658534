#include "engine/archive/archive_time.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>

namespace isochron {
namespace {

constexpr std::int64_t kNsPerSecond = 1'000'000'000;
constexpr double kLargestSeconds = 1e10;  // about 317 years either way

/// Days from 1970-01-01 to the civil date (proleptic Gregorian; H. Hinnant's days_from_civil).
std::int64_t daysFromCivil(std::int64_t year, int month, int day) {
    year -= month <= 2;
    const std::int64_t era = (year >= 0 ? year : year - 399) / 400;
    const std::int64_t yearOfEra = year - era * 400;
    const std::int64_t dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
    const std::int64_t dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
    return era * 146097 + dayOfEra - 719468;
}

/// The civil date of a day count from 1970-01-01 (H. Hinnant's civil_from_days).
void civilFromDays(std::int64_t days, std::int64_t& year, int& month, int& day) {
    days += 719468;
    const std::int64_t era = (days >= 0 ? days : days - 146096) / 146097;
    const std::int64_t dayOfEra = days - era * 146097;
    const std::int64_t yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365;
    const std::int64_t dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
    const std::int64_t monthIndex = (5 * dayOfYear + 2) / 153;
    day = static_cast<int>(dayOfYear - (153 * monthIndex + 2) / 5 + 1);
    month = static_cast<int>(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9);
    year = yearOfEra + era * 400 + (month <= 2);
}

bool isLeapYear(std::int64_t year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

int daysInMonth(std::int64_t year, int month) {
    static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return month == 2 && isLeapYear(year) ? 29 : kDays[month - 1];
}

[[noreturn]] void refuse(std::string_view text, const std::string& why) {
    throw std::invalid_argument("time '" + std::string(text) + "': " + why +
                                " (give seconds from the stream's start, e.g. 12.5, or an ISO 8601 time, e.g. 2026-11-28T03:12:00Z)");
}

/// Reads the ISO 8601 date-time `text` character by character.
class IsoReader {
public:
    explicit IsoReader(std::string_view text) : text_(text) {}

    TimeNs read() {
        const std::int64_t year = digits(4, "a four-digit year");
        expect('-');
        const int month = static_cast<int>(digits(2, "a two-digit month"));
        expect('-');
        const int day = static_cast<int>(digits(2, "a two-digit day"));
        if (month < 1 || month > 12) refuse(text_, "month " + std::to_string(month) + " is not 1 to 12");
        if (day < 1 || day > daysInMonth(year, month)) refuse(text_, "day " + std::to_string(day) + " is not in that month");
        if (at_ >= text_.size() || (text_[at_] != 'T' && text_[at_] != 't' && text_[at_] != ' ')) {
            refuse(text_, "expected 'T' and a time of day after the date");
        }
        ++at_;
        const int hour = static_cast<int>(digits(2, "a two-digit hour"));
        expect(':');
        const int minute = static_cast<int>(digits(2, "two-digit minutes"));
        int second = 0;
        std::int64_t fractionNs = 0;
        if (at_ < text_.size() && text_[at_] == ':') {
            ++at_;
            second = static_cast<int>(digits(2, "two-digit seconds"));
            if (at_ < text_.size() && (text_[at_] == '.' || text_[at_] == ',')) {
                ++at_;
                std::int64_t scale = kNsPerSecond;
                int count = 0;
                while (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_]))) {
                    if (++count > 9) refuse(text_, "more than 9 digits of a second (nanoseconds are the finest)");
                    scale /= 10;
                    fractionNs += (text_[at_++] - '0') * scale;
                }
                if (count == 0) refuse(text_, "expected digits after the decimal point");
            }
        }
        if (hour > 23) refuse(text_, "hour " + std::to_string(hour) + " is not 0 to 23");
        if (minute > 59) refuse(text_, "minute " + std::to_string(minute) + " is not 0 to 59");
        if (second > 59) refuse(text_, "second " + std::to_string(second) + " is not 0 to 59 (leap seconds are not counted)");
        const std::int64_t offsetSeconds = zoneOffset();
        if (at_ != text_.size()) refuse(text_, "unexpected '" + std::string(text_.substr(at_)) + "' at the end");
        // Years 1678 to 2261 fit in int64 nanoseconds; check on seconds first (no overflow there).
        const std::int64_t seconds = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offsetSeconds;
        constexpr std::int64_t kMax = std::numeric_limits<TimeNs>::max() / kNsPerSecond - 1;
        if (seconds < -kMax || seconds > kMax) refuse(text_, "outside the years 1678 to 2261 that nanoseconds since 1970 can hold");
        return seconds * kNsPerSecond + fractionNs;
    }

private:
    std::int64_t digits(int count, const char* what) {
        std::int64_t value = 0;
        for (int i = 0; i < count; ++i) {
            if (at_ >= text_.size() || !std::isdigit(static_cast<unsigned char>(text_[at_]))) refuse(text_, std::string("expected ") + what);
            value = value * 10 + (text_[at_++] - '0');
        }
        return value;
    }

    void expect(char c) {
        if (at_ >= text_.size() || text_[at_] != c) refuse(text_, std::string("expected '") + c + "'");
        ++at_;
    }

    /// Seconds east of UTC: nothing or Z = 0, else ±hh, ±hh:mm or ±hhmm.
    std::int64_t zoneOffset() {
        if (at_ >= text_.size()) return 0;
        if (text_[at_] == 'Z' || text_[at_] == 'z') {
            ++at_;
            return 0;
        }
        if (text_[at_] != '+' && text_[at_] != '-') refuse(text_, "expected Z or a zone offset like +01:00 after the time");
        const int sign = text_[at_++] == '-' ? -1 : 1;
        const std::int64_t hours = digits(2, "a two-digit zone hour");
        std::int64_t minutes = 0;
        if (at_ < text_.size()) {
            if (text_[at_] == ':') ++at_;
            minutes = digits(2, "two-digit zone minutes");
        }
        if (hours > 23 || minutes > 59) refuse(text_, "zone offset out of range");
        return sign * (hours * 3600 + minutes * 60);
    }

    std::string_view text_;
    std::size_t at_ = 0;
};

/// Whether `text` looks like a date (four digits and a dash) rather than a number.
bool looksLikeDate(std::string_view text) {
    return text.size() >= 5 && std::isdigit(static_cast<unsigned char>(text[0])) && std::isdigit(static_cast<unsigned char>(text[1])) &&
           std::isdigit(static_cast<unsigned char>(text[2])) && std::isdigit(static_cast<unsigned char>(text[3])) && text[4] == '-';
}

}  // namespace

ArchiveTime parseArchiveTime(std::string_view text) {
    if (text.empty()) refuse(text, "empty");
    ArchiveTime time;
    if (looksLikeDate(text)) {
        time.kind = ArchiveTime::Kind::Utc;
        time.unixNs = IsoReader(text).read();
        return time;
    }
    // A plain decimal number: digits, one point, an exponent; no hex, inf or nan (strtod takes those).
    for (char c : text) {
        if (!std::isdigit(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '+' && c != 'e' && c != 'E') {
            refuse(text, std::string("unexpected '") + c + "'");
        }
    }
    const std::string owned(text);
    char* end = nullptr;
    const double seconds = std::strtod(owned.c_str(), &end);
    if (end != owned.c_str() + owned.size()) refuse(text, "not a number of seconds");
    if (!std::isfinite(seconds) || std::fabs(seconds) > kLargestSeconds) refuse(text, "more than 1e10 seconds from the start");
    time.seconds = seconds;
    return time;
}

std::string formatUtc(TimeNs unixNs) {
    std::int64_t seconds = unixNs / kNsPerSecond;
    std::int64_t fraction = unixNs % kNsPerSecond;
    if (fraction < 0) {
        fraction += kNsPerSecond;
        --seconds;
    }
    std::int64_t days = seconds / 86400;
    std::int64_t secondOfDay = seconds % 86400;
    if (secondOfDay < 0) {
        secondOfDay += 86400;
        --days;
    }
    std::int64_t year = 0;
    int month = 0;
    int day = 0;
    civilFromDays(days, year, month, day);
    char text[64];
    std::snprintf(text, sizeof text, "%04lld-%02d-%02dT%02lld:%02lld:%02lld.%09lldZ", static_cast<long long>(year), month, day,
                  static_cast<long long>(secondOfDay / 3600), static_cast<long long>(secondOfDay / 60 % 60), static_cast<long long>(secondOfDay % 60),
                  static_cast<long long>(fraction));
    return text;
}

std::int64_t sampleIndexAt(const ArchivedStreamInfo& stream, const ArchiveTime& time) {
    double index = 0;
    if (time.kind == ArchiveTime::Kind::Seconds) {
        index = std::ceil(time.seconds * stream.rateHz - 1e-6);  // 1e-6: "12.5" at 8 kHz is sample 100000, not 100001
    } else {
        if (stream.clock != Clock::wall().name()) {
            throw ArchiveError("stream '" + stream.name + "' is on the clock '" + stream.clock +
                               "', not the wall clock: give times as seconds from its start, not as dates");
        }
        // The difference first, exactly: ns since 1970 are too many for a double's 53 bits (~256 ns steps).
        TimeNs sinceZero = 0;
        if (__builtin_sub_overflow(time.unixNs, stream.zeroTimeNs, &sinceZero)) {
            throw ArchiveError("stream '" + stream.name + "': that time is too far from its start");
        }
        index = static_cast<double>(std::ceil(static_cast<long double>(sinceZero) * 1e-9L * static_cast<long double>(stream.rateHz) - 1e-6L));
    }
    if (!(std::fabs(index) < 9e18)) throw ArchiveError("stream '" + stream.name + "': that time is too far from its start");
    return static_cast<std::int64_t>(index);
}

}  // namespace isochron
