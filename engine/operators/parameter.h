// Typed operator parameters: specs with defaults, units, ranges and docs; validated values.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace isochron {

/// The type of a parameter, which also picks its editor in the UI.
enum class ParamKind { Bool, Int, Real, String, Choice, RealList, Path };

/// "bool", "int", "real", "string", "choice", "real_list" or "path". [any thread] [no allocation]
std::string_view paramKindName(ParamKind kind);

/// A parameter value. Int and Real are distinct; Choice and Path are strings. [value type]
using ParamValue = std::variant<bool, std::int64_t, double, std::string, std::vector<double>>;

/// Describes one parameter: type, default, valid range (inclusive), unit and a one-line doc.
/// Its functions run on the setup thread (validation) or any thread; they may allocate.
struct ParamSpec {
    std::string name;
    ParamKind kind = ParamKind::Real;
    ParamValue defaultValue = 0.0;
    std::optional<double> minimum;   ///< Int/Real: smallest valid value; RealList: per element
    std::optional<double> maximum;   ///< Int/Real: largest valid value; RealList: per element
    std::string unit;                ///< e.g. "samples", "Hz", "s", "dB"; empty if unitless
    std::string doc;                 ///< one line: what it does
    std::vector<std::string> choices;  ///< Choice: the allowed values
    bool live = false;               ///< may change while the graph runs

    /// `value` converted to this spec's type and checked; on failure, nullopt and `error` says why
    /// in a sentence that names neither node nor parameter (the caller adds those). [any thread] [may allocate]
    std::optional<ParamValue> validate(const ParamValue& value, std::string& error) const;
    /// Parse command-line text ("512", "true", "1,2,3", "hann") as this parameter's type, then
    /// validate. [any thread] [may allocate]
    std::optional<ParamValue> parseText(std::string_view text, std::string& error) const;
    /// Convert a JSON value, then validate. [any thread] [may allocate]
    std::optional<ParamValue> fromJson(const nlohmann::json& value, std::string& error) const;
};

/// A value as graph files write it. [any thread] [may allocate]
nlohmann::json paramValueToJson(const ParamValue& value);
/// A value as the command line writes it ("512", "true", "1,2,3"). [any thread] [may allocate]
std::string paramValueToText(const ParamValue& value);

/// The validated parameters of one node, by name. Getters throw std::bad_variant_access for the
/// wrong type and std::out_of_range for an unknown name. [value type; getters: any thread, no allocation]
class ParamSet {
public:
    void set(std::string name, ParamValue value) { values_[std::move(name)] = std::move(value); }
    bool has(std::string_view name) const { return values_.find(name) != values_.end(); }
    const ParamValue& get(std::string_view name) const;

    bool getBool(std::string_view name) const { return std::get<bool>(get(name)); }
    std::int64_t getInt(std::string_view name) const { return std::get<std::int64_t>(get(name)); }
    double getReal(std::string_view name) const;  ///< Real, or Int widened
    const std::string& getString(std::string_view name) const { return std::get<std::string>(get(name)); }
    const std::vector<double>& getRealList(std::string_view name) const {
        return std::get<std::vector<double>>(get(name));
    }

    const std::map<std::string, ParamValue, std::less<>>& all() const { return values_; }

private:
    std::map<std::string, ParamValue, std::less<>> values_;
};

}  // namespace isochron
