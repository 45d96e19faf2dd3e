// YAML nodes as JSON values (rule examples, matrix files). Quoted scalars
// stay strings ("24.04" never becomes 24.04), plain ones become numbers,
// booleans or null the way YAML 1.2 reads them.
#pragma once

#include "base/fact.h"
#include "formats/yaml_tree.h"

namespace rocmdoc {

Json yaml_to_json(const YamlNode& node);
// True when yaml_to_json gives this scalar as a string: quoted, or plain
// and not a boolean, null or integer.
bool yaml_scalar_is_string(const YamlNode& scalar);

}  // namespace rocmdoc
