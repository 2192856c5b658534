#include "engine/operators/parameter.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <limits>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace isochron {
namespace {

// Whole numbers up to 15 digits in full (a block limit of 16777216, not 1.67772e+07).
std::string formatNumber(double v) {
    std::ostringstream out;
    out << std::setprecision(15) << v;
    return out.str();
}

// `text` in quotes for a message, with control characters escaped: a value read with its line
// break ("8000\n") must not break the message in two.
std::string quotedForMessage(std::string_view text) {
    std::string out = "'";
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '\n') out += "\\n";
        else if (c == '\r') out += "\\r";
        else if (c == '\t') out += "\\t";
        else if (byte < 0x20 || byte == 0x7f) {
            constexpr char kHex[] = "0123456789abcdef";
            out += "\\x";
            out += kHex[byte >> 4];
            out += kHex[byte & 15];
        } else {
            out += c;
        }
    }
    return out + "'";
}

// The whole numbers an Int parameter can hold (std::int64_t): from -2^63 up to, not including, 2^63.
constexpr double kIntLowest = -9223372036854775808.0;
constexpr double kIntBeyond = 9223372036854775808.0;

// An Int parameter's valid range: its spec's, within what std::int64_t holds.
std::int64_t lowestInt(const ParamSpec& spec) {
    if (!spec.minimum || *spec.minimum <= kIntLowest) return std::numeric_limits<std::int64_t>::min();
    return static_cast<std::int64_t>(std::ceil(*spec.minimum));
}
std::int64_t highestInt(const ParamSpec& spec) {
    if (!spec.maximum || *spec.maximum >= kIntBeyond) return std::numeric_limits<std::int64_t>::max();
    return static_cast<std::int64_t>(std::floor(*spec.maximum));
}

// An Int value against its range; `shown` is the value as the message writes it.
bool checkIntRange(const ParamSpec& spec, bool above, bool below, const std::string& shown, std::string& error) {
    if (below) error = shown + " is below the minimum " + std::to_string(lowestInt(spec));
    else if (above) error = shown + " is above the maximum " + std::to_string(highestInt(spec));
    return !below && !above;
}

bool checkRange(const ParamSpec& spec, double v, std::string& error) {
    if (!std::isfinite(v)) {
        error = "must be a finite number";
        return false;
    }
    if (spec.minimum && v < *spec.minimum) {
        error = formatNumber(v) + " is below the minimum " + formatNumber(*spec.minimum);
        return false;
    }
    if (spec.maximum && v > *spec.maximum) {
        error = formatNumber(v) + " is above the maximum " + formatNumber(*spec.maximum);
        return false;
    }
    return true;
}

std::string trim(std::string_view text) {
    auto first = text.find_first_not_of(" \t");
    auto last = text.find_last_not_of(" \t");
    if (first == std::string_view::npos) return {};
    return std::string(text.substr(first, last - first + 1));
}

/// The number the whole of `text` spells (as strtod reads it), or nullopt. A magnitude beyond a
/// double's range gives nullopt and sets `beyondRange`; one too small to tell from 0 reads as the
/// nearest double (1e-400 as 0).
std::optional<double> parseNumber(std::string_view text, bool* beyondRange = nullptr) {
    const std::string s = trim(text);
    if (s.empty()) return std::nullopt;
    // Decimal only: strtod also reads hexadecimal ("0x10" was taken as 16), "inf" and "nan".
    if (s.find_first_not_of("0123456789+-.eE") != std::string::npos) return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size()) return std::nullopt;
    if (errno == ERANGE && std::isinf(v)) {
        if (beyondRange) *beyondRange = true;
        return std::nullopt;
    }
    return v;
}

/// Why `text`, a number beyond a double's range, is refused for `spec`: past its own limit when it
/// has one on that side, else past every number.
std::string beyondRangeText(const ParamSpec& spec, const std::string& text) {
    const bool negative = text.starts_with("-");
    if (negative && spec.minimum) return text + " is below the minimum " + formatNumber(*spec.minimum);
    if (!negative && spec.maximum) return text + " is above the maximum " + formatNumber(*spec.maximum);
    return text + " is beyond the range of numbers (about -1.8e308 to 1.8e308): give a value in it";
}

}  // namespace

std::string_view paramKindName(ParamKind kind) {
    switch (kind) {
        case ParamKind::Bool: return "bool";
        case ParamKind::Int: return "int";
        case ParamKind::Real: return "real";
        case ParamKind::String: return "string";
        case ParamKind::Choice: return "choice";
        case ParamKind::RealList: return "real_list";
        case ParamKind::Path: return "path";
    }
    return "unknown";
}

std::optional<ParamValue> ParamSpec::validate(const ParamValue& value, std::string& error) const {
    switch (kind) {
        case ParamKind::Bool:
            if (auto b = std::get_if<bool>(&value)) return *b;
            error = "expected true or false";
            return std::nullopt;
        case ParamKind::Int: {
            std::int64_t v;
            std::string shown;  // as the message writes it: 1e+18 stays 1e+18
            if (auto i = std::get_if<std::int64_t>(&value)) {
                v = *i;
                shown = std::to_string(v);
            } else if (auto d = std::get_if<double>(&value)) {
                if (!std::isfinite(*d)) {
                    error = "must be a finite number";
                    return std::nullopt;
                }
                if (std::floor(*d) != *d) {
                    error = "expected a whole number, got " + formatNumber(*d);
                    return std::nullopt;
                }
                // Whole, but perhaps beyond what the parameter holds (1e18 blocks, a seed of 2^64 - 1).
                if (!checkIntRange(*this, *d >= kIntBeyond, *d < kIntLowest, formatNumber(*d), error)) return std::nullopt;
                v = static_cast<std::int64_t>(*d);
                shown = formatNumber(*d);
            } else {
                error = "expected a whole number";
                return std::nullopt;
            }
            if (!checkIntRange(*this, v > highestInt(*this), v < lowestInt(*this), shown, error)) return std::nullopt;
            return v;
        }
        case ParamKind::Real: {
            double v;
            if (auto d = std::get_if<double>(&value)) v = *d;
            else if (auto i = std::get_if<std::int64_t>(&value)) v = static_cast<double>(*i);
            else {
                error = "expected a number";
                return std::nullopt;
            }
            if (!checkRange(*this, v, error)) return std::nullopt;
            return v;
        }
        case ParamKind::String:
        case ParamKind::Path:
            if (auto s = std::get_if<std::string>(&value)) return *s;
            error = "expected a string";
            return std::nullopt;
        case ParamKind::Choice: {
            auto s = std::get_if<std::string>(&value);
            if (!s) {
                error = "expected one of the choices";
                return std::nullopt;
            }
            for (const auto& c : choices) {
                if (c == *s) return *s;
            }
            std::string list;
            for (const auto& c : choices) list += (list.empty() ? "" : ", ") + c;
            error = quotedForMessage(*s) + " is not one of: " + list;
            return std::nullopt;
        }
        case ParamKind::RealList: {
            std::vector<double> list;
            if (auto l = std::get_if<std::vector<double>>(&value)) list = *l;
            else if (auto d = std::get_if<double>(&value)) list = {*d};
            else if (auto i = std::get_if<std::int64_t>(&value)) list = {static_cast<double>(*i)};
            else {
                error = "expected a list of numbers";
                return std::nullopt;
            }
            for (double v : list) {
                if (!checkRange(*this, v, error)) return std::nullopt;
            }
            return list;
        }
    }
    error = "unknown parameter kind";
    return std::nullopt;
}

std::optional<ParamValue> ParamSpec::parseText(std::string_view text, std::string& error) const {
    std::string s = trim(text);
    switch (kind) {
        case ParamKind::Bool:
            if (s == "true" || s == "1" || s == "yes" || s == "on") return validate(true, error);
            if (s == "false" || s == "0" || s == "no" || s == "off") return validate(false, error);
            error = "expected true or false, got " + quotedForMessage(s);
            return std::nullopt;
        case ParamKind::Int:
        case ParamKind::Real: {
            if (kind == ParamKind::Int) {
                // A whole number in full first: as a double, 2^63 - 1 would be rounded to 2^63.
                std::int64_t whole = 0;
                const char* end = s.data() + s.size();
                const auto [stop, status] = std::from_chars(s.data(), end, whole);
                if (stop == end && status == std::errc()) return validate(whole, error);
                if (stop == end && status == std::errc::result_out_of_range) {
                    checkIntRange(*this, !s.starts_with("-"), s.starts_with("-"), s, error);
                    return std::nullopt;
                }
            }
            bool beyondRange = false;
            auto v = parseNumber(s, &beyondRange);
            if (!v) {
                error = beyondRange ? beyondRangeText(*this, s) : "expected a number, got " + quotedForMessage(s);
                return std::nullopt;
            }
            return validate(*v, error);
        }
        case ParamKind::String:
        case ParamKind::Path:
        case ParamKind::Choice:
            return validate(s, error);
        case ParamKind::RealList: {
            std::vector<double> list;
            std::string body = s;
            if (!body.empty() && body.front() == '[' && body.back() == ']') body = body.substr(1, body.size() - 2);
            std::stringstream stream(body);
            std::string part;
            while (std::getline(stream, part, ',')) {
                bool beyondRange = false;
                auto v = parseNumber(part, &beyondRange);
                if (!v) {
                    error = beyondRange ? trim(part) + " is beyond the range of numbers (about -1.8e308 to 1.8e308): give a value in it"
                                        : "expected comma-separated numbers, got " + quotedForMessage(part);
                    return std::nullopt;
                }
                list.push_back(*v);
            }
            return validate(list, error);
        }
    }
    error = "unknown parameter kind";
    return std::nullopt;
}

std::optional<ParamValue> ParamSpec::fromJson(const nlohmann::json& value, std::string& error) const {
    if (value.is_boolean()) return validate(value.get<bool>(), error);
    if (value.is_number_unsigned() && value.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        // Beyond std::int64_t (which would wrap it to a negative number).
        const std::uint64_t big = value.get<std::uint64_t>();
        if (kind != ParamKind::Int) return validate(static_cast<double>(big), error);
        checkIntRange(*this, true, false, std::to_string(big), error);
        return std::nullopt;
    }
    if (value.is_number_integer()) return validate(value.get<std::int64_t>(), error);
    if (value.is_number()) return validate(value.get<double>(), error);
    if (value.is_string()) {
        if (kind == ParamKind::String || kind == ParamKind::Path || kind == ParamKind::Choice) {
            return validate(value.get<std::string>(), error);
        }
        error = "expected " + std::string(paramKindName(kind)) + ", got the string " + quotedForMessage(value.get<std::string>());
        return std::nullopt;
    }
    if (value.is_array()) {
        std::vector<double> list;
        for (const auto& element : value) {
            if (!element.is_number()) {
                error = "expected a list of numbers";
                return std::nullopt;
            }
            list.push_back(element.get<double>());
        }
        return validate(list, error);
    }
    error = "expected " + std::string(paramKindName(kind)) + ", got " + std::string(value.type_name());
    return std::nullopt;
}

nlohmann::json paramValueToJson(const ParamValue& value) {
    return std::visit([](const auto& v) { return nlohmann::json(v); }, value);
}

std::string paramValueToText(const ParamValue& value) {
    if (auto s = std::get_if<std::string>(&value)) return *s;
    return paramValueToJson(value).dump();
}

const ParamValue& ParamSet::get(std::string_view name) const {
    auto it = values_.find(name);
    if (it == values_.end()) throw std::out_of_range("no parameter named '" + std::string(name) + "'");
    return it->second;
}

double ParamSet::getReal(std::string_view name) const {
    const ParamValue& v = get(name);
    if (auto i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
    return std::get<double>(v);
}

}  // namespace isochron
