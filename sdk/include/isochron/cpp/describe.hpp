// Describing operator types in C++: Port, Param and OperatorType build the ABI's isochron_port,
// isochron_param and isochron_operator_type, keeping every string they point to. Used once, when
// the host loads the plugin. [setup thread] [may allocate]
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "isochron/cpp/operator.hpp"

namespace isochron::sdk {

/// One declared port: name, type as graph files spell it ("signal<f32>", "scalar",
/// "custom<tones.tone>", "any"), a one-line doc, and options. [value type]
struct Port {
    Port(std::string name, std::string type, std::string doc) : name(std::move(name)), type(std::move(type)), doc(std::move(doc)) {}
    /// Inputs: may be left unconnected (it then counts as ended).
    Port& optional() { flags |= ISOCHRON_PORT_OPTIONAL; return *this; }
    /// Repeated port: int parameter `param` says how many (name0, name1, ...).
    Port& countParam(std::string param) { count = std::move(param); return *this; }
    /// Outputs: the resolved type of input `input`.
    Port& typeFrom(std::string input) { from = std::move(input); return *this; }
    /// The type is the value of string/choice parameter `param`.
    Port& typeParam(std::string param) { typeParameter = std::move(param); return *this; }

    std::string name, type, doc, count, from, typeParameter;
    std::uint32_t flags = 0;
};

/// One declared parameter, made by the named constructors; ranges are inclusive. [value type]
struct Param {
    static Param boolean(std::string name, bool byDefault, std::string doc) {
        Param p(std::move(name), ISOCHRON_PARAM_BOOL, std::move(doc));
        p.number = byDefault ? 1 : 0;
        return p;
    }
    static Param integer(std::string name, std::int64_t byDefault, double minimum, double maximum, std::string unit, std::string doc) {
        return ranged(std::move(name), ISOCHRON_PARAM_INT, static_cast<double>(byDefault), minimum, maximum, std::move(unit), std::move(doc));
    }
    static Param real(std::string name, double byDefault, double minimum, double maximum, std::string unit, std::string doc) {
        return ranged(std::move(name), ISOCHRON_PARAM_REAL, byDefault, minimum, maximum, std::move(unit), std::move(doc));
    }
    static Param text(std::string name, std::string byDefault, std::string doc) {
        return texted(std::move(name), ISOCHRON_PARAM_STRING, std::move(byDefault), std::move(doc));
    }
    static Param path(std::string name, std::string byDefault, std::string doc) {
        return texted(std::move(name), ISOCHRON_PARAM_PATH, std::move(byDefault), std::move(doc));
    }
    static Param choice(std::string name, std::string byDefault, std::vector<std::string> choices, std::string doc) {
        Param p = texted(std::move(name), ISOCHRON_PARAM_CHOICE, std::move(byDefault), std::move(doc));
        p.choices = std::move(choices);
        return p;
    }
    static Param realList(std::string name, std::vector<double> byDefault, double minimum, double maximum, std::string unit, std::string doc) {
        Param p = ranged(std::move(name), ISOCHRON_PARAM_REAL_LIST, 0, minimum, maximum, std::move(unit), std::move(doc));
        p.list = std::move(byDefault);
        return p;
    }
    /// May change while the graph runs (Operator::parameterChanged).
    Param& live() { flags |= ISOCHRON_PARAM_LIVE; return *this; }

    std::string name, unit, doc, textDefault;
    std::uint32_t kind = ISOCHRON_PARAM_REAL, flags = 0;
    double minimum = 0, maximum = 0, number = 0;
    std::vector<double> list;
    std::vector<std::string> choices;

private:
    Param(std::string name, std::uint32_t kind, std::string doc) : name(std::move(name)), doc(std::move(doc)), kind(kind) {}
    static Param ranged(std::string name, std::uint32_t kind, double byDefault, double minimum, double maximum, std::string unit, std::string doc) {
        Param p(std::move(name), kind, std::move(doc));
        p.number = byDefault;
        p.minimum = minimum;
        p.maximum = maximum;
        p.unit = std::move(unit);
        p.flags = ISOCHRON_PARAM_HAS_MINIMUM | ISOCHRON_PARAM_HAS_MAXIMUM;
        return p;
    }
    static Param texted(std::string name, std::uint32_t kind, std::string byDefault, std::string doc) {
        Param p(std::move(name), kind, std::move(doc));
        p.textDefault = std::move(byDefault);
        return p;
    }
};

/// An operator type: its declaration and how to make an instance. Build one with
/// OperatorType::of<MyOperator>("family.name") and the setters. [setup thread] [may allocate]
class OperatorType {
public:
    template <class T> static OperatorType of(std::string typeName) {
        OperatorType type;
        type.typeName_ = std::move(typeName);
        type.make_ = [] { return std::unique_ptr<Operator>(new T()); };
        return type;
    }

    OperatorType& category(std::string text) { category_ = std::move(text); return *this; }
    OperatorType& summary(std::string text) { summary_ = std::move(text); return *this; }
    OperatorType& documentation(std::string text) { documentation_ = std::move(text); return *this; }
    OperatorType& input(Port port) { inputs_.push_back(std::move(port)); return *this; }
    OperatorType& input(std::string name, std::string type, std::string doc) { return input(Port(std::move(name), std::move(type), std::move(doc))); }
    OperatorType& output(Port port) { outputs_.push_back(std::move(port)); return *this; }
    OperatorType& output(std::string name, std::string type, std::string doc) { return output(Port(std::move(name), std::move(type), std::move(doc))); }
    OperatorType& param(Param param) { params_.push_back(std::move(param)); return *this; }

    const std::string& typeName() const { return typeName_; }

    /// The ABI's view, pointing into this object (which must then stay where it is). [setup thread]
    isochron_operator_type toAbi() {
        cInputs_ = portsToAbi(inputs_);
        cOutputs_ = portsToAbi(outputs_);
        cParams_.clear();
        for (Param& p : params_) {
            std::vector<const char*>& choices = cChoices_.emplace_back();
            for (const std::string& choice : p.choices) choices.push_back(choice.c_str());
            cParams_.push_back({p.name.c_str(), p.kind, p.flags, p.minimum, p.maximum, p.unit.c_str(), p.doc.c_str(), p.number,
                                p.textDefault.c_str(), p.list.data(), static_cast<std::uint32_t>(p.list.size()),
                                static_cast<std::uint32_t>(choices.size()), choices.data()});
        }
        return {typeName_.c_str(), category_.c_str(), summary_.c_str(), documentation_.c_str(),
                static_cast<std::uint32_t>(cInputs_.size()), cInputs_.data(),
                static_cast<std::uint32_t>(cOutputs_.size()), cOutputs_.data(),
                static_cast<std::uint32_t>(cParams_.size()), cParams_.data(),
                &create, this};
    }

private:
    static std::vector<isochron_port> portsToAbi(const std::vector<Port>& ports) {
        std::vector<isochron_port> out;
        auto orNull = [](const std::string& text) { return text.empty() ? nullptr : text.c_str(); };
        for (const Port& p : ports) out.push_back({p.name.c_str(), p.type.c_str(), p.doc.c_str(), p.flags, orNull(p.count), orNull(p.from), orNull(p.typeParameter)});
        return out;
    }
    static const isochron_operator* create(const isochron_operator_type* type, const isochron_host* host) {
        try {
            const auto* self = static_cast<const OperatorType*>(type->type_data);
            return OperatorBinding::bind(self->make_().release(), host);
        } catch (const std::exception& e) {
            host->log(host, ISOCHRON_LOG_ERROR, e.what());
        } catch (...) {
            host->log(host, ISOCHRON_LOG_ERROR, "the constructor threw something that is not a std::exception");
        }
        return nullptr;
    }

    std::string typeName_, category_, summary_, documentation_;
    std::vector<Port> inputs_, outputs_;
    std::vector<Param> params_;
    std::function<std::unique_ptr<Operator>()> make_;
    std::vector<isochron_port> cInputs_, cOutputs_;
    std::vector<isochron_param> cParams_;
    std::vector<std::vector<const char*>> cChoices_;
};

}  // namespace isochron::sdk
