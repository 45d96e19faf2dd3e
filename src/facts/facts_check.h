// Whether a JSON document has the shape of a facts document (schema 1), for
// --facts FILE: every name is one docs/facts.md lists (facts_schema.h),
// lists are lists, sections and records are objects, and a value is a
// string, number or boolean as that fact holds (facts_kinds.cpp), or null,
// or unknown (a name the schema has seen only empty is taken as it is). A file edited by hand, or made to mislead, is refused at load
// with the first place that is wrong, instead of being half used.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "base/fact.h"

namespace rocmdoc {

enum FactKind : char { kString = 's', kNumber = 'n', kBoolean = 'b' };

struct FactKindEntry {
  std::string_view name;
  FactKind kind;
};

// In byte order of name.
std::span<const FactKindEntry> fact_kinds();

// The first problem, as "kernel.release: a number (12345), where the fact is
// a string", or nullopt when the document fits. Metadata (schema,
// generator, source, commands_run) is not checked here.
std::optional<std::string> check_facts_shape(const Json& doc);

}  // namespace rocmdoc
