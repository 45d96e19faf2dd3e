// Facts are three-valued: a JSON value, or {"unknown": "<reason>"}.
// A rule never fires on an unknown fact, and the report lists what could
// not be checked instead of calling it healthy.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace rocmdoc {

// Insertion-ordered so that the facts document reads in probe order.
using Json = nlohmann::ordered_json;

Json unknown(const std::string& reason);
bool is_unknown(const Json& fact);
// The reason of an unknown fact; empty for a known one.
std::string unknown_reason(const Json& fact);

// obj[key] for reading: null when obj is not an object or has no such key.
// (nlohmann's const operator[] on a missing key is undefined behaviour.)
const Json& field(const Json& obj, const char* key);

// The same document with every string and key made safe for a terminal
// (printable() in base/text.h): what a text report shows of a recorded
// machine or a facts file cannot carry escape sequences to the screen.
Json printable_strings(const Json& doc);

}  // namespace rocmdoc
